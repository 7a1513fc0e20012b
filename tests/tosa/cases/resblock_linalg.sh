# RUN: KILN PYTHON
# TIMEOUT: 30
# MLIR's own lowering as a second reference for the hand-written block
# (tests/tosa/linalg.sh).
. $HERE/linalg.sh
run_linalg $HERE/resblock.mlir 1 $HERE/resblock.mlir
