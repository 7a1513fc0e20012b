# RUN: KILN
# A plan replayed with --plan gives the same figures.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 -o $TMP/a
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --plan $TMP/a/plan.json -o $TMP/b
$HERE/check_plan.py same $TMP/a $TMP/b
