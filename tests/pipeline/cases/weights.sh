# RUN: KILN PYTHON
# int8 yolov3-tiny-small: weights.bin is the same on every compile, is the
# sum of the "weights" list and equals the kiln_conv weight streams rebuilt
# from q.gir by check_regmap.py.
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/b
cmp $TMP/a/rtl/weights.bin $TMP/b/rtl/weights.bin
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/q.gir
