# RUN: KILN PYTHON
# TIMEOUT: 30
# Darknet's [yolo] layer (YoloHead, tests/tosa/yolo_head.cfg) written as
# select(mask, sigmoid(x), x): verified by mlir-opt-16 and read back
# bit-identical in fp32, and byte-identical after quantization (the head stays
# fp32 behind a DequantizeLinear, written as cast + mul).
$PYTHON -c "import numpy as np; np.save('$TMP/x.npy', np.random.default_rng(2).random((1, 3, 16, 16), dtype=np.float32))"
$KILN export $HERE/yolo_head.cfg --tosa -o $TMP/f.mlir
$KILN quantize $HERE/yolo_head.cfg --calib-random 2 --calib-backend ref -o $TMP/q.gir
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/f.mlir > /dev/null
    mlir-opt-16 $TMP/q.mlir > /dev/null
fi
grep -q '"tosa.select"' $TMP/f.mlir
$KILN run $HERE/yolo_head.cfg -i $TMP/x.npy -o $TMP/a.npy
$KILN run $TMP/f.mlir -i $TMP/x.npy -o $TMP/b.npy
cmp $TMP/a.npy $TMP/b.npy
$KILN run $TMP/q.gir --target int8 -i $TMP/x.npy -o $TMP/qa.npy
$KILN run $TMP/q.mlir --target int8 -i $TMP/x.npy -o $TMP/qb.npy
cmp $TMP/qa.npy $TMP/qb.npy
