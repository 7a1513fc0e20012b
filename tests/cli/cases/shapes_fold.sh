# RUN: KILN PYTHON
# TIMEOUT: 60
# SKIP_RETURN_CODE: 77
# Static shapes out of dynamic exports (docs/inputs.md): with --input-shape
# the shape subgraphs of dyn_torch (PyTorch dynamic_axes) and dyn_tf (tf2onnx
# NHWC) fold away, so kiln info and kiln ir show no shape op, every shape is
# static, and kiln run matches onnxruntime within 1e-5 relative L2.
SHAPE_OPS='Shape|Size|Gather|Slice|Concat|Cast|Unsqueeze|Squeeze|Range|ConstantOfShape|Expand|Floor'
check() { # model input-shape nodes-before nodes-after
    m=$MODELS/$1.onnx
    $KILN info $m > $TMP/$1-dyn.txt
    $KILN info $m --input-shape $2 > $TMP/$1.txt
    cat $TMP/$1.txt
    grep -q "^total: $3 nodes" $TMP/$1-dyn.txt
    grep -q "^total: $4 nodes" $TMP/$1.txt
    # the op column holds no shape op, the shape column no unknown dim
    test -z "$(awk 'NR > 1 && $1 != "total:" { print $3 }' $TMP/$1.txt | grep -Ex "$SHAPE_OPS")"
    test -z "$(awk 'NR > 1 && $1 != "total:" { print $4 }' $TMP/$1.txt | grep -F '?')"
    $KILN ir $m --input-shape $2 --elide-data > $TMP/$1.gir
    test -z "$(grep -Ew "$SHAPE_OPS" $TMP/$1.gir | grep -v '^#')"
}
check dyn_torch input=1,3,32,32 38 11
check dyn_tf 1,40,48,3 22 11
# The folded graph keeps the network: convolutions, the Resize at its
# computed sizes, the flatten Reshape at its static shape.
grep -q 'Resize .*f32\[1,8,64,64\]' $TMP/dyn_torch.txt
grep -q 'Reshape .*f32\[1,2048\]' $TMP/dyn_torch.txt

DEPS=$(cd "$DARKNET_CFG/../../../../.." 2>/dev/null && pwd || echo /opt/kiln-deps)
ORT=$DEPS/node_modules/onnxruntime-node
if [ ! -d "$ORT" ]; then
    echo "SKIP onnxruntime part: onnxruntime-node not found at $ORT (scripts/install-deps.sh)"
    exit 77
fi
$KILN run $MODELS/dyn_torch.onnx --input-shape input=1,3,32,32 -i $MODELS/dyn_torch-input.npy \
    -o $TMP/k0.npy -o $TMP/k1.npy
node $SRC/tests/ort/ort_run.js $ORT $MODELS/dyn_torch.onnx $MODELS/dyn_torch-input.npy -- \
    $TMP/o0.npy $TMP/o1.npy
$KILN compare $TMP/k0.npy $TMP/o0.npy --max-rel-l2 1e-5
$KILN compare $TMP/k1.npy $TMP/o1.npy --max-rel-l2 1e-5
# dyn_tf without --input-shape: kiln run takes the dims of the tensor given
$KILN run $MODELS/dyn_tf.onnx -i $MODELS/dyn_tf-input.npy -o $TMP/kf.npy
node $SRC/tests/ort/ort_run.js $ORT $MODELS/dyn_tf.onnx $MODELS/dyn_tf-input.npy -- $TMP/of.npy
$KILN compare $TMP/kf.npy $TMP/of.npy --max-rel-l2 1e-5
