#!/usr/bin/env bash
# yolov3-tiny-small (64x64, int8) on zcu104 in Verilator: the longer variants
# of test sim_yolov3_tiny_small_pp4 (the default compile, convs at one to
# four pixels per op), kept as a benchmark because they cover nothing that
# test does not:
#   pp2      compiled with --pp-max 2 (PP 1 and 2 only, both in the default
#            design too): bit-exact over 2 frames, cycles against the plan
#            (was test sim_yolov3_tiny_small)
#   threads  that design again on a 2-thread Verilator model, a second build
#            beside the first: bit-exact, every figure of result.json but the
#            host's timing equal to the 1-thread run's (same_result.py; was
#            test sim_yolov3_tiny_small_threads)
# Prints per run the Verilator build and simulation wall time, simulated
# cycles per second, the measured interval and latency against the plan.
#   bench/sim_small_variants.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
OUT=${2:-$BUILD/bench/sim-small}
KILN=$BUILD/tools/kiln/kiln
MODEL=$BUILD/models/yolov3-tiny-small.onnx
for f in "$KILN" "$MODEL"; do
  [ -e "$f" ] || { echo "sim_small_variants.sh: $f: not found (build the kiln and models targets)" >&2; exit 2; }
done
rm -rf "$OUT" && mkdir -p "$OUT"

figures() {  # figures NAME DIR WALL_S
  /usr/bin/python3 - "$@" <<'PY'
import json, sys
name, d, wall = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(f"{d}/sim/result.json"))
ii, pi = r["interval_cycles"], r["predicted_interval_cycles"]
lat, pl = r["latency_cycles"], r["predicted_latency_cycles"]
print(f"{name:8s} {'bit-exact' if r['bit_exact'] else 'NOT bit-exact'}, {r['frames']} frames; "
      f"wall {wall} s (build + run), {r['sim_cycles_per_s']:.0f} simulated cycles/s; "
      f"interval {ii} cycles (plan {pi:.0f}, {100 * (ii - pi) / pi:+.1f}%), "
      f"latency {lat} cycles (plan {pl}, {100 * (lat - pl) / pl:+.1f}%)")
PY
}

echo "== kiln quantize, kiln compile --pp-max 2"
"$KILN" quantize "$MODEL" --calib-random 4 -o "$OUT/q.gir" > /dev/null
"$KILN" compile "$OUT/q.gir" --board zcu104 --pp-max 2 -o "$OUT/pp2" > /dev/null
if grep -Eq '"pp":[[:space:]]*[34]' "$OUT/pp2/plan.json"; then
  echo "sim_small_variants.sh: --pp-max 2 gave a conv PP 3 or 4" >&2
  exit 1
fi

echo "== pp2: kiln simulate --frames 2"
start=$(date +%s)
"$KILN" simulate "$OUT/pp2" --frames 2 > "$OUT/pp2.out"
pp2_wall=$(($(date +%s) - start))
grep -q 'every output byte matches the int8 interpreter' "$OUT/pp2.out"
/usr/bin/python3 "$top/tests/sim/check_cycles.py" "$OUT/pp2/sim/result.json" 0.02 > /dev/null

echo "== threads: the same design, kiln simulate --frames 2 --threads 2"
mkdir -p "$OUT/threads/sim"
cp -r "$OUT/pp2/plan.json" "$OUT/pp2/model.gir" "$OUT/pp2/report.md" "$OUT/pp2/rtl" "$OUT/threads/"
cp -r "$OUT"/pp2/sim/obj-* "$OUT/threads/sim/"
start=$(date +%s)
"$KILN" simulate "$OUT/threads" --frames 2 --threads 2 > "$OUT/threads.out"
threads_wall=$(($(date +%s) - start))
grep -q 'every output byte matches the int8 interpreter' "$OUT/threads.out"
/usr/bin/python3 "$top/tests/sim/same_result.py" "$OUT/pp2/sim/result.json" "$OUT/threads/sim/result.json"

echo
figures pp2 "$OUT/pp2" "$pp2_wall"
figures threads "$OUT/threads" "$threads_wall"
