#!/usr/bin/env bash
# Performance of the CPU back end (a benchmark, never a test): fp32
# YOLOv3-tiny 416 through `kiln run --target cpu` against onnxruntime on the
# same input and 2 threads, one `kiln bench --compare` run; prints the LLVM
# path's compile time, the table and the speed ratio.
#   bench/llvm_yolo.sh [KILN] [MODELS_DIR] [ITERS]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
models=${2:-build/models}
iters=${3:-20}
model=$models/yolov3-tiny.onnx
input=$models/yolov3-tiny-input.npy
out=${TMPDIR:-/tmp}/kiln-llvm-yolo
mkdir -p "$out"

echo "== compile time of the LLVM path (kiln run --target cpu prints it)"
"$kiln" run "$model" -i "$input" --target cpu -o "$out/cpu.npy" 2>&1 >/dev/null | grep 'cpu ('
"$kiln" opt "$model" -O > "$out/opt.gir"
"$kiln" run "$out/opt.gir" -i "$input" -o "$out/ref.npy" > /dev/null
"$kiln" compare "$out/cpu.npy" "$out/ref.npy" --max-rel-l2 1e-5

echo "== fp32 YOLOv3-tiny 416, 2 threads"
"$kiln" bench "$model" -i "$input" --compare cpu,onnxruntime --warmup 3 --iters "$iters" \
  --threads 2 --report "$out/report"
/usr/bin/python3 - "$out/report.json" <<'PY'
import json, sys
r = {x["target"]: x for x in json.load(open(sys.argv[1]))["results"]}
cpu, ort = r["cpu"]["mean_ms"], r["onnxruntime"]["mean_ms"]
print(f"kiln cpu {cpu:.1f} ms, onnxruntime {ort:.1f} ms: kiln at {ort / cpu:.2f}x onnxruntime's speed")
PY
