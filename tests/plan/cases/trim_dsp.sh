# RUN: KILN
# hls_trim_dsp: with a shared engine the dataflow's segments run beside it,
# so under a latency bound with room left (0.2 ms where the plan without it
# takes about 0.09) their convs give back DSP48E2 at the same interval.
# Each trimmed conv's reason names the array it had and the DSPs freed;
# the plan meets the bound and replays to itself; with one trim undone
# (its old array back) the replay has the same interval and exactly those
# DSPs more.  report.md's DSP use sums up (check_plan.py dsp_use).  Two
# DSP48E2 a requant lane (--rq-dsp 2): with one on the trimmed conv its
# old array's lanes would cost fewer than the trim freed.
M=$MODELS/yolov3-tiny-small.onnx
$KILN compile $M --calib-random 1 --board zcu104 --clk2x on --pp-max 2 --fold conv12,conv13,conv14 --max-latency-ms 0.2 --rq-dsp 2 --plan-only -o $TMP/a > /dev/null
$HERE/check_plan.py dsp_use $TMP/a > /dev/null
/usr/bin/python3 - $TMP/a/plan.json $TMP/undo.json > $TMP/undo.txt <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1]))
g = p["figures"]
assert g["latency_cycles"] <= 0.2 * p["clock_mhz"] * 1e3, g
pat = re.compile(r"trimmed from (\d+)x(\d+)x(\d+), (\d+) DSP48E2 fewer, at the same interval "
                 r"\(latency (\d+) -> (\d+) cycles, within the bound\)")
t = [(s, pat.search(s["why"])) for s in p["stages"]]
t = [(s, m) for s, m in t if m]
assert t, [s["why"] for s in p["stages"]]
s, m = max(t, key=lambda x: int(x[1].group(4)))
oc, ic, pp, n = (int(x) for x in m.group(1, 2, 3, 4))
assert oc * ic * pp > s["pe_oc"] * s["pe_ic"] * s["pp"], (s, m.group(0))
s["pe_oc"], s["pe_ic"], s["pp"] = oc, ic, pp
s["pack"] = 2 if oc % 2 == 0 else 1
if s.get("dsp2x"):
    s["dsp2x_pairs"] = "pixels" if pp % 2 == 0 else "inputs"
json.dump(p, open(sys.argv[2], "w"))
print(n)
PY
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/a/plan.json --max-latency-ms 0.2 --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b > /dev/null
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/undo.json --max-latency-ms 0.2 --plan-only -o $TMP/u > /dev/null
/usr/bin/python3 - $TMP/a/plan.json $TMP/u/plan.json $(cat $TMP/undo.txt) <<'PY'
import json, sys
a, u = (json.load(open(x))["figures"] for x in sys.argv[1:3])
assert u["interval_cycles"] == a["interval_cycles"], (a, u)
assert u["used"]["dsp"] - a["used"]["dsp"] == int(sys.argv[3]), (a["used"], u["used"], sys.argv[3])
PY
