# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Weights beyond the board's block RAM (big on ultra96v2): convs stream
# their weights from DDR in tiles, the first one's input and every tiled
# output go through DDR inside the segment (scratch buffers, frame-gated
# readers, tile passes written into each pixel); the planner takes the
# second in bands (plan_bands), reading its input from DDR once a frame and
# its weight set once a band.  Bit-exact over 2 frames,
# scratch maps included.  Cycles within 2% (every stage within 0.31%;
# latency 461,788 cycles measured against 460,846 predicted, interval
# 153,016 against 153,301).
$KILN quantize $MODELS/big.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off -o $TMP/a > /dev/null
grep -Eq '[.]cfg_subs[(]32.d([2-9]|[1-9][0-9]+)[)]' $TMP/a/rtl/kiln_top.v
grep -q '"scratch": \["out' $TMP/a/rtl/regmap.json
$KILN simulate $TMP/a -i $MODELS/big-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
