# RUN: KILN
# A replayed plan with a PE_OC that is not a power of two: one exact
# diagnostic, no output folder.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 -o $TMP/a
$HERE/check_plan.py mutate $TMP/a/plan.json $TMP/bad.json 2 pe_oc 3
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/bad.json: \$.stages[2].pe_oc: expected a power of two in 1..4096" -- $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --plan $TMP/bad.json -o $TMP/b
test ! -e $TMP/b
