# RUN: KILN PYTHON
# Dynamic dims left open, and --input-shape options that do not fit: one
# line naming the file and the place, exit status 2.
expect() { # status message command...
    want=$1 msg=$2
    shift 2
    set +e
    err=$("$@" 2>&1 >/dev/null)
    rc=$?
    set -e
    echo "$err"
    test "$rc" = "$want"
    test "$err" = "$msg"
}
m=$MODELS/dyn_torch.onnx
expect 2 "kiln: $m: node 'Conv_4': input 'input' is f32[?,3,?,?]: the shape of this Conv and what follows cannot be known (give --input-shape input=D,D,...)" \
    $KILN compile $m --board zcu104 -o $TMP/c
expect 2 "kiln: $m: node 'Conv_4': input 'input' is f32[?,3,?,?]: the shape of this Conv and what follows cannot be known (give --input-shape input=D,D,...)" \
    $KILN quantize $m --calib-random 1
expect 2 "kiln: $m: --input-shape: the model has no input 'image' (its first input is 'input')" \
    $KILN info $m --input-shape image=1,3,32,32
expect 2 "kiln: $m: --input-shape: input 'input' is f32[?,3,?,?]: dim 1 is fixed at 3, not 4" \
    $KILN info $m --input-shape 1,4,32,32
expect 2 "kiln: $m: --input-shape: input 'input' is f32[?,3,?,?] (rank 4), 3 dims given" \
    $KILN ir $m --input-shape 3,32,32
expect 2 "kiln: $m: --input-shape: input 'input' is given twice" \
    $KILN info $m --input-shape 1,3,32,32 --input-shape input=1,3,32,32
expect 2 "kiln: info: --input-shape '1,3,x,32': expected [NAME=]D,D,... with each D a positive integer" \
    $KILN info $m --input-shape 1,3,x,32
# 64x64 makes the flatten 8192 wide, the Gemm's weights are 2048: the shape
# rule of the Gemm names it
set +e
$KILN run $m --input-shape 1,3,64,64 -i $MODELS/dyn_torch-input.npy 2> $TMP/err
rc=$?
set -e
cat $TMP/err
test $rc = 2
grep -q "Gemm" $TMP/err
# commands that load no model refuse the option
set +e
$KILN compare a.npy b.npy --input-shape 1,2 2> $TMP/err
rc=$?
set -e
test $rc = 2
grep -qx "kiln: compare: unknown option '--input-shape'" $TMP/err
# two inputs, one given: the other is named, with the first node it reaches
$PYTHON - $TMP/two.onnx <<'PY'
import sys
import onnx
from onnx import TensorProto, helper
nodes = [helper.make_node("Relu", ["a"], ["ra"], name="relu_a"),
         helper.make_node("Relu", ["b"], ["rb"], name="relu_b"),
         helper.make_node("Add", ["ra", "rb"], ["y"], name="add")]
g = helper.make_graph(nodes, "two", [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n", 4]),
                                     helper.make_tensor_value_info("b", TensorProto.FLOAT, ["m", 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
PY
expect 2 "kiln: $TMP/two.onnx: node 'relu_b': input 'b' is f32[?,4]: the shape of this Relu and what follows cannot be known (give --input-shape b=D,D,...)" \
    $KILN info $TMP/two.onnx --input-shape a=1,4
$KILN info $TMP/two.onnx --input-shape b=1,4 --input-shape a=1,4 | grep -q 'Add .*f32\[1,4\]'
