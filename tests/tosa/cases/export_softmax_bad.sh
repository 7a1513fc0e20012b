# RUN: KILN SRC
# TIMEOUT: 10
# The writer refuses an op it has no TOSA form for, naming the node; no file is left.
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/out.mlir: node 'y' (Softmax): no TOSA form in kiln's writer (docs/tosa.md lists the ops)" -- $KILN export $HERE/bad/softmax.gir --tosa -o $TMP/out.mlir
test ! -e $TMP/out.mlir
