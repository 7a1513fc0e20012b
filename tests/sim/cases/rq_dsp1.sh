# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 600
# One DSP48E2 a requant lane (kiln_requant RQ_DSP 1, docs/plan.md "The
# requant lanes' DSPs"): mbrelu6 on ultra96v2 (convs and depthwise convs,
# a ReLU6 clamp) replayed with every conv and dwconv at "rq_dsp": 1 and with
# none.  The replay keeps it in plan.json, names it in each instance
# (.RQ_DSP(1); the plan without it names none), takes a DSP48E2 less a
# requant lane at the same cycles, and the design is bit-exact against the
# int8 interpreter over 2 frames.
$KILN quantize $MODELS/mbrelu6.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off --plan-only -o $TMP/p > /dev/null
$PYTHON - $TMP/p/plan.json $TMP/two.json $TMP/one.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
n = 0
for s in p["stages"]:
    s.pop("rq_dsp", None)
json.dump(p, open(sys.argv[2], "w"))
for s in p["stages"]:
    if s["engine"] in ("kiln_conv", "kiln_dwconv"):
        s["rq_dsp"] = 1
        n += 1
assert n >= 4, n
json.dump(p, open(sys.argv[3], "w"))
PY
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/two.json -o $TMP/a > /dev/null
if grep -q 'RQ_DSP' $TMP/a/rtl/kiln_top.v; then exit 1; fi
if grep -q 'rq_dsp' $TMP/a/plan.json; then exit 1; fi
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/one.json -o $TMP/c > /dev/null
$PYTHON - $TMP/a/plan.json $TMP/c/plan.json $TMP/c/rtl/kiln_top.v <<'PY'
import json, sys
a, c = (json.load(open(x)) for x in sys.argv[1:3])
top = open(sys.argv[3]).read()
one = [s for s in c["stages"] if s.get("rq_dsp") == 1]
assert len(one) == len([s for s in c["stages"] if s["engine"] in ("kiln_conv", "kiln_dwconv")])
assert top.count(".RQ_DSP(1)") == len(one), top.count(".RQ_DSP(1)")
for x, y in zip(a["stages"], c["stages"]):
    assert x["node"] == y["node"] and x["cycles"] == y["cycles"], (x, y)
    if y.get("rq_dsp") == 1:
        # a dwconv: a requant lane a channel lane; a conv: PP*PE_OC/RQS
        assert y["resources"]["dsp"] < x["resources"]["dsp"], (x["node"], x["resources"], y["resources"])
        assert y["resources"]["lut"] > x["resources"]["lut"], (x["node"], x["resources"], y["resources"])
fa, fc = a["figures"], c["figures"]
assert fa["interval_cycles"] == fc["interval_cycles"] and fa["latency_cycles"] == fc["latency_cycles"]
assert fc["dsp_efficiency"] > fa["dsp_efficiency"], (fa, fc)
print("RQ_DSP 1 on %d engines: DSP efficiency %.4f -> %.4f" % (len(one), fa["dsp_efficiency"], fc["dsp_efficiency"]))
PY
$KILN simulate $TMP/c -i $MODELS/mbrelu6-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
