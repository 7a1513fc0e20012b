#!/usr/bin/env bash
# RUN: fold_heads.sh KILN MODEL INPUT WORKDIR
# The head convs' per-channel output scales survive kiln export and the
# fold_qdq pass: the exported per-axis QuantizeLinear / DequantizeLinear
# fold back into int8 Convs with a scale per channel, and the folded graph
# gives the quantized graph's outputs byte for byte.
set -euo pipefail
kiln=$1 model=$2 input=$3 work=$4
mkdir -p "$work"
"$kiln" quantize "$model" --calib-random 2 -o "$work/q.gir" 2> /dev/null
"$kiln" export "$work/q.gir" -o "$work/q.onnx"
"$kiln" opt "$work/q.onnx" --passes=fold_qdq -o "$work/f.gir"
heads=$(grep -c '= Conv(.* : i8\[[0-9,]*\]\( nchw\)\? scale([^,)]*,' "$work/f.gir" || true)
echo "per-channel convs after the fold: $heads"
[ "$heads" -ge 1 ]
"$kiln" run "$work/q.gir" --target int8 -i "$input" -o "$work/a0.npy" -o "$work/a1.npy" > /dev/null
"$kiln" run "$work/f.gir" --target int8 -i "$input" -o "$work/b0.npy" -o "$work/b1.npy" > /dev/null
cmp "$work/a0.npy" "$work/b0.npy"
cmp "$work/a1.npy" "$work/b1.npy"
echo "folded outputs byte for byte the quantized graph's"
