#!/usr/bin/env bash
# RUN: check_bench.sh KILN MODEL PYTHON ORT_DIR WORKDIR
# kiln bench prints every figure: --json of one target, then --compare of
# ref, cpu and onnxruntime writes a Markdown and a JSON report, fastest first,
# and an SVG chart (gnuplot) with one latency distribution per target.
set -eu
kiln=$1 model=$2 py=$3 ort=$4 work=$5
mkdir -p "$work"
"$kiln" bench "$model" --target cpu --warmup 1 --iters 3 --json > "$work/one.json"
"$kiln" bench "$model" --compare ref,cpu,onnxruntime --warmup 1 --iters 3 --rounds 2 --ort "$ort" \
  --report "$work/report" > "$work/table.txt"
cat "$work/table.txt"
if [ -x /usr/bin/gnuplot ]; then
  xmllint --noout "$work/report.svg"
  for t in ref cpu onnxruntime; do
    grep -q ">$t, mean [0-9.]* ms<" "$work/report.svg" || { echo "no $t curve in report.svg"; exit 1; }
  done
  [ -z "$(ls "$work" | grep '\.tmp-')" ] || { echo "temporary chart left in $work"; exit 1; }
else
  echo "no chart checked: /usr/bin/gnuplot not installed (Debian gnuplot-nox)"
fi
grep -q '^| target | mean | p50 | p90 | p95 | p99 | std | min | max | frames/s | peak MiB' "$work/report.md"
"$py" - "$work/one.json" "$work/report.json" <<'PY'
import json, sys
keys = ["mean_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "std_ms", "min_ms", "max_ms",
        "throughput_fps", "peak_mem_mb", "vs_fastest"]
one = json.load(open(sys.argv[1]))
assert [r["target"] for r in one["results"]] == ["cpu"], one
rep = json.load(open(sys.argv[2]))
assert rep["rounds"] == 2 and rep["iters"] == 3, rep
res = rep["results"]
assert sorted(r["target"] for r in res) == ["cpu", "onnxruntime", "ref"], res
for r in one["results"] + res:
    for k in keys:
        assert k in r and r[k] >= 0, (r["target"], k)
    assert r["min_ms"] <= r["p50_ms"] <= r["p90_ms"] <= r["p95_ms"] <= r["p99_ms"] <= r["max_ms"]
for r in res:
    assert "speed_vs_onnxruntime" in r
means = [r["mean_ms"] for r in res]
assert means == sorted(means), means
print("bench figures ok")
PY
