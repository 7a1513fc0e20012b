# RUN: KILN VERILATOR PYTHON
# Line buffers in URAM where block RAM is short (docs/plan.md, weight
# placement): dwwide's three 5x5 depthwise convs on a 64x64 map of 256
# channels take 32 BRAM36 of line buffer each, so with every weight in URAM
# the smallest design on KV260 was 144 BRAM36 of a budget of 129 and the
# plan refused.  Since that smallest design breaks BRAM, the placement may
# now move line buffers to URAM and moves the dwconvs' (4 URAM288 each); the plan fits, plan.json says lb_uram for them, their
# instances take LBURAM 1 and the top passes Verilator's lint; a replay of
# the plan gives the same figures.
$KILN quantize $MODELS/dwwide.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board kv260 --clk2x off -o $TMP/a | tee $TMP/a.out
$HERE/check_plan.py fits $TMP/a
$PYTHON - $TMP/a/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
dw = [s for s in p["stages"] if s["engine"] == "kiln_dwconv"]
assert len(dw) == 3, len(dw)
for s in dw:
    assert s.get("lb_uram") is True, s["node"]
    assert s["resources"]["uram"] >= 4, (s["node"], s["resources"])
    assert "line buffers in URAM" in s["why"], s["why"]
PY
test "$(awk '/^    kiln_dwconv #\(/ { on = 1 } on && /\.LBURAM\(1\)/ { n++ } /^    \) / { on = 0 }
             END { print n + 0 }' $TMP/a/rtl/kiln_top.v)" = 3
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
$KILN compile $TMP/q.gir --board kv260 --clk2x off --plan $TMP/a/plan.json --plan-only -o $TMP/b \
  > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
