# RUN: KILN SRC
# TIMEOUT: 10
# A tosa.const whose value's type is not its result's: MLIR 16's verifier
# lets it through, and reading its data would run past the value.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/const_type.mlir:2:8: tosa.const: the value's type is not the result's type" -- $KILN ir $HERE/bad/const_type.mlir
