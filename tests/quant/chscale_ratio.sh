#!/usr/bin/env bash
# RUN: chscale_ratio.sh KILN WORKDIR  -> quant_channel_scales_ratio
# --channel-scales auto:R (docs/quant.md "Per-channel activation scales"):
# a value goes per channel where its median channel's threshold is below R
# times the tensor's; auto is auto:0.25.  On the chain of test
# quant_channel_scales (tests/models/gen_chscale.py: c0 -> affine +
# HardSwish h0 -> depthwise conv c1 -> HardSwish h1 -> 1x1 conv y) the
# ratio grades what is chosen: auto:0.01 none inside the int8 graph (the
# graph of --channel-scales off: only the head y per channel), auto:0.1 c0
# and h0 (c1 is more even), auto:0.25 c0, h0 and c1 (byte for byte the
# graph of auto); each choice raises the output's SQNR over the one before,
# and the CPU back end gives the int8 interpreter's output byte for byte.
set -euo pipefail
kiln=$1 work=$2
mkdir -p "$work"
/usr/bin/python3 "$(dirname "$0")/../models/gen_chscale.py" "$work/m.onnx" "$work/in.npy"
q() { "$kiln" quantize "$work/m.onnx" --calib-random 4 --calib-backend ref "$@" 2> /dev/null; }
prev=-100
for cs in off auto:0.01 auto:0.1 auto:0.25 auto; do
  q --channel-scales "$cs" -o "$work/$cs.gir"
  q --channel-scales "$cs" --report -i "$work/in.npy" > "$work/$cs.txt"
  chosen=$(sed -nE 's/^channel scales ([^:]+):.*/\1/p' "$work/$cs.txt" | paste -sd,)
  sqnr=$(sed -nE 's/^output y: cosine [0-9.]+  SQNR ([-0-9.]+) dB$/\1/p' "$work/$cs.txt")
  echo "--channel-scales $cs: per channel $chosen; output SQNR $sqnr dB"
  case $cs in
    off | auto:0.01) want=y ;;
    auto:0.1) want=c0,h0,y ;;
    *) want=c0,h0,c1,y ;;
  esac
  [ "$chosen" = "$want" ] || { echo "--channel-scales $cs chose '$chosen', expected '$want'"; exit 1; }
  case $cs in
    auto:0.1 | auto:0.25) awk -v a="$sqnr" -v b="$prev" 'BEGIN { exit !(a > b) }' ||
      { echo "--channel-scales $cs: SQNR $sqnr dB not above $prev dB"; exit 1; } ;;
  esac
  prev=$sqnr
done
cmp "$work/off.gir" "$work/auto:0.01.gir"
cmp "$work/auto.gir" "$work/auto:0.25.gir"
echo "auto:0.01 gives the graph of off, auto:0.25 the graph of auto"
"$kiln" run "$work/auto:0.1.gir" -i "$work/in.npy" --target int8 -o "$work/int8.npy" > /dev/null
"$kiln" run "$work/auto:0.1.gir" -i "$work/in.npy" --target cpu -o "$work/cpu.npy" > /dev/null \
  2> "$work/cpu.err"
grep -q ' 0 in the interpreter' "$work/cpu.err" || { cat "$work/cpu.err"; exit 1; }
cmp "$work/int8.npy" "$work/cpu.npy"
echo "auto:0.1: --target cpu byte for byte --target int8"
