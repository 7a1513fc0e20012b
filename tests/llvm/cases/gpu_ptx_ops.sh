# RUN: KILN PYTHON
# Every op the LLVM back end lowers, but Sigmoid, Tanh (libm: they need
# libdevice, below) and Softmax (expf too): cases/ops.gir without them,
# as PTX with its plan (ptx_check), and the plan run on this CPU (--target
# gpu-host) against the interpreter.  KILN_LIBDEVICE= keeps libdevice out.
. $HERE/gpu_lib.sh
sed -e '/= Sigmoid(/d' -e '/= Tanh(/d' -e 's/Add(%s, %t)/Add(%r, %l)/' -e '/= Softmax(/d' \
    -e 's/^output %sm$/output %fl/' $HERE/cases/ops.gir > $TMP/ops.gir
KILN_LIBDEVICE= $KILN lower $TMP/ops.gir --triple nvptx64-nvidia-cuda -o $TMP/ops.ptx
ptx_check $TMP/ops "$(grep -c '^%' $TMP/ops.gir)"
# each kind of kernel is there
for op in Conv Relu LeakyRelu Add Mul Div Sub Clip MaxPool Concat Resize Transpose Slice Flatten GlobalAveragePool; do
    grep -q "\"op\":	\"$op\"" $TMP/ops.json
done
# the plan run on this CPU (--target gpu-host): bit for bit the interpreter
n=$(grep -c '^output ' $TMP/ops.gir)
h=() r=()
for ((k = 0; k < n; k++)); do h+=(-o $TMP/host$k.npy) r+=(-o $TMP/ref$k.npy); done
$KILN run $TMP/ops.gir -i $HERE/cases/ops-input.npy --target gpu-host "${h[@]}" > /dev/null
$KILN run $TMP/ops.gir -i $HERE/cases/ops-input.npy "${r[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
    $KILN compare $TMP/host$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
done
# With the CUDA toolkit's libdevice (where it is installed; not on CI):
# Sigmoid and Tanh too, expf and tanhf taken from libdevice and inlined
# (no call left in the PTX); the plan run on this CPU uses libm's.
lib=${KILN_LIBDEVICE-${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc}
if [ -z "$lib" ] || [ ! -r "$lib" ]; then
    echo "no libdevice: Sigmoid and Tanh not lowered for NVPTX"
    exit 0
fi
sed -e '/= Softmax(/d' -e 's/^output %sm$/output %fl/' $HERE/cases/ops.gir > $TMP/lops.gir
$KILN lower $TMP/lops.gir --triple nvptx64-nvidia-cuda -o $TMP/lops.ptx
ptx_check $TMP/lops "$(grep -c '^%' $TMP/lops.gir)"
grep -q '"op":	"Sigmoid"' $TMP/lops.json
grep -q '"op":	"Tanh"' $TMP/lops.json
test "$(grep -c 'call\|\.extern' $TMP/lops.ptx || true)" = 0
$KILN run $TMP/lops.gir -i $HERE/cases/ops-input.npy --target gpu-host "${h[@]}" > /dev/null
$KILN run $TMP/lops.gir -i $HERE/cases/ops-input.npy "${r[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
    $KILN compare $TMP/host$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
done
