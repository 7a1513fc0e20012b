# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 600
# Tables per channel on the FPGA: gen_chscale.py's conv -> affine +
# HardSwish -> depthwise conv -> HardSwish -> 1x1 conv, quantized with
# --channel-scales auto (both LutI8s 16 x 256 entries), compiles to one
# segment of 5 stages, both tables on kiln_lut with CHANS 16; conv0 pinned
# to 2 output lanes, so the first table's stream carries a pixel in 8 beats
# (lane l of beat g is channel 2g + l) and its ROMs hold 8 tables a lane
# (block RAM), the second's on 16 lanes one (logic).
# Bit-exact with the int8 interpreter over 2 frames, every stage's t_done,
# the interval and the latency within 2% of the plan.
$PYTHON $SRC/tests/models/gen_chscale.py $TMP/m.onnx $TMP/in.npy
$KILN quantize $TMP/m.onnx --calib-random 4 --calib-backend ref --channel-scales auto \
  -o $TMP/q.gir > /dev/null
test "$(grep -c '= LutI8(' $TMP/q.gir)" = 2
$KILN compile $TMP/q.gir --board zcu104 --pin conv0=2x4x1 -o $TMP/a | tee $TMP/plan
grep -q ' 5 FPGA layers, 2 CPU nodes, 1 segment(s)$' $TMP/plan
test "$(grep -c '^    kiln_lut #' $TMP/a/rtl/kiln_top.v)" = 2
test "$(grep -c '^        .CHANS(16),$' $TMP/a/rtl/kiln_top.v)" = 2
grep -A1 '^        .LANES(2),$' $TMP/a/rtl/kiln_top.v | grep -q '^        .CHANS(16),$'
$KILN simulate $TMP/a -i $TMP/in.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
