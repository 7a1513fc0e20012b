#!/usr/bin/env bash
# RUN: fp32_range.sh KILN MODELS_DIR WORKDIR  -> quant_fp32_range
# kiln quantize --fp32 FROM..TO (docs/quant.md "Mixed precision"): a range
# keeps the nodes from FROM to TO in graph order in fp32, both included.
# On resdw (conv0, dw2, conv3, add4, maxpool5, conv6, dw7, conv8)
# dw2..maxpool5 keeps those four with a report line each ("kept in fp32 as
# asked"), the other four stay int8, and the int8 graph is byte for byte
# the one the same four names listed one by one give.  A range may sit
# beside names (conv0,dw7..conv8).
set -euo pipefail
kiln=$1 models=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
m=$models/resdw.onnx
q() { "$kiln" quantize "$m" --calib-random 2 --calib-backend ref "$@"; }
q --fp32 dw2..maxpool5 --report -i "$models/resdw-input.npy" > "$work/range.txt" 2> /dev/null
grep -q '^method minmax, 2 calibration inputs, 4 of 8 nodes int8$' "$work/range.txt" ||
  { cat "$work/range.txt"; echo "dw2..maxpool5: not 4 of 8 nodes int8"; exit 1; }
kept=$(sed -nE 's/^fp32 node ([^ ]+) \(.*\): kept in fp32 as asked \(--fp32\)$/\1/p' "$work/range.txt" |
       paste -sd,)
[ "$kept" = "dw2,conv3,add4,maxpool5" ] || { echo "dw2..maxpool5 kept '$kept' in fp32"; exit 1; }
q --fp32 dw2..maxpool5 -o "$work/range.gir" 2> /dev/null
q --fp32 dw2,conv3,add4,maxpool5 -o "$work/names.gir" 2> /dev/null
cmp "$work/range.gir" "$work/names.gir"
q --fp32 conv0,dw7..conv8 -o "$work/mixed.gir" 2> /dev/null
q --fp32 conv0,dw7,conv8 -o "$work/mixed-names.gir" 2> /dev/null
cmp "$work/mixed.gir" "$work/mixed-names.gir"
! grep -q ' = Conv(.*: i8\[.* @"conv0"' "$work/mixed.gir"
grep -q ' = Conv(.*: i8\[.* @"conv6"' "$work/mixed.gir"
echo "dw2..maxpool5: $kept in fp32, 4 of 8 nodes int8, the graph of the four names; conv0,dw7..conv8 likewise"
