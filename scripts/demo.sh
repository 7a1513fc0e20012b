#!/usr/bin/env bash
# kiln's main job on the bundled default: builds kiln, generates the bundled
# YOLOv3-tiny 416x416 model (seeded weights), prints its layer table from the
# ONNX file and from Darknet's yolov3-tiny.cfg, runs it on a seeded input,
# checks both heads against onnxruntime and plans it for ZCU104; then
# quantizes the scaled-down model, compiles it to Verilog for ZCU104 and
# simulates two frames in Verilator against the int8 interpreter.
#   Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
deps=${KILN_DEPS:-/opt/kiln-deps}
bash "$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target kiln models >/dev/null
kiln=$build/tools/kiln/kiln
model=$build/models/yolov3-tiny.onnx
echo "== kiln info $model"
"$kiln" info "$model"
echo "== kiln info yolov3-tiny.cfg"
"$kiln" info "$deps/darknet/usr/share/darknet/cfg/yolov3-tiny.cfg" | tail -n 1
echo "== kiln run, checked against onnxruntime"
"$top/tests/cli/yolo_vs_ort.sh" "$kiln" "$model" "$deps/node_modules/onnxruntime-node" "$build/demo"
echo "== kiln compile for ZCU104 (plan, report, dataflow picture; predicted figures)"
"$kiln" compile "$model" --board zcu104 -o "$build/demo/yolov3-tiny-zcu104"
small=$build/demo/yolov3-tiny-small
echo "== kiln quantize, compile and simulate the scaled-down model (int8, Verilog, Verilator)"
"$kiln" quantize "$build/models/yolov3-tiny-small.onnx" --calib-random 4 -o "$small.gir" | tail -n 2
rm -rf "$small-zcu104"
"$kiln" compile "$small.gir" --board zcu104 -o "$small-zcu104"
"$kiln" simulate "$small-zcu104" -i "$build/models/yolov3-tiny-small-input.npy" --frames 2
