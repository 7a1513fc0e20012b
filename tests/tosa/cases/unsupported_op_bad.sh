# RUN: KILN SRC
# TIMEOUT: 10
# A TOSA op outside the set read (tosa.gather): named, with its place.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/unsupported_op.mlir:3:8: tosa.gather: unsupported op (docs/tosa.md lists the ops read)" -- $KILN ir $HERE/bad/unsupported_op.mlir
