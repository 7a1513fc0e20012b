# RUN: KILN PYTHON
# TIMEOUT: 30
# The hand-written TOSA ResNet-style block (conv2d + ReLU clamp + conv2d +
# residual add + ReLU clamp, NHWC) read and run by kiln against NumPy; the
# graph holds the two convs in NCHW with one Transpose at the input and one
# at the output.
$PYTHON -c "import numpy as np; np.save('$TMP/x.npy', (np.sin(np.arange(144, dtype=np.float32) * 0.37) * 1.5).astype(np.float32).reshape(1, 6, 6, 4))"
$KILN run $HERE/resblock.mlir -i $TMP/x.npy -o $TMP/y.npy
$PYTHON $HERE/resblock_ref.py $HERE/resblock.mlir $TMP/x.npy $TMP/y.npy
$KILN ir $HERE/resblock.mlir > $TMP/ir.gir
test "$(grep -c ' = Transpose(' $TMP/ir.gir)" = 2
test "$(grep -c ' = Conv(' $TMP/ir.gir)" = 2
