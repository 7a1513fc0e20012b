# RUN: KILN PYTHON
# TIMEOUT: 30
# tosa.resize (bilinear half-pixel, bilinear asymmetric, nearest) read as
# kiln Resize modes, against MLIR's own lowering (tests/tosa/linalg.sh); then
# kiln's export of what it read, read back: the same bytes.
. $HERE/linalg.sh
run_linalg $HERE/resize.mlir 1 $HERE/resize.mlir
$PYTHON -c "import numpy as np; np.save('$TMP/r.npy', np.random.default_rng(4).random((1, 4, 5, 3), dtype=np.float32))"
$KILN run $HERE/resize.mlir -i $TMP/r.npy -o $TMP/r1.npy
$KILN export $HERE/resize.mlir --tosa -o $TMP/again.mlir
$KILN run $TMP/again.mlir -i $TMP/r.npy -o $TMP/r2.npy
cmp $TMP/r1.npy $TMP/r2.npy
