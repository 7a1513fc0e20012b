# RUN: KILN PYTHON
# TIMEOUT: 60
# The int8 Gemm in TOSA (tests/tosa/int8_fc.cfg quantized): each Gemm is
# written as tosa.fully_connected i8 x i8 giving i32 and the int8 Conv's
# requantization (a rescale per output channel; the first Gemm, given a
# leaky slope here by halving its rq_m_neg, two rescales and a select).
# Verified by mlir-opt-16, read back as int8 Gemms with the same
# requantization and byte-identical outputs, and MLIR's own lowering of the
# file gives kiln's int8 outputs (tests/tosa/linalg.sh).
. $HERE/linalg.sh
$KILN quantize $HERE/int8_fc.cfg --calib-random 2 --calib-backend ref -o $TMP/q0.gir
$PYTHON - $TMP/q0.gir $TMP/q.gir <<'PY'
import re, sys
src = open(sys.argv[1]).read()
def half(m):
    return "rq_m_neg=[" + ",".join(str(int(v) // 2) for v in m.group(1).split(",")) + "]"
lines = [re.sub(r"rq_m_neg=\[([0-9,]+)\]", half, l) if l.startswith("%connected2 = Gemm(") else l
         for l in src.split("\n")]
assert lines != src.split("\n"), "no %connected2 Gemm in the quantized graph"
open(sys.argv[2], "w").write("\n".join(lines))
PY
test "$(grep -c ' = Gemm(.* : i8\[' $TMP/q.gir)" = 2
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
test "$(grep -c 'tosa.fully_connected' $TMP/q.mlir)" = 2
grep -q 'tosa.select' $TMP/q.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/q.mlir > /dev/null
fi
$PYTHON -c "import numpy as np; np.save('$TMP/in.npy', np.random.default_rng(3).random((1, 3, 8, 8), dtype=np.float32))"
$KILN run $TMP/q.gir --target int8 -i $TMP/in.npy -o $TMP/a.npy
$KILN run $TMP/q.mlir --target int8 -i $TMP/in.npy -o $TMP/b.npy
cmp $TMP/a.npy $TMP/b.npy
$KILN ir $TMP/q.mlir > $TMP/back.gir
test "$(grep -c ' = Gemm(.*transB=1.*rq_m_pos=.*rq_m_neg=.*rq_shift=.* : i8\[' $TMP/back.gir)" = 2
run_linalg $TMP/q.mlir 1 $TMP/q.gir --target int8
