# RUN: KILN PYTHON
# TIMEOUT: 30
# The CNN ops kiln reads (tests/tosa/ops.mlir), through kiln's reader and
# interpreter against MLIR's own lowering run by mlir-cpu-runner-16
# (tests/tosa/linalg.sh).
. $HERE/linalg.sh
run_linalg $HERE/ops.mlir 1 $HERE/ops.mlir
