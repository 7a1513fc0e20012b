#!/usr/bin/env bash
# Accuracy of int8 YOLOv3-tiny 416x416 against fp32, per calibration method.
# RUN: bench/quant/yolo_int8.sh BUILD_DIR [N_CALIB] [random]
# Calibrates once on N_CALIB (default 32) image-like inputs from the bundled
# model's own input generator (bench/quant/make_calib.py), quantizes with
# minmax, percentile (99.99) and KL, and prints each head's cosine and SQNR
# against fp32 on the bundled yolov3-tiny-input.npy (not a calibration
# input).  With "random", calibrates on N_CALIB seeded uniform inputs
# instead and evaluates on a held-out one.  Takes minutes: use a Release
# build (the ASan build is several times slower).
set -euo pipefail
build=$1 n=${2:-32} mode=${3:-images}
here=$(cd "$(dirname "$0")" && pwd)
kiln=$build/tools/kiln/kiln
model=$build/models/yolov3-tiny.onnx
if [ "$mode" = random ]; then
  echo "== YOLOv3-tiny 416: $n seeded uniform calibration inputs, a held-out uniform input"
  "$kiln" quantize "$model" --calib-random "$n" --method all | grep -E '^(method|output|fp32)'
else
  calib=$build/bench-quant-calib-$n
  /usr/bin/python3 "$here/make_calib.py" "$calib" --n "$n" --size 416
  echo "== YOLOv3-tiny 416: $n image-like calibration inputs, evaluated on yolov3-tiny-input.npy"
  "$kiln" quantize "$model" --calib "$calib" --method all -i "$build/models/yolov3-tiny-input.npy" |
    grep -E '^(method|output|fp32)'
fi
