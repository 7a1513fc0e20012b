# RUN: KILN PYTHON
# TIMEOUT: 30
# MLIR's own lowering as a second reference: the block through tosa-to-linalg,
# bufferization and on to LLVM, run by mlir-cpu-runner-16 on the input the
# driver (resblock_driver.py) embeds, against kiln run on the same input
# (vector.print gives 6 significant digits, so 1e-5 relative L2).
if ! command -v mlir-opt-16 > /dev/null || ! command -v mlir-cpu-runner-16 > /dev/null; then
    echo "mlir-opt-16 or mlir-cpu-runner-16 not found (Debian mlir-16-tools): not checked"
    exit 0
fi
L=/usr/lib/llvm-16/lib
$PYTHON $HERE/resblock_driver.py $HERE/resblock.mlir $TMP/x.npy > $TMP/drv.mlir
mlir-opt-16 $TMP/drv.mlir \
    --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))" \
    > $TMP/linalg.mlir
mlir-opt-16 $TMP/linalg.mlir --empty-tensor-to-alloc-tensor \
    --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs" \
    --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine \
    --convert-vector-to-llvm --convert-memref-to-llvm --convert-math-to-llvm \
    --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm \
    --reconcile-unrealized-casts > $TMP/llvm.mlir
mlir-cpu-runner-16 $TMP/llvm.mlir -e main -entry-point-result=void \
    -shared-libs=$L/libmlir_runner_utils.so,$L/libmlir_c_runner_utils.so > $TMP/runner.txt
$KILN run $HERE/resblock.mlir -i $TMP/x.npy -o $TMP/y.npy
$PYTHON -c "
import sys, numpy as np
a = np.load('$TMP/y.npy').astype(np.float64).ravel()
b = np.array([float(l) for l in open('$TMP/runner.txt')])
rel = np.linalg.norm(a - b) / np.linalg.norm(a)
print('resblock: kiln against mlir-cpu-runner-16, relative L2 %.3g over %d values' % (rel, b.size))
sys.exit(0 if b.size == a.size and rel <= 1e-5 else 1)
"
