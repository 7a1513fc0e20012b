# RUN: KILN
# Pad of i32 in edge and reflect modes, Pad whose constant_value is a
# graph input (the kernel reads it when it runs), the Reduce* no-op on
# empty axes (cases/pad-forms.gir): --target cpu compiles all 4 nodes, the
# outputs byte for byte the interpreter's.
g=$HERE/cases/pad-forms.gir
ins="-i $HERE/cases/pad-forms-xi.npy -i $HERE/cases/pad-forms-xf.npy -i $HERE/cases/pad-forms-c.npy"
outs() { local k; for k in 0 1 2 3; do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $ins --target cpu $(outs cpu) > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 4 of 4 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $ins $(outs ref) > /dev/null
for k in 0 1 2 3; do cmp $TMP/cpu$k.npy $TMP/ref$k.npy; done
echo "4 outputs: --target cpu byte for byte the interpreter"
