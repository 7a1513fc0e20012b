# RUN: KILN
# Kernels on f16, f64 and unsigned data (cases/dtypes.gir): Cast to and
# from f16 (NaN, infinities, 65519 and 65520, ties, subnormals), f64 Add
# and Max, CumSum of f64 and u16 along an axis given at run time,
# BitShift, IsNaN, IsInf, ReduceLogSumExp of f64, ReduceSum of f16,
# Split, Clip of u16, Max of two scalars, 3-D MaxPool and AveragePool
# (pads, strides, dilations, count_include_pad), a grouped 3-D Conv, a
# reduction over axes 1 and 3, MaxPool with Indices (storage_order 0 and
# 1; a NaN as the first tap inside) and of 75 taps (in loops): all
# compiled and byte for byte the interpreter; an axis out of range sets
# the CumSum kernel's guard and --target cpu fails with the interpreter's
# error.
g=$HERE/cases/dtypes.gir
ins() { echo -i $HERE/cases/dtypes-x.npy -i $HERE/cases/dtypes-d.npy -i $HERE/cases/dtypes-u.npy \
    -i $HERE/cases/dtypes-$1.npy -i $HERE/cases/dtypes-v.npy; }
c=() r=()
for k in $(seq 0 24); do c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy); done
$KILN run $g $(ins ax) --target cpu "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 27 of 27 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $(ins ax) "${r[@]}" > /dev/null
for k in $(seq 0 24); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "25 outputs: --target cpu byte for byte the interpreter"
if $KILN run $g $(ins ax-bad) --target cpu > /dev/null 2> $TMP/cpu.err; then exit 1; fi
if $KILN run $g $(ins ax-bad) > /dev/null 2> $TMP/ref.err; then exit 1; fi
grep -v '^kiln: cpu' $TMP/cpu.err > $TMP/cpu1.err
cat $TMP/cpu1.err
diff $TMP/cpu1.err $TMP/ref.err
test -s $TMP/ref.err
