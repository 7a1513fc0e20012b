# RUN: KILN
# ONNX's quantized ops and the ops lowered with them (cases/qonnx.gir from
# gen_qonnx.py): DynamicQuantizeLinear, ConvInteger (groups, stride,
# dilation, uneven pads, per-channel u8 zero points; i8 without zero
# points), QLinearConv (per-channel scales and zero points, bias),
# MatMulInteger, QLinearMatMul (computed y_scale), MeanVarianceNormalization,
# LRN, ConvTranspose 1-D and 3-D, ReverseSequence of computed lengths,
# GridSample in three modes and three paddings, Einsum, MaxUnpool, Det,
# RoiAlign:
# --target cpu compiles every node and every output is byte for byte the
# interpreter's; a sequence length out of range and a y_scale of 0 set the
# kernels' guards and --target cpu fails with the interpreter's own error
# (on cases/qonnx-guard.gir, those two nodes alone).
g=$HERE/cases/qonnx.gir
ins() { echo -i $HERE/cases/qonnx-x.npy -i $HERE/cases/qonnx-$1.npy -i $HERE/cases/qonnx-$2.npy; }
c=() r=()
for k in $(seq 0 24); do c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy); done
$KILN run $g $(ins l ys) --target cpu "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 30 of 30 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $(ins l ys) "${r[@]}" > /dev/null
for k in $(seq 0 24); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "25 outputs: --target cpu byte for byte the interpreter"
g=$HERE/cases/qonnx-guard.gir
for bad in "l-bad ys" "l ys-bad"; do
    if $KILN run $g $(ins $bad) --target cpu > /dev/null 2> $TMP/cpu.err; then exit 1; fi
    if $KILN run $g $(ins $bad) > /dev/null 2> $TMP/ref.err; then exit 1; fi
    grep -v '^kiln: cpu' $TMP/cpu.err > $TMP/cpu1.err
    cat $TMP/cpu1.err
    diff $TMP/cpu1.err $TMP/ref.err
    test -s $TMP/ref.err
done
