# RUN: KILN
# TIMEOUT: 120
# FIXTURES_SETUP: llvm_aot_x86
# kiln lower for x86-64: YOLOv3-tiny-small in fp32 and in the int8 form
# (kiln quantize --calib-random 2) as objects, linked with aot_harness.c
# and run here.  int8: the outputs byte for byte those of --target int8;
# fp32: within 1e-5 relative L2 of the interpreter on the same optimized
# graph (kiln opt -O, the passes kiln lower runs).  aot_aarch64 reads the
# outputs and q.gir left in TMP.  Then the resdw model and cases/chain.gir,
# whose elementwise chains are fused into the Conv before them as --target
# cpu fuses them (chain.c): a kernel per node less each fused node, and
# every output bit for bit the interpreter's.
. $HERE/aot_lib.sh
m=$MODELS/yolov3-tiny-small.onnx
in=$MODELS/yolov3-tiny-small-input.npy
$KILN quantize $m --calib-random 2 -o $TMP/q.gir > /dev/null 2>&1
$KILN lower $m --triple x86_64-linux-gnu -o $TMP/f32.o
# the int8 object for AVX2 (8 lanes) where this CPU has it, the fp32 one
# for the generic x86-64 (SSE2, 4 lanes)
cpu=generic
if grep -qw avx2 /proc/cpuinfo; then cpu=x86-64-v3; fi
$KILN lower $TMP/q.gir --triple x86_64-linux-gnu --cpu $cpu -o $TMP/q8.o
aot_link cc $TMP/f32
aot_link cc $TMP/q8
n=$(aot_outputs $TMP/f32)
test "$n" = 2
f=() q=() r=() i=()
for ((k = 0; k < n; k++)); do
    f+=(-o $TMP/f32_$k.raw) q+=(-o $TMP/q8_$k.raw) r+=(-o $TMP/ref$k.npy) i+=(-o $TMP/int8_$k.npy)
done
$TMP/f32 $in "${f[@]}"
$TMP/q8 $in "${q[@]}"
$KILN opt $m -O > $TMP/opt.gir
$KILN run $TMP/opt.gir -i $in "${r[@]}" > /dev/null
$KILN run $TMP/q.gir -i $in --target int8 "${i[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
    as_npy $TMP/q8_$k.raw $TMP/int8_$k.npy $TMP/q8_$k.npy
    cmp $TMP/q8_$k.npy $TMP/int8_$k.npy
    echo "int8 output $k: byte for byte --target int8"
    as_npy $TMP/f32_$k.raw $TMP/ref$k.npy $TMP/f32_$k.npy
    $KILN compare $TMP/f32_$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
done
# fused chains: the kernels of the object are the nodes less the fused ones
$KILN opt $HERE/cases/chain.gir -O > $TMP/chain.gir
$KILN opt $MODELS/resdw.onnx -O > $TMP/resdw.gir
for m in resdw chain; do
    in=$MODELS/resdw-input.npy
    if [ $m = chain ]; then in=$HERE/cases/chain-input.npy; fi
    $KILN lower $TMP/$m.gir --triple x86_64-linux-gnu -o $TMP/$m.o 2> /dev/null
    $KILN run $TMP/$m.gir -i $in --target cpu -o $TMP/dummy.npy 2> $TMP/$m.err > /dev/null
    nodes=$(sed -n 's/.*: \([0-9]*\) of [0-9]* nodes compiled.*/\1/p' $TMP/$m.err)
    fused=$(sed -n 's/^kiln: cpu: \([0-9]*\) elementwise nodes fused.*/\1/p' $TMP/$m.err)
    kernels=$(nm $TMP/$m.o | grep -c ' kiln_node_[0-9]*$')
    echo "$m: $nodes nodes, $fused fused, $kernels kernels in the object"
    test "$fused" -gt 0
    test "$kernels" = $((nodes - fused))
    aot_link cc $TMP/$m
    n=$(aot_outputs $TMP/$m)
    a=() r=()
    for ((k = 0; k < n; k++)); do
        a+=(-o $TMP/${m}_$k.raw) r+=(-o $TMP/${m}_ref$k.npy)
    done
    $TMP/$m $in "${a[@]}"
    $KILN run $TMP/$m.gir -i $in "${r[@]}" > /dev/null
    for ((k = 0; k < n; k++)); do
        as_npy $TMP/${m}_$k.raw $TMP/${m}_ref$k.npy $TMP/${m}_$k.npy
        cmp $TMP/${m}_$k.npy $TMP/${m}_ref$k.npy
    done
    echo "$m: $n outputs bit for bit the interpreter"
done
