# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: yolov3-tiny-small quantized and compiled for zcu104 as by
# default (pixel parallelism up to 4: convs at one to four pixels per op,
# some with pixel groups across row ends), simulated over 2 frames (one
# Verilator build of the whole network): bit-exact, cycles within 2%.
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a > /dev/null
grep -Eq '"pp":[[:space:]]*[34]' $TMP/a/plan.json
grep -Eq '"span":[[:space:]]*true' $TMP/a/plan.json
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
