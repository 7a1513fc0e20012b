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
# kiln compile keeps the two tables on the FPGA (kiln_lut's CHANS).
# The model: tests/models/gen_chscale.py.
set -euo pipefail
kiln=$1 work=$2
mkdir -p "$work"
/usr/bin/python3 "$(dirname "$0")/../models/gen_chscale.py" "$work/m.onnx" "$work/in.npy"
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
# kiln_lut takes a table per channel: kiln compile keeps the whole chain on
# the FPGA (test sim_chscale_lut simulates it).
"$kiln" compile "$work/q.gir" --board zcu104 -o "$work/fpga" --plan-only > "$work/compile.txt"
grep -q ' 5 FPGA layers, ' "$work/compile.txt"
test "$(grep -c '= LutI8(' "$work/q.gir")" = 2
! grep -q '(LutI8):' "$work/fpga/report.md"
echo "kiln compile: both per-channel LutI8s on the FPGA, 5 FPGA layers"
