# RUN: KILN PYTHON
# --clk2x: on ZCU104 at 300 MHz the conv arrays take DSP2X (the DSPs at
# 600 MHz, within the xczu7ev-2's DSP48E2 FMAX of 775 MHz, DS925) and the
# plan replays to the same figures; on Ultra96-V2 at 333 MHz (666 MHz
# against the xczu3eg-1's 645) the planner leaves the DSPs on the fabric
# clock and says why, and a replayed clk2x plan there is an error; auto
# plans both and says which it took.  Each conv's clk2x mode replays
# (dsp2x_pairs: pixel pairs with an even PP, lane pairs with an even
# PE_IC): a conv's pixel pairs turned into lane pairs come back as such, and pixel
# pairs on an odd PP are an error.
M=$MODELS/yolov3-tiny-small.onnx
$KILN compile $M --calib-random 1 --board zcu104 --clk2x on --plan-only -o $TMP/a > /dev/null
grep -Eq '"clk2x":[[:space:]]*true' $TMP/a/plan.json
grep -Eq '"dsp2x":[[:space:]]*true' $TMP/a/plan.json
grep -q 'DSP clock | 600 MHz' $TMP/a/report.md
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/a/plan.json --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
# report.md's DSP use counts the DSPs at 600 MHz (pixel pairs: no packing loss)
$HERE/check_plan.py dsp_use $TMP/a > /dev/null
grep -Eq '"dsp2x_pairs":[[:space:]]*"pixels"' $TMP/a/plan.json
$PYTHON - $TMP/a/plan.json $TMP/g.json $TMP/h.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
cv = [s for s in p["stages"] if s.get("dsp2x")]
g = sorted((s for s in cv if s["dsp2x_pairs"] == "pixels" and s["pe_ic"] % 2 == 0),
           key=lambda s: s["pe_oc"] * s["pe_ic"] * s["pp"])[:1]  # the smallest: LUT budget
for s in g:
    s["dsp2x_pairs"] = "inputs"
json.dump(p, open(sys.argv[2], "w"))
odd = [s for s in cv if s["pp"] % 2]
for s in odd[:1]:
    s["dsp2x_pairs"] = "pixels"
json.dump(p, open(sys.argv[3], "w"))
sys.exit(0 if g and odd else 1)
PY
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/g.json --plan-only -o $TMP/g > /dev/null
$PYTHON - $TMP/g.json $TMP/g/plan.json <<'PY'
import json, sys
a, b = ([s.get("dsp2x_pairs") for s in json.load(open(f))["stages"]] for f in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
if $KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/h.json --plan-only -o $TMP/h 2> $TMP/err3; then exit 1; fi
grep -q 'dsp2x_pairs: "pixels" needs an even pp' $TMP/err3
$KILN compile $M --calib-random 1 --board ultra96v2 --clock 333 --clk2x on --plan-only -o $TMP/c > /dev/null
if grep -q '"clk2x"' $TMP/c/plan.json; then exit 1; fi
grep -q 'clk2x: 2 x 333.0 MHz exceeds the DSP48E2 FMAX of xczu3eg-sbva484-1-e, 645 MHz (a clock of 322.5 MHz or less allows it)' $TMP/c/report.md
if $KILN compile $M --calib-random 1 --board ultra96v2 --clock 333 --plan $TMP/a/plan.json --plan-only -o $TMP/d 2> $TMP/err; then exit 1; fi
grep -q 'plan.json: \$.clk2x: clk2x: 2 x 333.0 MHz exceeds the DSP48E2 FMAX' $TMP/err
$KILN compile $M --calib-random 1 --board zcu104 --clk2x auto --plan-only -o $TMP/e > /dev/null
grep -Eq 'DSP clock choice \| clk2x: (not )?taken, ' $TMP/e/report.md
if $KILN compile $M --board zcu104 --clk2x twice --plan-only -o $TMP/f 2> $TMP/err2; then exit 1; fi
grep -qx "kiln: compile: --clk2x 'twice': expected on, auto or off" $TMP/err2
