# RUN: KILN
# TIMEOUT: 120
# FIXTURES_REQUIRED: llvm_aot_x86
# kiln lower --triple aarch64-linux-gnu --cpu cortex-a53: the models of
# aot_x86 as aarch64 objects, linked with aarch64-linux-gnu-gcc and run
# under qemu-aarch64.  int8: byte for byte the x86-64 object's outputs;
# fp32: within 1e-5 relative L2 of them.  Skipped (passes, saying so)
# when the cross compiler or qemu-aarch64 is absent.
. $HERE/aot_lib.sh
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed (scripts/install-deps.sh)"
    exit 0
fi
X=$WORK/aot_x86
m=$MODELS/yolov3-tiny-small.onnx
in=$MODELS/yolov3-tiny-small-input.npy
$KILN lower $m --triple aarch64-linux-gnu --cpu cortex-a53 -o $TMP/f32.o
$KILN lower $X/q.gir --triple aarch64-linux-gnu --cpu cortex-a53 -o $TMP/q8.o
file $TMP/q8.o | grep -q 'ARM aarch64'
aot_link aarch64-linux-gnu-gcc $TMP/f32
aot_link aarch64-linux-gnu-gcc $TMP/q8
n=$(aot_outputs $TMP/f32)
f=() q=()
for ((k = 0; k < n; k++)); do
    f+=(-o $TMP/f32_$k.raw) q+=(-o $TMP/q8_$k.raw)
done
qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/f32 $in "${f[@]}"
qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/q8 $in "${q[@]}"
for ((k = 0; k < n; k++)); do
    cmp $TMP/q8_$k.raw $X/q8_$k.raw
    echo "int8 output $k: byte for byte the x86-64 object's"
    as_npy $TMP/f32_$k.raw $X/ref$k.npy $TMP/f32_$k.npy
    $KILN compare $TMP/f32_$k.npy $X/f32_$k.npy --max-rel-l2 1e-5
done
