# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Random back-pressure (as yolov3_tiny_small_bp) on yolov3-tiny-small
# compiled for zcu104 with --clk2x (yolov3_tiny_small_clk2x: the conv MAC
# arrays on the clk2x domain, pixel pairs and lane pairs): 2 frames
# bit-exact at 70% and 20%.
. $HERE/bp_lib.sh
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --clk2x on -o $TMP/a > /dev/null
grep -q '\.clk2x(clk2x)' $TMP/a/rtl/kiln_top.v
grep -Eq '"dsp2x_pairs":[[:space:]]*"pixels"' $TMP/a/plan.json
bp_check $TMP/a
