# RUN: KILN SRC
# TIMEOUT: 10
# A module with two functions.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/two_funcs.mlir:5:1: a second func.func; kiln reads a module with one function" -- $KILN ir $HERE/bad/two_funcs.mlir
