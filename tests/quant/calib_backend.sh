#!/usr/bin/env bash
# RUN: calib_backend.sh KILN MODELS_DIR WORKDIR
# Calibration through the CPU back end gives the quantized graph the
# interpreter's calibration gives, byte for byte, for every method: the
# back end computes the same activations (within 1e-5; here exactly
# enough for every threshold), so the int8 graph does not depend on it.
set -eu
kiln=$1 models=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
for m in yolov3-tiny-small resdw; do
  for meth in minmax percentile kl mse; do
    "$kiln" quantize "$models/$m.onnx" --calib-random 4 --method $meth --calib-backend ref \
      -o "$work/$m-$meth-ref.gir" 2> "$work/ref.err"
    "$kiln" quantize "$models/$m.onnx" --calib-random 4 --method $meth \
      -o "$work/$m-$meth-cpu.gir" 2> "$work/cpu.err"
    grep -q '^kiln: quantize: calibrated on 4 inputs through the CPU back end (.*: [0-9]* of [0-9]* nodes compiled' "$work/cpu.err" ||
      { echo "$m $meth: the CPU back end did not calibrate:"; cat "$work/cpu.err"; exit 1; }
    if ! grep -q '^kiln: quantize: calibrated on 4 inputs through the interpreter$' "$work/ref.err"; then
      echo "$m $meth: --calib-backend ref went through the CPU back end"; exit 1
    fi
    cmp "$work/$m-$meth-ref.gir" "$work/$m-$meth-cpu.gir"
    echo "$m $meth: same int8 graph from both back ends"
  done
done
