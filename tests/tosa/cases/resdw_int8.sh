# RUN: KILN PYTHON MODELS
# TIMEOUT: 60
# The residual depthwise net (resdw: depthwise convs, ReLU, an int8 Add of
# two scales) quantized and written with --tosa: mlir-opt-16 verifies it,
# kiln reads it back to byte-identical int8 outputs (the Add again an int8
# Add, the depthwise convs grouped Convs), and MLIR's own lowering of it gives
# the same outputs as kiln's int8 interpreter.
. $HERE/linalg.sh
M=$MODELS/resdw
$KILN quantize $M.onnx --calib-random 2 --calib-backend ref -o $TMP/q.gir
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
if command -v mlir-opt-16 > /dev/null; then
    mlir-opt-16 $TMP/q.mlir > /dev/null
fi
$KILN run $TMP/q.gir --target int8 -i $M-input.npy -o $TMP/a.npy
$KILN run $TMP/q.mlir --target int8 -i $M-input.npy -o $TMP/b.npy
cmp $TMP/a.npy $TMP/b.npy
$KILN ir $TMP/q.mlir > $TMP/back.gir
test "$(grep -c ' = Add(.*rq_m_a' $TMP/back.gir)" = 1
test "$(grep -Ec ' = Conv\(.*group=[1-9][0-9]+, .*rq_m_pos' $TMP/back.gir)" = 2
run_linalg $TMP/q.mlir 1 $TMP/q.gir --target int8
