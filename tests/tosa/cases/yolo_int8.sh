# RUN: KILN MODELS
# TIMEOUT: 30
# YOLOv3-tiny (64x64) quantized (2 seeded inputs) and written with --tosa:
# i8 conv2d, rescale, select for the leaky slope; mlir-opt-16 verifies it,
# and kiln reads it back to byte-identical int8 outputs.
M=$MODELS/yolov3-tiny-small
$KILN quantize $M.onnx --calib-random 2 --calib-backend ref -o $TMP/q.gir
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/q.mlir > /dev/null
else
    echo "mlir-opt-16 not found (Debian mlir-16-tools): not verified by MLIR"
fi
test "$(grep -c '"tosa.rescale"' $TMP/q.mlir)" -ge 13
$KILN run $TMP/q.gir --target int8 -i $M-input.npy -o $TMP/a0.npy -o $TMP/a1.npy
$KILN run $TMP/q.mlir --target int8 -i $M-input.npy -o $TMP/b0.npy -o $TMP/b1.npy
cmp $TMP/a0.npy $TMP/b0.npy
cmp $TMP/a1.npy $TMP/b1.npy
# the read-back graph is kiln's int8 form again: 13 int8 Convs
$KILN ir $TMP/q.mlir > $TMP/back.gir
test "$(grep -c ' = Conv(.*rq_m_pos' $TMP/back.gir)" = 13
