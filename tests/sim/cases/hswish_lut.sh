# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# LutI8 tables on the FPGA: gen_small.py's hswish model (conv, scalar affine,
# paddle2onnx's HardSwish, quantized into one LutI8 per block) compiles to
# one segment of 7 stages, three of them kiln_lut with the node's table as
# the TABLE parameter, bit-exact with the int8 interpreter over 2 frames,
# every stage's t_done, the interval and the latency within 2% of the plan.
$KILN quantize $MODELS/hswish.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
test "$(grep -c '= LutI8(' $TMP/q.gir)" = 3
$KILN compile $TMP/q.gir --board ultra96v2 -o $TMP/a | tee $TMP/plan
grep -q ' 7 FPGA layers, 2 CPU nodes, 1 segment(s)$' $TMP/plan
test "$(grep -c '^    kiln_lut #' $TMP/a/rtl/kiln_top.v)" = 3
grep -q "^        .TABLE(2048'h[0-9a-f]\{512\})$" $TMP/a/rtl/kiln_top.v
$KILN simulate $TMP/a -i $MODELS/hswish-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
