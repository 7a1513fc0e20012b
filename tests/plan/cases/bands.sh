# RUN: KILN PYTHON
# The latency steps choose bands (hls/plan_latency.c take_bands): big on
# ultra96v2 streams the weights of two convs from DDR in tiles, and the plan
# takes bands on one at least (the reason names the height and the latency
# it saved); the plan replayed gives the same figures and bands; replayed
# without its bands, the same arrays wait for whole frames: the latency is
# longer.  "lbrows" beyond the padded input map: one exact diagnostic.
$KILN quantize $MODELS/big.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only -o $TMP/a > /dev/null
$HERE/check_plan.py unband $TMP/a $TMP/unband.json
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only --plan $TMP/a/plan.json -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $TMP/q.gir --board ultra96v2 --plan-only --plan $TMP/unband.json -o $TMP/c > /dev/null
$PYTHON - $TMP/a/plan.json $TMP/c/plan.json <<'PY'
import json, sys
a, c = (json.load(open(f))["figures"] for f in sys.argv[1:3])
print(f"latency {a['latency_cycles']} cycles in bands, {c['latency_cycles']} without; "
      f"interval {a['interval_cycles']} / {c['interval_cycles']}")
assert c["latency_cycles"] > a["latency_cycles"], (a, c)
PY
# conv4 (stages[4], 3x3, stride 1, in bands): a band of B rows takes B + 2 input rows
ROWS=$($PYTHON -c "import json, sys; print(json.load(open(sys.argv[1]))['stages'][4]['band'] + 2)" $TMP/a/plan.json)
$HERE/check_plan.py mutate $TMP/a/plan.json $TMP/bad.json 4 lbrows 99
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/bad.json: \$.stages[4].lbrows: line-buffer rows of a conv in bands, from its band's $ROWS input rows to its 10 padded input rows" -- $KILN compile $TMP/q.gir --board ultra96v2 --plan-only --plan $TMP/bad.json -o $TMP/d
test ! -e $TMP/d
