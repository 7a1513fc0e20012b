# RUN: KILN
# plan.json "band" on a conv whose weights are on chip (bands take a conv
# whose weights stream from DDR in tiles): one exact diagnostic, no folder.
$KILN quantize $MODELS/big.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --plan-only -o $TMP/a > /dev/null
$HERE/check_plan.py mutate $TMP/a/plan.json $TMP/bad.json 0 band 2
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/bad.json: \$.stages[0].band: bands take a conv whose weights stream from DDR in several tiles, at most its 16 output rows" -- $KILN compile $TMP/q.gir --board zcu104 --plan $TMP/bad.json -o $TMP/b
test ! -e $TMP/b
