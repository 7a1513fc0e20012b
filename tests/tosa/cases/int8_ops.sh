# RUN: KILN PYTHON
# TIMEOUT: 60
# The int8 ops around the convs (tests/tosa/int8_ops.cfg quantized): Concat,
# MaxPool, the int8 GlobalAveragePool (written as a depthwise conv of ones
# and a rescale, since TOSA's avg_pool2d rounds its own way) and a Requantize
# put in front of the pool by hand (rescale i8 -> i8).  Verified by
# mlir-opt-16, read back byte-identical, and MLIR's own lowering of the file
# gives kiln's int8 outputs (tests/tosa/linalg.sh).
. $HERE/linalg.sh
$KILN quantize $HERE/int8_ops.cfg --calib-random 2 --calib-backend ref -o $TMP/q0.gir
sed -e 's/^\(%avgpool[0-9]* = GlobalAveragePool(\)\(%route[0-9]*\))/\1%rq)/' \
    -e 's/^\(%route[0-9]*\) = Concat(\(.*\) : \(i8\[[0-9,]*\]\) scale(\([0-9.e-]*\))\(.*\)$/&\n%rq = Requantize(\1) {rq_m=[24000], rq_shift=[15]} : \3 scale(\4)/' \
    $TMP/q0.gir > $TMP/q.gir
grep -q ' = Requantize(' $TMP/q.gir
grep -q 'GlobalAveragePool(%rq)' $TMP/q.gir
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/q.mlir > /dev/null
fi
$PYTHON -c "import numpy as np; np.save('$TMP/in.npy', np.random.default_rng(2).random((1, 3, 12, 12), dtype=np.float32))"
$KILN run $TMP/q.gir --target int8 -i $TMP/in.npy -o $TMP/a.npy
$KILN run $TMP/q.mlir --target int8 -i $TMP/in.npy -o $TMP/b.npy
cmp $TMP/a.npy $TMP/b.npy
$KILN ir $TMP/q.mlir > $TMP/back.gir
grep -q ' = Requantize(.*rq_m=\[24000\], rq_shift=\[15\]' $TMP/back.gir
run_linalg $TMP/q.mlir 1 $TMP/q.gir --target int8
