# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 600
# kiln_dwconv at 2 lanes, where its weight stream (8 x LANES bits) is
# narrower than a 32-bit parameter word (bias, multipliers): each word comes
# in two beats.  When it came in one, cut to 16 bits, the engine's output was
# wrong in nearly every byte (PP-OCRv4's backbone below 8x8 on zcu102,
# docs/ocr.md; this case then: 6102 output bytes differed).  mbrelu6 on
# ultra96v2 with both depthwise convs (3x3 stride 1 on 32x32, 3x3 stride 2
# to 16x16) replayed at 2 lanes, bit-exact over 2 frames.
$KILN quantize $MODELS/mbrelu6.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off -o $TMP/a > /dev/null
dw=$(sed -n 's/^| \([0-9]*\) | dw1 .*| kiln_dwconv |.*/\1/p' $TMP/a/report.md)
dw2=$(sed -n 's/^| \([0-9]*\) | dw3 .*| kiln_dwconv |.*/\1/p' $TMP/a/report.md)
test -n "$dw" && test -n "$dw2"
$PYTHON $SRC/tests/plan/check_plan.py mutate $TMP/a/plan.json $TMP/m.json $dw lanes 2
$PYTHON $SRC/tests/plan/check_plan.py mutate $TMP/m.json $TMP/two.json $dw2 lanes 2
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/two.json -o $TMP/c > /dev/null
test "$(grep -c '^| [0-9]* | dw[13] .*| kiln_dwconv | 2 lanes |' $TMP/c/report.md)" = 2
test "$(grep -c '^        .LANES(2),$' $TMP/c/rtl/kiln_top.v)" -ge 2
$KILN simulate $TMP/c -i $MODELS/mbrelu6-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
