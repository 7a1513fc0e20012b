#!/usr/bin/env bash
# Performance of the CPU back end (a benchmark, never a test): fp32
# YOLOv3-tiny 416 through `kiln run --target cpu` against onnxruntime on the
# same input and 2 threads, one `kiln bench --compare` run; prints the LLVM
# path's compile time, the table and the speed ratio.
#   bench/llvm_yolo.sh [KILN] [MODELS_DIR] [ITERS]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
models=${2:-build/models}
iters=${3:-8}   # timed runs per target per round; 3 rounds
model=$models/yolov3-tiny.onnx
input=$models/yolov3-tiny-input.npy
out=${TMPDIR:-/tmp}/kiln-llvm-yolo
mkdir -p "$out"

echo "== compile time of the LLVM path (kiln run --target cpu prints it)"
"$kiln" run "$model" -i "$input" --target cpu -o "$out/cpu0.npy" -o "$out/cpu1.npy" 2>&1 >/dev/null |
  grep 'cpu ('
"$kiln" opt "$model" -O > "$out/opt.gir"
"$kiln" run "$out/opt.gir" -i "$input" -o "$out/ref0.npy" -o "$out/ref1.npy" > /dev/null
for k in 0 1; do   # both outputs: the 13x13 head and the 26x26 one after the route
  "$kiln" compare "$out/cpu$k.npy" "$out/ref$k.npy" --max-rel-l2 1e-5
done

echo "== fp32 YOLOv3-tiny 416, 2 threads"
"$kiln" bench "$model" -i "$input" --compare cpu,cpu-exact,onnxruntime --warmup 3 --iters "$iters" --rounds 3 \
  --threads 2 --report "$out/report"
/usr/bin/python3 - "$out/report.json" <<'PY'
import json, sys
r = {x["target"]: x for x in json.load(open(sys.argv[1]))["results"]}
ort = r["onnxruntime"]["mean_ms"]
for t in ("cpu", "cpu-exact"):
    cpu = r[t]["mean_ms"]
    cmin, omin = r[t]["min_ms"], r["onnxruntime"]["min_ms"]
    print(f"kiln {t} {cpu:.1f} ms (min {cmin:.1f}), onnxruntime {ort:.1f} ms (min {omin:.1f}): "
          f"kiln at {ort / cpu:.2f}x onnxruntime's speed by mean, {omin / cmin:.2f}x by min")
PY

echo "== int8 YOLOv3-tiny 416 (quantized on 2 random inputs): --target cpu against"
echo "   --target int8 and onnxruntime on kiln's QDQ export of the same model"
"$kiln" quantize "$model" --calib-random 2 -o "$out/q.gir" > /dev/null 2>&1
"$kiln" export "$out/q.gir" -o "$out/q-qdq.onnx" > /dev/null
"$kiln" bench "$out/q.gir" -i "$input" --compare cpu,int8 --warmup 1 --iters 3 \
  --threads 2 --report "$out/report-int8" | tail -n +2
for round in 1 2 3; do   # the two in turn, three times, as --rounds does for one model
  "$kiln" bench "$out/q-qdq.onnx" -i "$input" --target onnxruntime --warmup 3 --iters "$iters" \
    --threads 2 --json > "$out/ort-qdq-$round.json"
  "$kiln" bench "$out/q.gir" -i "$input" --target cpu --warmup 3 --iters "$iters" \
    --threads 2 --json > "$out/cpu-int8-$round.json"
done
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
ratios = []
for k in (1, 2, 3):
    cpu = json.load(open(f"{out}/cpu-int8-{k}.json"))["results"][0]
    ort = json.load(open(f"{out}/ort-qdq-{k}.json"))["results"][0]
    for r in (cpu, ort):
        print(f"round {k} {r['target']:12s} mean {r['mean_ms']:8.2f}  p50 {r['p50_ms']:8.2f}  "
              f"min {r['min_ms']:8.2f}  p99 {r['p99_ms']:8.2f}  {r['throughput_fps']:6.1f} frames/s  "
              f"peak {r['peak_mem_mb']:.0f} MiB")
    ratios.append(ort["mean_ms"] / cpu["mean_ms"])
print("kiln int8 cpu against onnxruntime on the QDQ export, speed ratio per round: "
      + ", ".join(f"{x:.2f}x" for x in ratios))
PY
