# RUN: KILN PYTHON
# TIMEOUT: 30
# Quantized TOSA with !quant.uniform types (tests/tosa/qconv.mlir): read as
# one int8 Conv with its scales, run by kiln's int8 interpreter, identical to
# TOSA's arithmetic computed by NumPy (qconv_ref.py).
$PYTHON -c "import numpy as np; np.save('$TMP/x.npy', np.random.default_rng(3).integers(-128, 128, (1, 5, 5, 3)).astype(np.int8))"
$KILN run $HERE/qconv.mlir --target int8 -i $TMP/x.npy -o $TMP/y.npy
$PYTHON $HERE/qconv_ref.py $HERE/qconv.mlir $TMP/x.npy $TMP/y.npy
$KILN ir $HERE/qconv.mlir > $TMP/ir.gir
grep -q ' = Conv(.*rq_m_neg=\[0,0,0,0\].* scale(0.1)' $TMP/ir.gir
