# RUN: KILN
# Elementwise chains fused into the fp32 Conv before them (cases/chain.gir
# from gen_chain.py, after kiln opt -O as kiln run prepares it): kiln run
# --target cpu fuses the 16 nodes the rules allow (a chain of 9 cut at 8,
# an Add fused into the later of its two Convs, a Mul before a graph
# output, a depthwise Conv's Mul, Add, HardSwish, Mul and HardSigmoid,
# a blocked Conv's Add but not the HardSwish after it)
# and leaves the others, and with --exact (no fused multiply-add) every
# output is bit for bit the fp32 interpreter's.
$KILN opt $HERE/cases/chain.gir -O > $TMP/opt.gir
c=() r=()
for k in 0 1 2 3 4 5 6 7; do
    c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy)
done
$KILN run $TMP/opt.gir -i $HERE/cases/chain-input.npy --target cpu --exact "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 29 of 29 nodes compiled, 0 in the interpreter;' $TMP/run.err
grep -q '^kiln: cpu: 16 elementwise nodes fused into the Conv before them$' $TMP/run.err
$KILN run $TMP/opt.gir -i $HERE/cases/chain-input.npy "${r[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "8 outputs: --target cpu --exact bit for bit the interpreter"
