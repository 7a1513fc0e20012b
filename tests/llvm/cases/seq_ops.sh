# RUN: KILN
# ConstantOfShape, Range and OneHot of static shapes (cases/seq-ops.gir
# from gen_seq_ops.py; their data inputs are graph inputs): --target cpu
# compiles every node and each output is byte for byte the interpreter's.
g=$HERE/cases/seq-ops.gir
ins=$(for v in idx s si fi sh; do echo "-i $HERE/cases/seq-ops-$v.npy"; done)
outs() { local k; for k in $(seq 0 7); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $ins $(outs ref) > /dev/null
$KILN run $g $ins --target cpu $(outs cpu) > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 8 of 8 nodes compiled, 0 in the interpreter;' $TMP/run.err
for k in $(seq 0 7); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "8 outputs: --target cpu byte for byte the interpreter"
