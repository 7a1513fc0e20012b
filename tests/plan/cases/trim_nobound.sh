# RUN: KILN PYTHON
# --fold auto without --max-latency-ms (docs/plan.md "Without a latency
# bound"): of the fold plans within 1% of the fastest's frames/s the one of
# the highest DSP efficiency is taken, and the DSP trim (hls_trim_dsp)
# gives DSP48E2 back whatever the latency.  YOLOv3-tiny on Ultra96-V2: the
# fastest plan (conv6 .. conv22 on the shared engine, 97.4 frames/s at
# 85.2%) gives way to conv4 .. conv22 on it, whose frame sets the
# interval, so conv0 and conv2 beside it take their arrays of the fewest
# DSPs within it; a reason names the longer latency, which passes 29 ms
# (28.5 before the trim), the fold line names the plan it was taken over,
# and the plan fits at a DSP efficiency of 90% or more; it replays to
# itself.  A named set keeps its latency (plan_trim_dsp), and a bound
# keeps the fastest plan.
$KILN quantize $MODELS/yolov3-tiny.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
M=$TMP/q.gir
$KILN compile $M --board ultra96v2 --fold auto --clk2x auto --plan-only -o $TMP/a > /dev/null
$HERE/check_plan.py fits $TMP/a > /dev/null
$KILN compile $M --board ultra96v2 --plan $TMP/a/plan.json --plan-only -o $TMP/ra > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/ra > /dev/null
$PYTHON - $TMP/a/plan.json <<'PY'
import json, re, sys
a = json.load(open(sys.argv[1]))
fa = a["figures"]
assert [l["node"] for l in a["fold"]["layers"]] == ["conv4", "conv6", "conv8", "conv10", "conv12",
    "conv13", "conv14", "conv15", "conv18", "conv21", "conv22"], a["fold"]["layers"]
assert "taken over" in a["fold"]["why"] and "no latency bound" in a["fold"]["why"], a["fold"]["why"]
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
