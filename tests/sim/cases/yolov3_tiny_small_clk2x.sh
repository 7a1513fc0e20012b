# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: yolov3-tiny-small compiled for zcu104 with --clk2x (the conv
# MAC arrays on a clk2x domain at 600 MHz, within the xczu7ev-2's DSP48E2
# FMAX of 775 MHz: a conv with an even PP takes pixel pairs, each DSP48E2
# multiplying one packed weight pair by two pixels a fabric cycle (kiln_conv
# DSP2X 2), one with an odd PP lane pairs, each DSP48E2 summing two input
# lanes' packed products (DSP2X 1); the plan has both), simulated over 2
# frames with both clocks: bit-exact, every
# stage's t_done, the interval and the latency within 2% of the plan.  The
# harness drives clk2x at twice clk with aligned edges, and every DSP2X conv
# checks that in simulation (a wrong ratio stops the run: rtl_conv_2x_clock_bad).
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --clk2x off -o $TMP/b --plan-only > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --clk2x on -o $TMP/a > /dev/null
grep -Eq '"clk2x":[[:space:]]*true' $TMP/a/plan.json
grep -Eq '"dsp2x":[[:space:]]*true' $TMP/a/plan.json
grep -Eq '"dsp2x_pairs":[[:space:]]*"pixels"' $TMP/a/plan.json
grep -Eq '"dsp2x_pairs":[[:space:]]*"inputs"' $TMP/a/plan.json
grep -q 'KILN_TOP_CLK2X 1' $TMP/a/rtl/kiln_ports.h
grep -q '\.clk2x(clk2x)' $TMP/a/rtl/kiln_top.v
grep -q 'DSP clock | 600 MHz' $TMP/a/report.md
# a DSP takes four MACs a fabric cycle instead of two: the convs' DSPs
# (requant included) per MAC lane drop below 0.8 of the plan without clk2x
$PYTHON - $TMP/a/plan.json $TMP/b/plan.json <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def per_mac(p):
    cv = [s for s in p["stages"] if s["engine"] == "kiln_conv"]
    return sum(s["resources"]["dsp"] for s in cv) / sum(s["pe_oc"] * s["pe_ic"] * s["pp"] for s in cv)
print("conv DSPs per MAC lane: clk2x %.3f, 1x %.3f" % (per_mac(a), per_mac(b)))
sys.exit(0 if per_mac(a) < 0.8 * per_mac(b) else 1)
PY
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
