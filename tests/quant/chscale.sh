#!/usr/bin/env bash
# RUN: chscale.sh KILN WORKDIR  -> quant_channel_scales
# A seeded conv -> affine + HardSwish -> depthwise conv -> HardSwish -> 1x1
# conv chain whose first conv's output channels range over three decades
# (trained nets' channel imbalance, docs/quant.md "Per-channel activation
# scales").  With --channel-scales auto both conv outputs and the result
# the depthwise conv reads get per-channel scales (report lines; h1, read by
# a dense conv, keeps one scale), both LutI8s hold 16 x 256 entries, the
# output's SQNR passes a bound one scale per tensor misses (31.1 against
# 11.6 dB), the text form round-trips byte for byte, the CPU back end
# (--target cpu) gives the int8 interpreter's output byte for byte, and
# kiln compile puts the two tables on the CPU with a reason.
set -euo pipefail
kiln=$1 work=$2
mkdir -p "$work"
/usr/bin/python3 - "$work/m.onnx" "$work/in.npy" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
r = np.random.default_rng(7)
C = 16
spread = np.float32(10.0) ** np.linspace(-2.0, 1.0, C).astype(np.float32)
w0 = (r.standard_normal((C, 3, 3, 3)) * 0.3).astype(np.float32) * spread[:, None, None, None]
b0 = (r.standard_normal(C) * 0.1).astype(np.float32) * spread
w1 = (r.standard_normal((C, 1, 3, 3)) * 0.5).astype(np.float32) / np.sqrt(spread)[:, None, None, None]
w2 = (r.standard_normal((8, C, 1, 1)) * 0.3).astype(np.float32)
init = [numpy_helper.from_array(a, n) for a, n in
        [(w0, "w0"), (b0, "b0"), (w1, "w1"), (w2, "w2"),
         (np.array([0.9], np.float32), "ka"), (np.array([0.05], np.float32), "kb")]]
nodes = [
    helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], "conv0", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Mul", ["c0", "ka"], ["m0"], "mul0"),
    helper.make_node("Add", ["m0", "kb"], ["a0"], "add0"),
    helper.make_node("HardSwish", ["a0"], ["h0"], "hswish0"),
    helper.make_node("Conv", ["h0", "w1"], ["c1"], "dw1", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=C),
    helper.make_node("HardSwish", ["c1"], ["h1"], "hswish1"),
    helper.make_node("Conv", ["h1", "w2"], ["y"], "conv2", kernel_shape=[1, 1]),
]
g = helper.make_graph(nodes, "chscale",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 32, 32])], init)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(m, sys.argv[1])
np.save(sys.argv[2], np.random.default_rng(11).random((1, 3, 32, 32), dtype=np.float32))
PY
sqnr() { sed -n 's/^output y: cosine [0-9.]*  SQNR \([-0-9.]*\) dB$/\1/p' "$1"; }
"$kiln" quantize "$work/m.onnx" --calib-random 4 --calib-backend ref --report -i "$work/in.npy" \
  --channel-scales off > "$work/off.txt"
"$kiln" quantize "$work/m.onnx" --calib-random 4 --calib-backend ref --report -i "$work/in.npy" \
  --channel-scales auto -o "$work/q.gir" > "$work/auto.txt"
off=$(sqnr "$work/off.txt") auto=$(sqnr "$work/auto.txt")
echo "output SQNR: one scale per tensor $off dB, --channel-scales auto $auto dB"
grep '^channel scales' "$work/auto.txt"
# c0, h0 (read by the depthwise conv), c1 inside the int8 graph (h1, read by
# a dense conv, keeps one scale); y, the head, in both runs
test "$(grep -c '^channel scales' "$work/auto.txt")" = 4
grep -q '^channel scales h0: ' "$work/auto.txt"
! grep -q '^channel scales h1: ' "$work/auto.txt"
test "$(grep -c '^channel scales' "$work/off.txt")" = 1
awk -v a="$auto" -v o="$off" 'BEGIN { exit !(a >= 25 && o < 20) }'
/usr/bin/python3 - "$work/q.gir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
luts = re.findall(r'= LutI8\(%\S+\) \{lut=\[([^\]]*)\]\}', text)
sizes = sorted(len(l.split(',')) for l in luts)
if sizes != [16 * 256, 16 * 256]:
    sys.exit(f"LutI8 tables of {sizes} entries, expected two of 16 x 256")
print("two LutI8 tables of 16 x 256 entries")
PY
"$kiln" ir "$work/q.gir" -o "$work/q2.gir"
cmp "$work/q.gir" "$work/q2.gir"
"$kiln" run "$work/q.gir" -i "$work/in.npy" --target int8 -o "$work/int8.npy" > /dev/null
"$kiln" run "$work/q.gir" -i "$work/in.npy" --target cpu -o "$work/cpu.npy" > /dev/null 2> "$work/cpu.err"
grep -q ' 0 in the interpreter' "$work/cpu.err" || { cat "$work/cpu.err"; exit 1; }
cmp "$work/int8.npy" "$work/cpu.npy"
echo "--target cpu byte for byte --target int8"
# The FPGA's kiln_lut holds one table: kiln compile puts both per-channel
# LutI8s on the CPU with their reason, the three convs on the FPGA.
"$kiln" compile "$work/q.gir" --board zcu104 -o "$work/fpga" > "$work/compile.txt"
grep -q ' 3 FPGA layers, ' "$work/compile.txt"
test "$(grep -c '(LutI8): a LutI8 table per channel has no kiln_lut form yet$' \
        "$work/fpga/report.md")" = 2
echo "kiln compile: both per-channel LutI8s on the CPU, 3 FPGA layers"
