# RUN: KILN PYTHON
# The requant lanes' DSP48E2 (kiln_requant RQ_DSP, hls/plan_rqdsp.c,
# docs/plan.md "The requant lanes' DSPs").  mbrelu6 on ultra96v2 (fabric
# clock): with two a lane (--rq-dsp 2) DSPs bind (298 of 324, LUT 39,697 of
# 52,920), so the search's plan takes one a lane on every conv and dwconv:
# the same interval and latency, fewer DSPs, more LUT, a higher DSP
# efficiency, within every budget.  Its replay is the same plan; the
# two-DSP plan replayed with --rq-dsp auto chooses the same.  With the LUT
# cut to 58,000 (budget 43,500) only some engines fit one a lane; at 54,000
# LUTs bind and every lane keeps two.  A bad rq_dsp is refused by name.
$KILN quantize $MODELS/mbrelu6.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off --plan-only -o $TMP/auto | tee $TMP/auto.out
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off --plan-only --rq-dsp 2 -o $TMP/two > /dev/null
$HERE/check_plan.py fits $TMP/auto $TMP/two
grep -q 'RQ_DSP 1: ' $TMP/auto/report.md
if grep -q 'RQ_DSP 1' $TMP/two/report.md; then exit 1; fi
$PYTHON - $TMP/auto/plan.json $TMP/two/plan.json <<'PY'
import json, sys
a, t = (json.load(open(x)) for x in sys.argv[1:3])
eng = [s for s in a["stages"] if s["engine"] in ("kiln_conv", "kiln_dwconv")]
assert len(eng) >= 4 and all(s.get("rq_dsp") == 1 for s in eng), [(s["node"], s.get("rq_dsp")) for s in a["stages"]]
assert not any("rq_dsp" in s for s in t["stages"])
fa, ft = a["figures"], t["figures"]
assert ft["used"]["dsp"] == 298 and ft["used"]["lut"] == 39697, ft["used"]
assert fa["interval_cycles"] == ft["interval_cycles"] and fa["latency_cycles"] == ft["latency_cycles"]
assert fa["used"]["dsp"] < ft["used"]["dsp"] and fa["used"]["lut"] > ft["used"]["lut"], (fa["used"], ft["used"])
assert fa["dsp_efficiency"] > ft["dsp_efficiency"], (fa["dsp_efficiency"], ft["dsp_efficiency"])
print("rq_dsp: DSP %d -> %d, LUT %d -> %d, DSP efficiency %.4f -> %.4f" % (
    ft["used"]["dsp"], fa["used"]["dsp"], ft["used"]["lut"], fa["used"]["lut"],
    ft["dsp_efficiency"], fa["dsp_efficiency"]))
PY
# replays: the plan as it is; the two-DSP plan chosen again
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/auto/plan.json --plan-only -o $TMP/r > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/two/plan.json --plan-only --rq-dsp auto -o $TMP/r2 > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/two/plan.json --plan-only -o $TMP/r3 > /dev/null
$PYTHON - $TMP/auto/plan.json $TMP/r/plan.json $TMP/r2/plan.json $TMP/r3/plan.json $TMP/two/plan.json <<'PY'
import json, sys
a, r, r2, r3, t = (json.load(open(x)) for x in sys.argv[1:6])
key = lambda p: ([(s["node"], s.get("rq_dsp"), s["resources"]) for s in p["stages"]], p["figures"]["used"])
assert key(r) == key(a) and key(r2) == key(a), "the replays differ"
assert key(r3) == key(t), "a replay without rq_dsp takes two a lane"
PY
# LUTs tighter: some engines (58,000), none (54,000)
for l in 58000 54000; do
    sed "s/lut=\"70560\"/lut=\"$l\"/" $SRC/boards/zynq-ultrascale/ultra96v2.xml > $TMP/u$l.xml
    $KILN compile $TMP/q.gir --board $TMP/u$l.xml --clk2x off --plan-only -o $TMP/l$l > /dev/null
done
$HERE/check_plan.py fits $TMP/l58000 $TMP/l54000
$PYTHON - $TMP/l58000/plan.json $TMP/l54000/plan.json <<'PY'
import json, sys
p58, p54 = (json.load(open(x)) for x in sys.argv[1:3])
n58 = sum(s.get("rq_dsp") == 1 for s in p58["stages"])
eng = sum(s["engine"] in ("kiln_conv", "kiln_dwconv") for s in p58["stages"])
assert 0 < n58 < eng, (n58, eng)
assert not any("rq_dsp" in s for s in p54["stages"])
assert p54["figures"]["used"]["dsp"] == 298, p54["figures"]["used"]
print("LUT 58000: %d of %d engines on one DSP48E2 a lane; LUT 54000: none" % (n58, eng))
PY
# refused: a value other than 1 or 2, in plan.json and on the command line
$PYTHON $HERE/check_plan.py mutate $TMP/two/plan.json $TMP/bad.json 0 rq_dsp 3
if $KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/bad.json --plan-only -o $TMP/b 2> $TMP/bad.err; then exit 1; fi
grep -qx "kiln: $TMP/bad.json: \$.stages\[0\].rq_dsp: expected an integer in 1..2" $TMP/bad.err
if $KILN compile $TMP/q.gir --board ultra96v2 --rq-dsp 1 --plan-only -o $TMP/b3 2> $TMP/bad3.err; then exit 1; fi
grep -qx "kiln: compile: --rq-dsp '1': expected auto or 2" $TMP/bad3.err
