# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# FIXTURES_SETUP: sim_y3s_dir
# End to end: yolov3-tiny-small quantized, compiled for zcu104 with pixel
# parallelism up to 2, simulated over 2 frames, bit-exact (one Verilator
# build of the whole network: a minute or two on 2 cores).
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --pp-max 2 -o $TMP/a > /dev/null
grep -Ec '"pp":[[:space:]]*[34]' $TMP/a/plan.json | grep -qx 0
test -f $TMP/a/rtl/kiln_ports.h
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
