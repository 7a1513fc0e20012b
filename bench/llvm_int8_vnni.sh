#!/usr/bin/env bash
# int8 YOLOv3-tiny 416 on the CPU back end (a benchmark, never a test):
# `kiln bench --target cpu` of KILN (its int8 Conv through vpdpbusd where
# the CPU has VNNI) and, when given, of BEFORE_KILN (a kiln built without
# it, e.g. from the commit before), against onnxruntime running kiln's QDQ
# export of the same quantized model; same input, 2 threads.  The three
# run in turn ROUNDS times (the machine's load drifts); prints each run's
# figures, then per target the min and the mean over the rounds, the speed
# ratios, and the load average before and after.  MODEL and INPUT (an fp32
# model and its input .npy) take the place of YOLOv3-tiny 416, e.g. a
# Gemm-heavy one for the int8 Gemm's VNNI.
#   bench/llvm_int8_vnni.sh [KILN] [MODELS_DIR] [ITERS] [ROUNDS] [BEFORE_KILN] [MODEL INPUT]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
models=${2:-build/models}
iters=${3:-10}    # timed runs per target per round
rounds=${4:-3}
before=${5:-}
model=${6:-$models/yolov3-tiny.onnx}
input=${7:-$models/yolov3-tiny-input.npy}
out=${TMPDIR:-/tmp}/kiln-int8-vnni
mkdir -p "$out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$kiln" quantize "$model" --calib-random 2 -o "$out/q.gir" > /dev/null 2>&1
"$kiln" export "$out/q.gir" -o "$out/q-qdq.onnx" > /dev/null
"$kiln" run "$out/q.gir" -i "$input" --target cpu -o "$out/cpu.npy" 2>&1 >/dev/null | grep 'cpu ('
"$kiln" run "$out/q.gir" -i "$input" --target int8 -o "$out/int8.npy" > /dev/null
cmp "$out/cpu.npy" "$out/int8.npy"
echo "--target cpu output byte for byte --target int8"
for ((r = 1; r <= rounds; r++)); do
  "$kiln" bench "$out/q-qdq.onnx" -i "$input" --target onnxruntime --warmup 3 --iters "$iters" \
    --threads 2 --json > "$out/ort-$r.json"
  if [ -n "$before" ]; then
    "$before" bench "$out/q.gir" -i "$input" --target cpu --warmup 3 --iters "$iters" \
      --threads 2 --json > "$out/before-$r.json"
  fi
  "$kiln" bench "$out/q.gir" -i "$input" --target cpu --warmup 3 --iters "$iters" \
    --threads 2 --json > "$out/after-$r.json"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$out" "$rounds" <<'PY'
import json, os, sys
out, rounds = sys.argv[1], int(sys.argv[2])
names = [("ort", "onnxruntime QDQ"), ("before", "kiln cpu before"), ("after", "kiln cpu (VNNI)")]
agg = {}
for k in range(1, rounds + 1):
    for tag, label in names:
        p = f"{out}/{tag}-{k}.json"
        if not os.path.exists(p):
            continue
        r = json.load(open(p))["results"][0]
        agg.setdefault(tag, []).append(r)
        print(f"round {k} {label:17s} mean {r['mean_ms']:8.2f}  p50 {r['p50_ms']:8.2f}  "
              f"min {r['min_ms']:8.2f}  max {r['max_ms']:8.2f}  {r['throughput_fps']:6.1f} frames/s")
summ = {}
for tag, label in names:
    if tag in agg:
        rs = agg[tag]
        summ[tag] = (min(r["min_ms"] for r in rs), sum(r["mean_ms"] for r in rs) / len(rs))
        print(f"{label:17s} over {len(rs)} rounds: min {summ[tag][0]:.2f} ms, mean {summ[tag][1]:.2f} ms")
ort = summ["ort"]
for tag, label in names[1:]:
    if tag in summ:
        print(f"{label} against onnxruntime QDQ: {ort[0] / summ[tag][0]:.2f}x by min, "
              f"{ort[1] / summ[tag][1]:.2f}x by mean")
if "before" in summ:
    b, a = summ["before"], summ["after"]
    print(f"VNNI against before: {b[0] / a[0]:.2f}x by min, {b[1] / a[1]:.2f}x by mean")
PY
