# RUN: KILN
# Specialization on the inputs that decide a Range's extent
# (cases/spec-range.gir, a Hann window whose size n is the input, as the
# ONNX window functions' expansions compute it): compiled as given, the
# nodes reading the Range's output of run-time extent would run in the
# interpreter, so --target cpu binds n, folds the Range's limit, and
# compiles every node with static shapes (the Add computing the limit
# folded away: 8 of 8 nodes), saying so in one note; for two
# sizes the output is the interpreter's byte for byte.  The same model as
# a backend test folder of two data sets through kiln conformance --target
# cpu: 2 compiles, every node compiled.  kiln bench --target cpu specializes too.
g=$HERE/cases/spec-range.gir
for v in a b; do
    $KILN run $g -i $HERE/cases/spec-range-n-$v.npy --target cpu -o $TMP/cpu$v.npy > /dev/null 2> $TMP/run.err
    cat $TMP/run.err
    grep -qx "kiln: cpu: extents depend on the values of input 'n': compiled for this run's values" $TMP/run.err
    grep -q ': 8 of 8 nodes compiled, 0 in the interpreter;' $TMP/run.err
    $KILN run $g -i $HERE/cases/spec-range-n-$v.npy -o $TMP/ref$v.npy > /dev/null
    cmp $TMP/cpu$v.npy $TMP/ref$v.npy
done
# 8 and 13 points
test "$(stat -c %s $TMP/cpub.npy)" = $(($(stat -c %s $TMP/cpua.npy) + 20))
echo "n 7 and 12: --target cpu byte for byte the interpreter"

t=$TMP/suite/test_spec_range
mkdir -p $t
$KILN export $g -o $t/model.onnx
n=0
for v in a b; do
    d=$t/test_data_set_$n
    mkdir -p $d
    $KILN run $g -i $HERE/cases/spec-range-n-$v.npy --dump-input $d/input_0.pb -o $d/output_0.pb > /dev/null
    n=$((n + 1))
done
$KILN conformance $TMP/suite --target cpu -v > $TMP/conf.out
cat $TMP/conf.out
grep -qx "pass        test_spec_range: specialized on the values of 'n': 2 compiles for 2 data sets" $TMP/conf.out
grep -q ': 8 of 9 nodes of the passing tests compiled, 1 folded into constants, 0 in the interpreter (0 tests whole: shapes that depend on input data; 1 specialized on input values; 0 compiled after folding constants)$' $TMP/conf.out

# kiln bench --target cpu specializes as run does: the window (extents)
# and cases/spec.gir (a Reshape's shape and TopK's K as inputs, which has
# no program without specialization) are timed as compiled code.
$KILN bench $g -i $HERE/cases/spec-range-n-a.npy --target cpu --iters 2 --warmup 1 > $TMP/bench.out
cat $TMP/bench.out
grep -Eq '^cpu +[0-9]+\.[0-9]+ ' $TMP/bench.out
s=$HERE/cases/spec
$KILN bench $s.gir -i $s-x.npy -i $s-s-a.npy -i $s-k-a.npy --target cpu --iters 2 --warmup 1 > $TMP/bench2.out
cat $TMP/bench2.out
grep -Eq '^cpu +[0-9]+\.[0-9]+ ' $TMP/bench2.out
