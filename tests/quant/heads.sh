#!/usr/bin/env bash
# RUN: heads.sh KILN HEADS_GIR WORKDIR
# kiln quantize gives a scale per channel to exactly the convs whose int8
# output leaves the int8 graph, not into another layer (heads.gir says
# which), with a per-axis
# DequantizeLinear after each; --per-tensor-outputs gives none; the int8
# graph round-trips through the text IR and its report runs it.
set -euo pipefail
kiln=$1 model=$2 work=$3
mkdir -p "$work"
"$kiln" quantize "$model" --calib-random 4 -o "$work/q.gir" 2> /dev/null
chan() { grep -E "^%$1 = Conv\(.* : i8\[[0-9,]*\]( nchw)? scale\([^,)]*," "$2" > /dev/null; }
for v in b s0; do chan $v "$work/q.gir" || { echo "%$v: no per-channel scale"; exit 1; }; done
for v in a c t0; do ! chan $v "$work/q.gir" || { echo "%$v: per-channel scale"; exit 1; }; done
test "$(grep -c '= DequantizeLinear(.*{axis=1}' "$work/q.gir")" = 2
"$kiln" ir "$work/q.gir" -o "$work/q2.gir"
cmp "$work/q.gir" "$work/q2.gir"
"$kiln" quantize "$model" --calib-random 4 --report 2> /dev/null | grep '^output' | tee "$work/report.txt"
test "$(wc -l < "$work/report.txt")" = 5
"$kiln" quantize "$model" --calib-random 4 --per-tensor-outputs -o "$work/pt.gir" 2> /dev/null
for v in a b s0 c t0; do ! chan $v "$work/pt.gir" || { echo "--per-tensor-outputs: %$v per channel"; exit 1; }; done
echo "per-channel heads: %b %s0; one scale: %a %c %t0"
