# RUN: KILN SRC
# TIMEOUT: 10
# A rescale with a zero point: kiln's int8 is symmetric.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/zero_point.mlir:3:8: tosa.rescale: input_zp 0, output_zp 3: kiln's int8 form has zero points 0" -- $KILN ir $HERE/bad/zero_point.mlir
