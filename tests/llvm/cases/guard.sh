# RUN: KILN
# Kernels with a guard (cases/guard.gir): Gather, GatherElements and
# GatherND, ScatterElements (add, max) and ScatterND of computed indices
# and integer Div and Mod, NegativeLogLikelihoodLoss and
# SoftmaxCrossEntropyLoss (a target out of range is guarded alike),
# QuantizeLinear per axis and DequantizeLinear of a computed scale are
# compiled and
# give the interpreter's bytes; an index out of range, a zero divisor or
# a target out of range sets the kernel's flag, the node then runs in the interpreter, and
# --target cpu fails with the interpreter's own error.
g=$HERE/cases/guard.gir
ins() { echo -i $HERE/cases/guard-x.npy -i $HERE/cases/guard-$1.npy -i $HERE/cases/guard-a.npy \
    -i $HERE/cases/guard-$2.npy -i $HERE/cases/guard-$3.npy; }
c=() r=()
for k in $(seq 0 15); do c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy); done
$KILN run $g $(ins i b t) --target cpu "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 15 of 15 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $(ins i b t) "${r[@]}" > /dev/null
for k in $(seq 0 15); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "16 outputs: --target cpu byte for byte the interpreter"
for bad in "i-bad b t" "i b-zero t" "i b t-bad"; do
    if $KILN run $g $(ins $bad) --target cpu > /dev/null 2> $TMP/cpu.err; then exit 1; fi
    if $KILN run $g $(ins $bad) > /dev/null 2> $TMP/ref.err; then exit 1; fi
    grep -v '^kiln: cpu' $TMP/cpu.err > $TMP/cpu1.err
    cat $TMP/cpu1.err
    diff $TMP/cpu1.err $TMP/ref.err
    test -s $TMP/ref.err
done
