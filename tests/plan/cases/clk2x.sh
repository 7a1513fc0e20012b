# RUN: KILN
# --clk2x: on ZCU104 at 300 MHz the conv arrays take DSP2X (the DSPs at
# 600 MHz, within the xczu7ev-2's DSP48E2 FMAX of 775 MHz, DS925) and the
# plan replays to the same figures; on Ultra96-V2 at 333 MHz (666 MHz
# against the xczu3eg-1's 645) the planner leaves the DSPs on the fabric
# clock and says why, and a replayed clk2x plan there is an error; auto
# plans both and says which it took.
M=$MODELS/yolov3-tiny-small.onnx
$KILN compile $M --calib-random 1 --board zcu104 --clk2x on --plan-only -o $TMP/a > /dev/null
grep -Eq '"clk2x":[[:space:]]*true' $TMP/a/plan.json
grep -Eq '"dsp2x":[[:space:]]*true' $TMP/a/plan.json
grep -q 'DSP clock | 600 MHz' $TMP/a/report.md
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/a/plan.json --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $M --calib-random 1 --board ultra96v2 --clock 333 --clk2x on --plan-only -o $TMP/c > /dev/null
if grep -q '"clk2x"' $TMP/c/plan.json; then exit 1; fi
grep -q 'clk2x: 2 x 333.0 MHz exceeds the DSP48E2 FMAX of xczu3eg-sbva484-1-e, 645 MHz' $TMP/c/report.md
if $KILN compile $M --calib-random 1 --board ultra96v2 --clock 333 --plan $TMP/a/plan.json --plan-only -o $TMP/d 2> $TMP/err; then exit 1; fi
grep -q 'plan.json: \$.clk2x: clk2x: 2 x 333.0 MHz exceeds the DSP48E2 FMAX' $TMP/err
$KILN compile $M --calib-random 1 --board zcu104 --clk2x auto --plan-only -o $TMP/e > /dev/null
grep -Eq 'DSP clock choice \| clk2x: (not )?taken, ' $TMP/e/report.md
if $KILN compile $M --board zcu104 --clk2x twice --plan-only -o $TMP/f 2> $TMP/err2; then exit 1; fi
grep -qx "kiln: compile: --clk2x 'twice': expected on, auto or off" $TMP/err2
