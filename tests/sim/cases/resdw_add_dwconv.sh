# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# A residual Add and depthwise convs (resdw): kiln_dwconv and kiln_add in the
# generated top, bit-exact over 2 frames of the model's input, every stage's
# t_done, the interval and the latency within 2% of the plan (the interval is
# dw2's frame plus its wait for conv0's first rows of the next frame, less
# what conv0's reorder buffer computed while dw2 held it back).
$KILN quantize $MODELS/resdw.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a > /dev/null
grep -q '^    kiln_dwconv #' $TMP/a/rtl/kiln_top.v
grep -q '^    kiln_add #' $TMP/a/rtl/kiln_top.v
$KILN simulate $TMP/a -i $MODELS/resdw-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
