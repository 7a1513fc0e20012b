# RUN: KILN
# The ops lowered after the first set (cases/ops2.gir from gen_ops.py):
# Softmax over an inner axis and in the pre-13 form, Pad in each mode,
# broadcasting Add / Mul / Sub, fp32 Gemm and MatMul (2-D and batched B),
# the unary ops computed in double, Pow, ReduceMean and ReduceSum,
# AveragePool, BatchNormalization, ConvTranspose, Resize linear and cubic,
# LogSoftmax, Hardmax, Gather of constant indices, the unary ops of unary_f,
# the other float reductions, 1-D and auto_pad SAME Conv and pools, Conv of
# computed weights, Max, Min, Sum, Mean, PRelu, Mod, broadcasting along two
# runs of axes, ArgMax, ArgMin, LayerNormalization, GlobalMaxPool,
# comparisons, And, Or, Xor, Not, Where, Cast, InstanceNormalization, Clip of
# computed bounds, Trilu, integer arithmetic and comparisons:
# LRN: --target cpu compiles them all and every output is within 1e-5 relative L2 of the fp32 interpreter; Pad,
# Add and AveragePool of int8 data (cases/ops2-i8.gir) are compiled and
# byte for byte the interpreter's.
# (check_fp32.sh's --target cpu run prints the count line)
$HERE/check_fp32.sh $KILN $HERE/cases/ops2.gir $HERE/cases/ops2-input.npy $TMP/fp32 2> $TMP/run.err \
    || { cat $TMP/run.err; exit 1; }
cat $TMP/run.err
grep -q ': 133 of 133 nodes compiled, 0 in the interpreter;' $TMP/run.err
g=$HERE/cases/ops2-i8.gir
c=() r=()
for k in 0 1 2 3 4 5; do c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy); done
$KILN run $g -i $HERE/cases/ops2-i8-input.npy --target cpu "${c[@]}" > /dev/null 2> $TMP/i8.err
cat $TMP/i8.err
grep -q ': 6 of 6 nodes compiled, 0 in the interpreter;' $TMP/i8.err
$KILN run $g -i $HERE/cases/ops2-i8-input.npy "${r[@]}" > /dev/null
for k in 0 1 2 3 4 5; do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "6 int8 outputs (Pad, Add, AveragePool): --target cpu byte for byte the interpreter"
# The same fp32 graph as an x86-64 object (kiln lower),
# linked with libm and run here: every output within 1e-5 relative L2 of
# the interpreter.
. $HERE/aot_lib.sh
cp $HERE/cases/ops2.gir $TMP/ops2nh.gir
$KILN lower $TMP/ops2nh.gir --triple x86_64-linux-gnu -o $TMP/ops2nh.o > /dev/null
aot_link cc $TMP/ops2nh
n=$(aot_outputs $TMP/ops2nh)
o=() r=()
for ((k = 0; k < n; k++)); do o+=(-o $TMP/obj$k.raw) r+=(-o $TMP/oref$k.npy); done
$TMP/ops2nh $HERE/cases/ops2-input.npy "${o[@]}"
$KILN run $TMP/ops2nh.gir -i $HERE/cases/ops2-input.npy "${r[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
    as_npy $TMP/obj$k.raw $TMP/oref$k.npy $TMP/obj$k.npy
    $KILN compare $TMP/obj$k.npy $TMP/oref$k.npy --max-rel-l2 1e-5
done
echo "$n outputs of the x86-64 object within 1e-5 of the interpreter"
