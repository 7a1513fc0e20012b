#!/usr/bin/env bash
# kiln's main job on the bundled default: builds kiln, generates the bundled
# YOLOv3-tiny 416x416 model (seeded weights), prints its layer table from the
# ONNX file and from Darknet's yolov3-tiny.cfg, runs it on a seeded input,
# checks both heads against onnxruntime; then quantizes it, compiles it to
# Verilog for ZCU104 and simulates two frames back to back in Verilator
# against the int8 interpreter (bench/sim_yolov3_416.sh: measured frames/s,
# latency, DSP efficiency beside the plan and Xilinx's DPU); then the whole
# deployment path on a real-weights detector, face-api's tiny face detector
# (scripts/face_demo.sh: one kiln compile to Verilog, Vivado package and
# driver, the driver for aarch64 run under qemu against the simulator on a
# photo, the faces printed and drawn).  About 20 to 25 minutes on 2 cores; the
# ZCU104 design is the clk2x plan kiln compile's default (--clk2x auto)
# takes, 345.3 frames/s, 12.17 ms measured, whose runs take about 291 s
# of Verilator (docs/plan.md).
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
echo "== kiln quantize, compile for ZCU104 and simulate two frames (int8, Verilog, Verilator)"
bash "$top/bench/sim_yolov3_416.sh" "$build" zcu104 "$build/demo/yolov3-tiny-zcu104"
echo "== the deployment path on a real-weights detector: face-api's tiny face detector"
bash "$top/scripts/face_demo.sh" "$kiln" "$build/demo/face"
