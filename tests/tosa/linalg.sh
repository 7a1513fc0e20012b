# Sourced by the *_linalg cases.  run_linalg FILE.mlir NOUT [KILN RUN ARGS...]
# compares kiln run on FILE (NOUT outputs; the arguments, e.g. --target int8,
# passed on) with MLIR's own lowering of FILE: tosa-to-linalg (rescale's
# apply_scale included), one-shot bufferization, on to LLVM, run by
# mlir-cpu-runner-16 on the input mlir_driver.py makes.  vector.print gives
# 6 significant digits, so the bound is 1e-5 relative L2 and the largest
# difference is printed.  Without mlir-16-tools it says so and passes.
run_linalg() {
    local f=$1 nout=$2 L=/usr/lib/llvm-16/lib outs="" i
    shift 2
    if ! command -v mlir-opt-16 > /dev/null || ! command -v mlir-cpu-runner-16 > /dev/null; then
        echo "mlir-opt-16 or mlir-cpu-runner-16 not found (Debian mlir-16-tools): not checked"
        return 0
    fi
    $PYTHON $HERE/mlir_driver.py $f $TMP/x.npy > $TMP/drv.mlir
    mlir-opt-16 $TMP/drv.mlir \
        --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale=true},tosa-to-tensor))" \
        > $TMP/linalg.mlir
    mlir-opt-16 $TMP/linalg.mlir --empty-tensor-to-alloc-tensor \
        --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs" \
        --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine \
        --convert-vector-to-llvm --convert-memref-to-llvm --convert-math-to-llvm \
        --convert-math-to-libm --convert-arith-to-llvm --convert-func-to-llvm \
        --convert-cf-to-llvm --reconcile-unrealized-casts > $TMP/llvm.mlir
    mlir-cpu-runner-16 $TMP/llvm.mlir -e main -entry-point-result=void \
        -shared-libs=$L/libmlir_runner_utils.so,$L/libmlir_c_runner_utils.so > $TMP/runner.txt
    for i in $(seq 0 $((nout - 1))); do outs="$outs -o $TMP/y$i.npy"; done
    $KILN run "$@" -i $TMP/x.npy $outs
    $PYTHON -c "
import sys, numpy as np
a = np.concatenate([np.load('$TMP/y%d.npy' % i).astype(np.float64).ravel() for i in range($nout)])
b = np.array([float(l) for l in open('$TMP/runner.txt')])
if a.size != b.size:
    sys.exit('%d values from kiln, %d from mlir-cpu-runner-16' % (a.size, b.size))
rel = np.linalg.norm(a - b) / np.linalg.norm(a)
print('$(basename $f): kiln against mlir-cpu-runner-16, relative L2 %.3g, largest difference %.3g, over %d values' % (rel, abs(a - b).max(), b.size))
sys.exit(0 if rel <= 1e-5 else 1)
"
}
