# RUN: KILN PYTHON MODELS
# TIMEOUT: 60
# YOLOv3-tiny (64x64) written with --tosa: mlir-opt-16 parses and verifies
# it, and kiln reads it back to the same outputs (within 1e-6 relative L2;
# in practice bit-identical); MLIR's own lowering of it is a second reference.
M=$MODELS/yolov3-tiny-small
$KILN export $M.onnx --tosa -o $TMP/y.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/y.mlir > /dev/null
else
    echo "mlir-opt-16 not found (Debian mlir-16-tools): not verified by MLIR"
fi
$KILN run $M.onnx -i $M-input.npy -o $TMP/a0.npy -o $TMP/a1.npy
$KILN run $TMP/y.mlir -i $M-input.npy -o $TMP/b0.npy -o $TMP/b1.npy
$PYTHON -c "
import sys, numpy as np
worst = 0
for i in (0, 1):
    a = np.load('$TMP/a%d.npy' % i).astype(np.float64); b = np.load('$TMP/b%d.npy' % i).astype(np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    rel = np.linalg.norm(a - b) / np.linalg.norm(a)
    print('output %d: relative L2 %.3g, %d of %d values bit-identical' % (i, rel, (a == b).sum(), a.size))
    worst = max(worst, rel)
sys.exit(0 if worst <= 1e-6 else 1)
"
# and MLIR's own lowering of the export against kiln on the original model
. $HERE/linalg.sh
run_linalg $TMP/y.mlir 2 $M.onnx
