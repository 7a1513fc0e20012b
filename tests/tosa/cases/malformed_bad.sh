# RUN: KILN SRC
# TIMEOUT: 10
# Malformed MLIR: MLIR's parser message as FILE:LINE:COL.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/malformed.mlir:3:25: expected ')' to end operand list" -- $KILN ir $HERE/bad/malformed.mlir
