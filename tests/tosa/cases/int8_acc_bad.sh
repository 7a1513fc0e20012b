# RUN: KILN SRC
# TIMEOUT: 10
# An int8 conv's i32 accumulator that is not rescaled: no int8 form.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/int8_acc.mlir:7:3: func.return: the i32 accumulator of the int8 conv at line 6 must go to tosa.rescale (to i8) for kiln's int8 form" -- $KILN ir $HERE/bad/int8_acc.mlir
