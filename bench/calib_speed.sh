#!/usr/bin/env bash
# Calibration speed (a benchmark, never a test): YOLOv3-tiny 416 calibrated
# on N seeded inputs (default 500) through the CPU back end, the time
# printed; then the same model on a subset through both the CPU back end and
# the interpreter, the two int8 graphs compared byte for byte and the
# interpreter's time per input printed beside the back end's.
#   bench/calib_speed.sh [KILN] [MODELS_DIR] [N] [SUBSET]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
models=${2:-build/models}
n=${3:-500}
sub=${4:-8}
model=$models/yolov3-tiny.onnx
out=${TMPDIR:-/tmp}/kiln-calib-speed
mkdir -p "$out"

secs() { # COMMAND...: run it, print its wall seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null 2> "$out/err" || { cat "$out/err"; exit 1; }
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

echo "== YOLOv3-tiny 416, $n calibration inputs through the CPU back end"
t=$(secs "$kiln" quantize "$model" --calib-random "$n" -o "$out/cpu-$n.gir")
tr '\r' '\n' < "$out/err" | grep 'CPU back end' || true
echo "calibrate + quantize, $n inputs: $t s ($(awk -v t="$t" -v n="$n" 'BEGIN{printf "%.1f", t / n * 1000}') ms per input)"

echo "== $sub inputs through both"
tc=$(secs "$kiln" quantize "$model" --calib-random "$sub" -o "$out/cpu-$sub.gir")
tr=$(secs "$kiln" quantize "$model" --calib-random "$sub" --calib-backend ref -o "$out/ref-$sub.gir")
echo "cpu back end: $tc s; interpreter: $tr s; speed-up $(awk -v a="$tr" -v b="$tc" 'BEGIN{printf "%.1f", a / b}')x"
if cmp -s "$out/cpu-$sub.gir" "$out/ref-$sub.gir"; then
  echo "int8 graphs: byte-identical (same scales)"
else
  echo "int8 graphs DIFFER"; exit 1
fi
