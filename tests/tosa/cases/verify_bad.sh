# RUN: KILN SRC
# TIMEOUT: 10
# Parses but fails tosa.conv2d's verifier: MLIR's message at the op.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/verify.mlir:5:8: 'tosa.conv2d' op expect both input and weight to be float or not together, got 'f32' and 'i8'" -- $KILN ir $HERE/bad/verify.mlir
