# RUN: KILN
# ConstantOfShape, Range and OneHot whose output shapes come from input
# data (cases/seq-dyn.gir from gen_seq_dyn.py): --target cpu compiles them,
# the program finding each shape by the shape rule when it runs (a zero
# dim included), every output byte for byte the interpreter's.  The Shape
# of a ConstantOfShape result would run in the interpreter (it reads a
# value of run-time extent): the program is specialized on that extent's
# input 'sh' instead, the others staying sized at run time, and every node
# compiles.  A zero Range delta gives the interpreter's error, exit 2.
g=$HERE/cases/seq-dyn.gir
ins() { local v; for v in sh sz st lim $1 li idx dep; do echo "-i $HERE/cases/seq-dyn-$v.npy"; done; }
outs() { local k; for k in $(seq 0 6); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $(ins dl) $(outs ref) > /dev/null
$KILN run $g $(ins dl) --target cpu $(outs cpu) > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -qx "kiln: cpu: extents depend on the values of input 'sh': compiled for this run's values" $TMP/run.err
grep -q ': 7 of 7 nodes compiled, 0 in the interpreter;' $TMP/run.err
for k in $(seq 0 6); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "7 outputs: --target cpu byte for byte the interpreter"
# (after the note and the line of compile figures)
rc=0
$KILN run $g $(ins dl-zero) --target cpu $(outs bad) > /dev/null 2> $TMP/bad.err || rc=$?
cat $TMP/bad.err
test $rc = 2
test "$(tail -n 1 $TMP/bad.err)" = "kiln: $g: node 'r0': Range: delta must be nonzero and all inputs finite"
test "$(wc -l < $TMP/bad.err)" = 3
