# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Random back-pressure (as yolov3_tiny_small_bp) on yolov3-tiny-small
# compiled for Ultra96-V2 with the time-shared engine
# (yolov3_tiny_small_fold: conv10 and conv12 .. conv18 on one kiln_tsconv,
# in two parts): the dataflow segments' streams gated, every AXI slave of
# the segments and of the engine's parts stalled; 2 frames bit-exact at 70%
# and 20%.
. $HERE/bp_lib.sh
. $HERE/fold_lib.sh
fold_quantize
$KILN compile $TMP/q.gir --board ultra96v2 --pp-max 1 --fold conv10,conv12,conv13,conv14,conv15,conv18 -o $TMP/a > /dev/null
grep -q '^    kiln_tsconv #($' $TMP/a/rtl/kiln_top.v
bp_check $TMP/a
grep -Eq "^segment 4 \(the shared engine's part 1, 5 layers, a start a frame\): .*; bit-exact" $TMP/out70
