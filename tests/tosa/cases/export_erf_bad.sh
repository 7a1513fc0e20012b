# RUN: KILN SRC
# TIMEOUT: 10
# The writer refuses an op it has no TOSA form for, naming the node; no file is left.
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/out.mlir: node 'y' (Erf): no TOSA form in kiln's writer (docs/tosa.md lists the ops)" -- $KILN export $HERE/bad/erf.gir --tosa -o $TMP/out.mlir
test ! -e $TMP/out.mlir
