# RUN: KILN
# TIMEOUT: 120
# The int8 kernels in their corner cases (cases/int8-ops.gir from
# gen_int8_ops.py: Conv with 5 and 20 input channels, a partial output
# block, padding, stride, dilation; Gemm with transA, transB, each bias
# broadcast and none, the clamp; MatMul with a constant and a computed B):
# kiln run --target cpu compiles every node and gives every output byte
# for byte --target int8.
g=$HERE/cases/int8-ops.gir
ins="-i $HERE/cases/int8-ops-x.npy -i $HERE/cases/int8-ops-z.npy"
c=() r=()
for k in 0 1 2 3 4 5 6 7; do
    c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/int8_$k.npy)
done
$KILN run $g $ins --target cpu "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 15 of 15 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $ins --target int8 "${r[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do
    cmp $TMP/cpu$k.npy $TMP/int8_$k.npy
done
echo "8 outputs: --target cpu byte for byte --target int8"
