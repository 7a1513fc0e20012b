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
# The elementwise chains of cases/chain.gir (Sigmoid and Tanh as Relu, no
# libdevice) fused into the Conv before them as --target cpu fuses them:
# 16 nodes without a kernel, and the plan run on this CPU bit for bit the
# interpreter.
sed -e 's/= Sigmoid(/= Relu(/' -e 's/= Tanh(/= Relu(/' $HERE/cases/chain.gir > $TMP/chain.gir
KILN_LIBDEVICE= $KILN lower $TMP/chain.gir --triple nvptx64-nvidia-cuda -o $TMP/chain.ptx \
    2> $TMP/chain.err
cat $TMP/chain.err
grep -q ': 29 nodes (16 fused into a Conv), ' $TMP/chain.err
ptx_check $TMP/chain 29
ch=() cr=()
for k in 0 1 2 3 4 5 6 7; do ch+=(-o $TMP/chain$k.npy) cr+=(-o $TMP/cref$k.npy); done
KILN_LIBDEVICE= $KILN run $TMP/chain.gir -i $HERE/cases/chain-input.npy --target gpu-host \
    "${ch[@]}" > /dev/null
$KILN run $TMP/chain.gir -i $HERE/cases/chain-input.npy "${cr[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do cmp $TMP/chain$k.npy $TMP/cref$k.npy; done
echo "chain: 8 outputs of the plan run here bit for bit the interpreter"
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
# cases/chain.gir as it is: its Sigmoid and Tanh fused too
$KILN lower $HERE/cases/chain.gir --triple nvptx64-nvidia-cuda -o $TMP/lchain.ptx 2> $TMP/lchain.err
grep -q ': 29 nodes (16 fused into a Conv), ' $TMP/lchain.err
ptx_check $TMP/lchain 29
test "$(grep -c 'call\|\.extern' $TMP/lchain.ptx || true)" = 0
$KILN run $HERE/cases/chain.gir -i $HERE/cases/chain-input.npy --target gpu-host "${ch[@]}" > /dev/null
$KILN run $HERE/cases/chain.gir -i $HERE/cases/chain-input.npy "${cr[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do cmp $TMP/chain$k.npy $TMP/cref$k.npy; done
echo "chain with libdevice: 8 outputs of the plan run here bit for bit the interpreter"
