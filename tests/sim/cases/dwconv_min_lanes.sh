# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 600
# kiln_dwconv at its fewest lanes.  Its weight stream is as wide as its
# input (8 x LANES bits) and carries each channel's bias and multipliers as
# 32-bit beats: at 2 lanes they were cut to 16 bits and the engine's output
# was wrong in nearly every byte (PP-OCRv4's backbone below 8x8 on zcu102,
# docs/ocr.md), so the planner starts a depthwise conv at 4 lanes and a
# replayed plan with 2 is refused.  mbrelu6 on ultra96v2 with both depthwise
# convs (3x3 stride 1 on 32x32, 3x3 stride 2 to 16x16) replayed at 4 lanes
# simulates bit-exact over 2 frames (ultra96v2: its smaller arrays build
# faster in Verilator).
$KILN quantize $MODELS/mbrelu6.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 -o $TMP/a > /dev/null
dw=$(sed -n 's/^| \([0-9]*\) | dw1 .*| kiln_dwconv |.*/\1/p' $TMP/a/report.md)
dw2=$(sed -n 's/^| \([0-9]*\) | dw3 .*| kiln_dwconv |.*/\1/p' $TMP/a/report.md)
test -n "$dw" && test -n "$dw2"
$PYTHON $SRC/tests/plan/check_plan.py mutate $TMP/a/plan.json $TMP/two.json $dw lanes 2
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/two.json: \$.stages[$dw].lanes: 2 lanes; kiln_dwconv takes 4 or more (its 32-bit parameter beats)" -- $KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/two.json -o $TMP/b
test ! -e $TMP/b
$PYTHON $SRC/tests/plan/check_plan.py mutate $TMP/a/plan.json $TMP/m.json $dw lanes 4
$PYTHON $SRC/tests/plan/check_plan.py mutate $TMP/m.json $TMP/four.json $dw2 lanes 4
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/four.json -o $TMP/c > /dev/null
test "$(grep -c '^| [0-9]* | dw[13] .*| kiln_dwconv | 4 lanes |' $TMP/c/report.md)" = 2
$KILN simulate $TMP/c -i $MODELS/mbrelu6-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
