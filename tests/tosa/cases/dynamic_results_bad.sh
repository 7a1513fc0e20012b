# RUN: KILN SRC
# TIMEOUT: 10
# A function with two results of unknown shape: the first op giving one.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/bad/dynamic_results.mlir:3:8: tosa.sigmoid: the result has type tensor<?x4xf32>: dimension 0 is dynamic; kiln needs static shapes" -- $KILN ir $HERE/bad/dynamic_results.mlir
