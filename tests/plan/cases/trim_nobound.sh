# RUN: KILN PYTHON
# Without --max-latency-ms the DSP trim (hls_trim_dsp) gives DSP48E2 back
# whatever the latency (docs/plan.md "Without a latency bound").
# YOLOv3-tiny on Ultra96-V2 with conv4 .. conv22 on the shared engine:
# its frame sets the interval, so conv0 and conv2 beside it take their
# arrays of the fewest DSPs within it; a reason names the longer latency,
# which passes 29 ms (28.5 before the trim), and the plan fits at a DSP
# efficiency of 90% or more (88.3% when the trim kept the latency); it
# replays to itself.  Under a bound the trim keeps within it: plan_trim_dsp.
$KILN quantize $MODELS/yolov3-tiny.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
M=$TMP/q.gir
F=conv4,conv6,conv8,conv10,conv12,conv13,conv14,conv15,conv18,conv21,conv22
$KILN compile $M --board ultra96v2 --fold $F --plan-only -o $TMP/a > /dev/null
$HERE/check_plan.py fits $TMP/a > /dev/null
$KILN compile $M --board ultra96v2 --plan $TMP/a/plan.json --plan-only -o $TMP/ra > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/ra > /dev/null
$PYTHON - $TMP/a/plan.json <<'PY'
import json, re, sys
a = json.load(open(sys.argv[1]))
fa = a["figures"]
pat = re.compile(r"trimmed from \d+x\d+x\d+, (\d+) DSP48E2 fewer, at the same interval "
                 r"\(latency (\d+) -> (\d+) cycles\)")
t = {s["node"]: pat.search(s["why"]) for s in a["stages"]}
t = {n: m for n, m in t.items() if m}
assert {"conv0", "conv2"} <= set(t), [(s["node"], s["why"]) for s in a["stages"]]
assert any(int(m.group(3)) > int(m.group(2)) for m in t.values()), [m.group(0) for m in t.values()]
assert fa["dsp_efficiency"] >= 0.90 and fa["latency_cycles"] > 29e-3 * a["clock_mhz"] * 1e6, fa
print("DSP %d, DSP efficiency %.1f%%, %.2f frames/s, latency %d cycles; %s" % (
    fa["used"]["dsp"], 100 * fa["dsp_efficiency"], fa["fps"], fa["latency_cycles"],
    "; ".join("%s %s" % (n, m.group(0)) for n, m in sorted(t.items()))))
PY
