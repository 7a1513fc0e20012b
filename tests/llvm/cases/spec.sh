# RUN: KILN
# Run-time shape specialization (cases/spec.gir): Reshape's shape and
# TopK's K are graph inputs, so --target cpu binds their values, compiles
# the graph made static and says so in one note; with two sets of values
# every output is the interpreter's byte for byte.  The same model as an
# ONNX backend test folder of three data sets (values a, b, a) through
# kiln conformance --target cpu: one compile per distinct set of values,
# the third data set reuses the first's program.  A K computed from
# NonZero's output (cases/spec-nz.gir) is not specialized: --target cpu
# refuses the graph as before.
g=$HERE/cases/spec.gir
ins() { echo -i $HERE/cases/spec-x.npy -i $HERE/cases/spec-s-$1.npy -i $HERE/cases/spec-k-$1.npy; }
outs() { echo -o $TMP/$1-0.$2 -o $TMP/$1-1.$2 -o $TMP/$1-2.$2; }
for v in a b; do
    $KILN run $g $(ins $v) --target cpu $(outs cpu$v npy) > /dev/null 2> $TMP/run.err
    cat $TMP/run.err
    grep -qx "kiln: cpu: shapes depend on the values of input 's', 'k': compiled for this run's values" $TMP/run.err
    grep -q ': 3 of 3 nodes compiled, 0 in the interpreter;' $TMP/run.err
    $KILN run $g $(ins $v) $(outs ref$v npy) > /dev/null
    for k in 0 1 2; do cmp $TMP/cpu$v-$k.npy $TMP/ref$v-$k.npy; done
done
# the two runs' shapes differ (Reshape [6,4] then [4,6], K 2 then 3)
if cmp -s $TMP/cpua-1.npy $TMP/cpub-1.npy; then exit 1; fi
echo "values a and b: 3 outputs each, --target cpu byte for byte the interpreter"

t=$TMP/suite/test_spec
mkdir -p $t
$KILN export $g -o $t/model.onnx
n=0
for v in a b a; do
    d=$t/test_data_set_$n
    mkdir -p $d
    $KILN run $g $(ins $v) --dump-input $d/input_0.pb --dump-input $d/input_1.pb \
        --dump-input $d/input_2.pb -o $d/output_0.pb -o $d/output_1.pb -o $d/output_2.pb > /dev/null
    n=$((n + 1))
done
$KILN conformance $TMP/suite --target cpu -v > $TMP/conf.out
cat $TMP/conf.out
grep -qx "pass        test_spec: specialized on the values of 's', 'k': 2 compiles for 3 data sets" $TMP/conf.out
grep -q ': 3 of 3 nodes of the passing tests compiled, 0 folded into constants, 0 in the interpreter (0 tests whole: shapes that depend on input data; 1 specialized on input values; 0 compiled after folding constants)$' $TMP/conf.out

nz="$HERE/cases/spec-nz.gir -i $HERE/cases/spec-x.npy -i $HERE/cases/spec-m.npy"
if $KILN run $nz --target cpu > /dev/null 2> $TMP/nz.err; then exit 1; fi
cat $TMP/nz.err
grep -qx "kiln: cpu target needs static shapes: value 'v' is f32\[2,3,?\]" $TMP/nz.err
$KILN run $nz > /dev/null
