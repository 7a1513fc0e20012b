# RUN: KILN PYTHON
# A CPU layer the LLVM back end has no lowering for in objects (a Gather of
# indices computed from the data: its kernel's guard, an index out of range
# sent to the interpreter, is not in objects) between two convs cannot go
# into the driver's objects: kiln compile
# exits 2 with one line naming the partition and the node, and leaves no
# output folder.
. $HERE/lib.sh
cat > $TMP/mk.py <<'PY'
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
rng = np.random.default_rng(5)
w1 = numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "w1")
w2 = numpy_helper.from_array(rng.standard_normal((8, 5, 1, 1)).astype(np.float32), "w2")
kk = numpy_helper.from_array(np.array([5], np.int64), "kk")
sh = numpy_helper.from_array(np.array([5], np.int64), "sh")
nodes = [
    helper.make_node("Conv", ["x", "w1"], ["c1"], "conv1", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
    helper.make_node("ReduceMean", ["c1"], ["m"], "mean1", axes=[2, 3], keepdims=0),
    helper.make_node("TopK", ["m", "kk"], ["tv", "ti"], "topk1", axis=1),
    helper.make_node("Reshape", ["ti", "sh"], ["i5"], "reshape1"),
    helper.make_node("Gather", ["c1", "i5"], ["h"], "gather1", axis=1),
    helper.make_node("Conv", ["h", "w2"], ["y"], "conv2", kernel_shape=[1, 1]),
]
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 16, 16])
g = helper.make_graph(nodes, "hm", [x], [y], [w1, w2, kk, sh])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[1])
PY
$PYTHON $TMP/mk.py $TMP/hm.onnx
rc=0
$KILN compile $TMP/hm.onnx --calib-random 1 --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err || rc=$?
cat $TMP/err
[ $rc = 2 ]
[ "$(wc -l < $TMP/err)" = 1 ]
grep -q "driver: CPU partition 0 (from node '.*'): .*node 'gather1': Gather has no lowering in the CPU back end, and an object has no interpreter to run it" $TMP/err
test ! -e $TMP/a
