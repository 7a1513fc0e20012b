#!/usr/bin/env bash
# Schedule tuning of the CPU back end (a benchmark, never a test), fp32
# YOLOv3-tiny 416, 2 threads:
#   1. kiln tune on all its Conv workloads (XGBoost-guided), TRIALS each;
#      prints per workload the default and the best kernel time (medians);
#   2. the whole model tuned against untuned: one kiln bench --compare
#      cpu,cpu-untuned --records run, the two in turn for 3 rounds;
#   3. XGBoost-guided against random search at equal trials on a subset of
#      the workloads (CMP_TRIALS each, for each seed of SEEDS): best-so-far
#      (sum over the subset of the best kernel time found) against trials,
#      both curves (mean over the seeds) in one gnuplot SVG.  The random
#      search resumes from the guided one's first batch (the default and 7
#      random schedules, the same draws for a seed), so the two curves
#      start from the same measurements and part where the model starts
#      choosing.
# STEPS="2 3" (environment) runs only those steps, reusing the records of
# step 1 left in the output folder.
# The machine is shared (2 cores, CI and other builds beside): a kernel's
# time is the median of --repeat timed runs (the minimum is kept too), and
# the figures still move a lot from one run to the next.
#   bench/tune_yolo.sh [KILN] [MODELS_DIR] [TRIALS] [CMP_TRIALS] [SUBSET] [SEEDS]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
models=${2:-build/models}
trials=${3:-32}
cmp_trials=${4:-40}
subset=${5:-2,4,7,11}
seeds=${6:-1 2}
model=$models/yolov3-tiny.onnx
input=$models/yolov3-tiny-input.npy
out=${TMPDIR:-/tmp}/kiln-tune-yolo
steps=${STEPS:-1 2 3}
case " $steps " in *" 1 "*) rm -rf "$out" ;; esac
mkdir -p "$out"

if [[ " $steps " == *" 1 "* ]]; then
echo "== 1. kiln tune $model --trials $trials (XGBoost-guided, every workload)"
start=$(date +%s)
"$kiln" tune "$model" --trials "$trials" --records "$out/all.jsonl" -q | sed -n '/^times:/,$p'
echo "tuning took $(( $(date +%s) - start )) s for $(wc -l < "$out/all.jsonl") measurements"
fi

if [[ " $steps " == *" 2 "* ]]; then
echo "== 2. the whole model, tuned (--records) against untuned, 2 threads"
"$kiln" bench "$model" -i "$input" --compare cpu,cpu-untuned --records "$out/all.jsonl" \
  --warmup 3 --iters 10 --rounds 5 --threads 2 --report "$out/report"
/usr/bin/python3 - "$out/report.json" <<'PY'
import json, sys
r = {x["target"]: x for x in json.load(open(sys.argv[1]))["results"]}
t, u = r["cpu"], r["cpu-untuned"]
print(f"tuned: mean {t['mean_ms']:.2f} ms, p50 {t['p50_ms']:.2f} ms, min {t['min_ms']:.2f} ms; "
      f"untuned: mean {u['mean_ms']:.2f} ms, p50 {u['p50_ms']:.2f} ms, min {u['min_ms']:.2f} ms; "
      f"speedup {u['mean_ms'] / t['mean_ms']:.3f}x (mean), {u['p50_ms'] / t['p50_ms']:.3f}x (p50), "
      f"{u['min_ms'] / t['min_ms']:.3f}x (min)")
PY
fi

[[ " $steps " == *" 3 "* ]] || exit 0
echo "== 3. XGBoost-guided against random search, workloads $subset, $cmp_trials trials each, seeds $seeds"
for s in $seeds; do
  rm -f "$out/model-$s.jsonl" "$out/random-$s.jsonl"
  for search in model random; do
    if [ $search = random ]; then
      # the guided search's first batch (8 records) of every workload
      awk -F'"' '{ if (++n[$4] <= 8) print }' "$out/model-$s.jsonl" > "$out/random-$s.jsonl"
    fi
    "$kiln" tune "$model" --workloads "$subset" --trials "$cmp_trials" --search $search --seed "$s" \
      --records "$out/$search-$s.jsonl" --curve "$out/$search-$s.curve" -q | tail -n 1 |
      sed "s/^/$search seed $s: /"
  done
done
/usr/bin/python3 - "$out" "$seeds" <<'PY'
import sys
out, seeds = sys.argv[1], sys.argv[2].split()
def curve(name):
    c = {}
    for line in open(name):
        if line.startswith("#"):
            continue
        t, v = line.split()
        c[int(t)] = float(v)
    return c
mean = {}
for search in ("model", "random"):
    cs = [curve(f"{out}/{search}-{s}.curve") for s in seeds]
    ts = sorted(set.intersection(*(set(c) for c in cs)))
    mean[search] = {t: sum(c[t] for c in cs) / len(cs) for t in ts}
with open(f"{out}/curves.dat", "w") as f:
    f.write("# trial model_ms random_ms (mean over seeds of the best-so-far sum)\n")
    for t in sorted(mean["model"]):
        if t in mean["random"]:
            f.write(f"{t} {mean['model'][t]:.4f} {mean['random'][t]:.4f}\n")
print("trial   XGBoost-guided   random    (ms: sum over the subset of the best median kernel time so far)")
last = max(t for t in mean["model"] if t in mean["random"])
for t in sorted(set([1, 8, 9, 12, 16, 24, 32, last])):
    if t in mean["model"] and t in mean["random"]:
        print(f"{t:5d}   {mean['model'][t]:14.3f}   {mean['random'][t]:8.3f}")
def reach(c, goal):
    return next((t for t in sorted(c) if c[t] <= goal), None)
goal = mean["random"][last]
print(f"random search's best after {last} trials ({goal:.3f} ms) reached by the guided search at trial "
      f"{reach(mean['model'], goal)}")
PY
gnuplot <<EOF
set terminal svg size 800,480 dynamic font "sans,12"
set output "$out/curves.svg"
set title "kiln tune, YOLOv3-tiny 416 workloads $subset: best-so-far against trials (mean of seeds $seeds)" noenhanced
set xlabel "trials per workload"
set ylabel "sum of best median kernel times (ms)"
set key top right
set grid
plot "$out/curves.dat" using 1:2 with steps lw 2 title "XGBoost-guided", \
     "$out/curves.dat" using 1:3 with steps lw 2 title "random"
EOF
echo "chart: $out/curves.svg"
