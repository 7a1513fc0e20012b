#!/usr/bin/env bash
# RUN: lut.sh KILN MODEL INPUT WORKDIR
# gen_small.py's hswish model (conv, scalar affine, paddle2onnx's HardSwish):
# every node runs in int8, each affine + HardSwish chain is one LutI8 whose
# 256 entries equal numpy's hswish(ka * q * s_in + kb) / s_out rounded half
# to even and saturated (an independent reference), the text form round-trips
# byte for byte, and the output keeps cosine >= 0.95 against fp32 (0.975 on
# the seeded input).
set -euo pipefail
kiln=$1 model=$2 input=$3 work=$4
mkdir -p "$work"
"$kiln" quantize "$model" --calib-random 2 --report --min-cosine 0.95 -i "$input" \
  -o "$work/q.gir" | tee "$work/report.txt"
grep -q '^method minmax, 2 calibration inputs, 13 of 13 nodes int8$' "$work/report.txt"
test "$(grep -c '= LutI8(' "$work/q.gir")" = 3
"$kiln" ir "$work/q.gir" -o "$work/q2.gir"
cmp "$work/q.gir" "$work/q2.gir"
/usr/bin/python3 - "$model" "$work/q.gir" <<'PY'
import re, sys
import numpy as np
import onnx
from onnx import numpy_helper
init = {t.name: numpy_helper.to_array(t) for t in onnx.load(sys.argv[1]).graph.initializer}
text = open(sys.argv[2]).read()
scale = dict(re.findall(r'^%(\S+) = .*scale\(([^)]+)\)', text, re.M))
n = 0
for out, x, lut in re.findall(r'^%(\S+) = LutI8\(%(\S+)\) \{lut=\[([^\]]*)\]\}', text, re.M):
    got = np.array([int(v) for v in lut.split(',')])
    pre = out[:-len('_hswish')]
    ka, kb = float(init[pre + '_ka'][0]), float(init[pre + '_kb'][0])
    sx, sy = float(np.float32(scale[x])), float(np.float32(scale[out]))
    v = ka * np.arange(-128, 128) * sx + kb
    v = v * np.clip(v / 6 + 0.5, 0, 1)
    want = np.clip(np.rint(v / sy), -128, 127).astype(int)
    bad = np.nonzero(got != want)[0]
    if len(got) != 256 or len(bad):
        sys.exit(f"{out}: table differs from numpy at entries {bad[:8].tolist()}")
    n += 1
print(f"{n} LutI8 tables equal numpy's")
PY
