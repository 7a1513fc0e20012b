#!/usr/bin/env bash
# RUN: roundtrip_quant.sh KILN MODEL WORKDIR
# A quantized graph in the text IR round-trips byte for byte, carries int8
# values with scales, and runs under --target int8 with the same outputs
# as quantizing on the fly.
set -euo pipefail
kiln=$1 model=$2 work=$3
mkdir -p "$work"
"$kiln" quantize "$model" --calib-random 2 -o "$work/q.gir"
"$kiln" ir "$work/q.gir" -o "$work/q2.gir"
cmp "$work/q.gir" "$work/q2.gir"
grep -q ' : i8\[.*\] nchw scale(\| : i8\[.*\] scale(' "$work/q.gir"
grep -q '= Conv(.*rq_m_pos=' "$work/q.gir"
grep -q '= QuantizeLinear(' "$work/q.gir"
grep -q '= DequantizeLinear(' "$work/q.gir"
"$kiln" run "$work/q.gir" --target int8 -i "$(dirname "$model")/$(basename "$model" .onnx)-input.npy" > "$work/a.txt"
"$kiln" run "$model" --target int8 --calib-random 2 -i "$(dirname "$model")/$(basename "$model" .onnx)-input.npy" > "$work/b.txt"
cmp "$work/a.txt" "$work/b.txt"
echo "quantized round trip ok: $(wc -c < "$work/q.gir") bytes"
cat "$work/a.txt"
