# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# The frame barrier of the interval model (big on zcu104, conv3 and conv4
# pinned): conv3 reads its input from DDR (conv2 is weight-tiled) and runs
# back to back; conv4, twice as fast, takes nothing of the next frame until
# it has finished the current one, which it does two output rows after
# conv3's last beat.  conv3 stalls that long every frame, so the plan gives
# it an occupancy at least 10% above its cycles, and the measured interval
# over 3 frames must match it within 2% (without the stall the model is 10%
# short).  Every stage's t_done and the latency within 2% too: conv2, tiled
# (PE 32x64, two passes, weights from DDR), is bound by its weight stream
# (64-byte beats through a 16-byte channel, the first tile from the start of
# the run); without that in the model it finishes 38% earlier than measured.
$KILN quantize $MODELS/big.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board zcu104 --clk2x off --pin conv3=8x16x1 --pin conv4=16x16x1 -o $TMP/a > /dev/null
$PYTHON $SRC/tests/plan/check_plan.py stall $TMP/a conv3 0.10
$KILN simulate $TMP/a -i $MODELS/big-input.npy --frames 3 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
