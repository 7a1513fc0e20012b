# RUN: KILN
# --pin fixes a conv's PE_OC x PE_IC x PP.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --pin conv12=16x32x2 -o $TMP/a
$HERE/check_plan.py pin $TMP/a conv12 16 32 2
