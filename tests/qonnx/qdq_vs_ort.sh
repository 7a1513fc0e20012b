#!/usr/bin/env bash
# RUN: qdq_vs_ort.sh KILN MODEL INPUT ORT_DIR WORKDIR MIN_PERCENT
# Exports MODEL in kiln's int8 form (.gir; an .onnx is first quantized with
# `kiln quantize --calib-random 8`) as QDQ ONNX, runs it with onnxruntime and
# with kiln's int8 interpreter on INPUT, and asserts that at least
# MIN_PERCENT of the output values agree within 1 int8 step (LSB).
# INPUT: a .npy file, or rand:D0,D1,... for a seeded uniform [-2, 2) input.
set -euo pipefail
kiln=$1 model=$2 input=$3 ort=$4 work=$5 floor=$6
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
case "$input" in
rand:*)
  /usr/bin/python3 - "$work/in.npy" "${input#rand:}" <<'PY'
import sys, numpy as np
shape = tuple(int(d) for d in sys.argv[2].split(','))
np.save(sys.argv[1], np.random.RandomState(5).uniform(-2, 2, shape).astype(np.float32))
PY
  input=$work/in.npy ;;
esac
case "$model" in
*.onnx)
  "$kiln" quantize "$model" --calib-random 8 -o "$work/q.gir"
  model=$work/q.gir ;;
esac
"$kiln" export "$model" -o "$work/qdq.onnx"
nout=$("$kiln" run "$model" -i "$input" | grep -c '^output ')
kargs=() oargs=() pairs=()
for ((i = 0; i < nout; i++)); do
  kargs+=(-o "$work/kiln$i.npy")
  oargs+=("$work/ort$i.npy")
  pairs+=("$work/kiln$i.npy" "$work/ort$i.npy")
done
"$kiln" run "$model" -i "$input" "${kargs[@]}" > /dev/null
node "$here/../ort/ort_run.js" "$ort" "$work/qdq.onnx" "$input" -- "${oargs[@]}" > /dev/null
/usr/bin/python3 "$here/lsb_agree.py" "$work/qdq.onnx" "$floor" "${pairs[@]}"
