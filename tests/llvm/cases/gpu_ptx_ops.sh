# RUN: KILN PYTHON
# Every op the LLVM back end lowers, but Sigmoid, Tanh (libm: refused for
# the gpu target, gpu_lower_bad) and Softmax (no lowering): cases/ops.gir
# without them, as PTX with its plan (ptx_check).
. $HERE/gpu_lib.sh
sed -e '/= Sigmoid(/d' -e '/= Tanh(/d' -e 's/Add(%s, %t)/Add(%r, %l)/' -e '/= Softmax(/d' \
    -e 's/^output %sm$/output %fl/' $HERE/cases/ops.gir > $TMP/ops.gir
$KILN lower $TMP/ops.gir --triple nvptx64-nvidia-cuda -o $TMP/ops.ptx
ptx_check $TMP/ops "$(grep -c '^%' $TMP/ops.gir)"
# each kind of kernel is there
for op in Conv Relu LeakyRelu Add Mul Div Sub Clip MaxPool Concat Resize Transpose Slice Flatten GlobalAveragePool; do
    grep -q "\"op\":	\"$op\"" $TMP/ops.json
done
