# RUN: KILN
# By default (--pp-max 8) the search takes PP 3 (between the powers of
# two), the 13-wide layers' groups run across row ends (span), and the plan
# replays to the same figures; --pp-max 2 keeps every conv at PP 1 or 2;
# --pp-max 8 on ZCU102 takes PP 5..8 somewhere and replays too.  On the
# fabric clock (--clk2x off), the plans these choices were found in.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu104 -o $TMP/a
grep -Eq '"pp":[[:space:]]*3' $TMP/a/plan.json
grep -Eq '"span":[[:space:]]*true' $TMP/a/plan.json
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --plan $TMP/a/plan.json -o $TMP/b
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu104 --pp-max 2 -o $TMP/c
grep -Ec '"pp":[[:space:]]*[34]' $TMP/c/plan.json | grep -qx 0
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu102 --pp-max 8 -o $TMP/d
grep -Eq '"pp":[[:space:]]*[5-8]' $TMP/d/plan.json
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu102 --plan $TMP/d/plan.json -o $TMP/e
$HERE/check_plan.py same $TMP/d $TMP/e
