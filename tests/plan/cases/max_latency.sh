# RUN: KILN PYTHON
# --max-latency-ms (hls/plan.c meet_bound): a bound the default plan meets
# keeps it and is written in plan.json; a bound it misses makes the planner
# let the interval grow so that weights come on chip, and the plan it keeps
# is within the bound; a bound it cannot reach exits 2 naming the shortest
# latency reached, and writes nothing; a replayed plan is held to the bound.
$KILN quantize $MODELS/big.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only -o $TMP/a > /dev/null
lat=$($PYTHON -c "import json,sys; print(json.load(open(sys.argv[1]))['figures']['latency_ms'])" $TMP/a/plan.json)
# met: the same plan, the bound in plan.json
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only --max-latency-ms 100 -o $TMP/b > /dev/null
$PYTHON - $TMP/a/plan.json $TMP/b/plan.json <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert b["figures"]["max_latency_ms"] == 100, b["figures"]
assert a["figures"]["latency_cycles"] == b["figures"]["latency_cycles"], (a["figures"], b["figures"])
PY
# missed by the fastest plan: a slower one within the bound, or exit 2
bound=$($PYTHON -c "print(round(float('$lat') * 0.8, 4))")
if $KILN compile $TMP/q.gir --board ultra96v2 --plan-only --max-latency-ms $bound -o $TMP/c > $TMP/c.out 2> $TMP/c.err; then
  $PYTHON - $TMP/a/plan.json $TMP/c/plan.json $bound <<'PY'
import json, sys
a, c = (json.load(open(f)) for f in sys.argv[1:3])
assert c["figures"]["latency_ms"] <= float(sys.argv[3]), c["figures"]
assert c["figures"]["interval_cycles"] >= a["figures"]["interval_cycles"], (a["figures"], c["figures"])
PY
else
  test $? -eq 2
  grep -Eq "^kiln: plan: big on ultra96v2 cannot meet --max-latency-ms $bound: the shortest latency the planner reaches is [0-9.]+ ms" $TMP/c.err
  test ! -e $TMP/c
fi
# unreachable: exit 2, one line naming the shortest latency, no folder
set +e
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only --max-latency-ms 0.001 -o $TMP/d > $TMP/d.out 2> $TMP/d.err
rc=$?
set -e
test $rc -eq 2
test "$(wc -l < $TMP/d.err)" -eq 1
grep -Eq "^kiln: plan: big on ultra96v2 cannot meet --max-latency-ms 0.001: the shortest latency the planner reaches is [0-9.]+ ms \([0-9.]+ frames/s; [0-9.]+ ms at the fastest plan's [0-9.]+ frames/s\)$" $TMP/d.err
test ! -e $TMP/d
# a replay is checked against the bound
set +e
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/a/plan.json --plan-only --max-latency-ms 0.001 -o $TMP/e 2> $TMP/e.err
rc=$?
set -e
test $rc -eq 2
grep -Eq "^kiln: $TMP/a/plan.json: the plan's latency [0-9.]+ ms exceeds --max-latency-ms 0.001$" $TMP/e.err
test ! -e $TMP/e
# --clk2x auto plans with and without the clk2x domain: where neither meets
# the bound, the message names the shorter of their shortest latencies
short() { sed -E 's/.*the planner reaches is ([0-9.]+) ms.*/\1/' "$1"; }
for m in on off auto; do
  set +e
  $KILN compile $TMP/q.gir --board ultra96v2 --plan-only --clk2x $m --max-latency-ms 0.001 -o $TMP/f$m 2> $TMP/f$m.err
  rc=$?
  set -e
  test $rc -eq 2
  grep -Eq "cannot meet --max-latency-ms 0.001: the shortest latency" $TMP/f$m.err
done
$PYTHON -c "import sys; a, on, off = map(float, sys.argv[1:]); assert a == min(on, off), (a, on, off)" \
  "$(short $TMP/fauto.err)" "$(short $TMP/fon.err)" "$(short $TMP/foff.err)"
