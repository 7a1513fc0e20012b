#!/usr/bin/env bash
# RUN: lut_range.sh KILN MODEL WORKDIR
# The thresholds around LutI8 tables (docs/quant.md, step 3), on
# lut_range.gir calibrated (minmax) on one long-tailed input (Student's t,
# 3 degrees of freedom): the input of the HardSigmoid table ranges past
# +-1000 but gets threshold 2.5, where the
# function stops changing (so the table spends its 256 entries on the slope:
# at least 100 distinct outputs); the HardSwish result read by a conv only
# gets its least-MSE threshold, below 0.85 of its largest value, and the
# HardSwish input no more than that (beyond it the table's output saturates).
# Before, all three kept their largest |x|.
set -euo pipefail
kiln=$1 model=$2 work=$3
rm -rf "$work" && mkdir -p "$work/calib"
/usr/bin/python3 - "$work/calib/x.npy" "$work/hmax" <<'PY'
import sys
import numpy as np
x = np.random.default_rng(1).standard_t(3, (1, 1, 256, 256)).astype(np.float32)
np.save(sys.argv[1], x)
h = x.astype(np.float64)
print(f"{(h * np.clip(h / 6 + 0.5, 0, 1)).max():.4g}", file=open(sys.argv[2], "w"))
PY
"$kiln" quantize "$model" --calib "$work/calib" -o "$work/q.gir" 2> /dev/null
/usr/bin/python3 - "$work/q.gir" "$(cat "$work/hmax")" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
thr = {v: 127 * float(s) for v, s in re.findall(r'^%(\S+) = .*scale\(([^),]+)\)', text, re.M)}
lut = dict(re.findall(r'^%(\S+) = LutI8\(%\S+\) \{lut=\[([^\]]*)\]\}', text, re.M))
print("thresholds: " + ", ".join(f"%{v} {thr[v]:.4g}" for v in ("a", "h", "c", "s")))
distinct = len(set(lut["s"].split(",")))
print(f"HardSigmoid table: {distinct} distinct outputs")
assert 2.4 <= thr["c"] <= 2.5, "HardSigmoid input not clipped to [-2.5, 2.5]"
assert distinct >= 100, "HardSigmoid table spends few entries on the slope"
hmax = float(sys.argv[2])
print(f"HardSwish result: largest {hmax:.4g}")
assert thr["h"] < 0.85 * hmax, "HardSwish result read by a conv kept its largest value as threshold"
assert thr["a"] <= thr["h"] * 1.01, "HardSwish input beyond where the table saturates"
PY
# the int8 graph still runs and round-trips
"$kiln" ir "$work/q.gir" -o "$work/q2.gir"
cmp "$work/q.gir" "$work/q2.gir"
