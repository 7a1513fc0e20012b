# RUN: KILN PYTHON
# kiln bench of a model with two inputs (-i once per input, in order): an
# ONNX NonMaxSuppression over 2 batches x 7 classes x 600 boxes, boxes and
# scores as inputs.  --target cpu keeps the boxes onnxruntime keeps, in its
# order; then ref, cpu and onnxruntime side by side on those same inputs,
# each one measured.
DEPS=$(cd "$DARKNET_CFG/../../../../.." 2>/dev/null && pwd || echo /opt/kiln-deps)
ORT=$DEPS/node_modules/onnxruntime-node
if [ ! -d "$ORT" ]; then
    echo "SKIP: onnxruntime-node not found at $ORT (scripts/install-deps.sh)"
    exit 77
fi
$PYTHON - $TMP <<'PY'
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper
t = sys.argv[1]
rng = np.random.default_rng(7)
xy = rng.uniform(0, 100, (2, 600, 2)).astype(np.float32)
wh = rng.uniform(2, 30, (2, 600, 2)).astype(np.float32)
np.save(f"{t}/boxes.npy", np.concatenate([xy, xy + wh], axis=2))
np.save(f"{t}/scores.npy", rng.uniform(0, 1, (2, 7, 600)).astype(np.float32))
consts = [helper.make_tensor("maxo", TensorProto.INT64, [1], [400]),
          helper.make_tensor("iou", TensorProto.FLOAT, [1], [0.3]),
          helper.make_tensor("thr", TensorProto.FLOAT, [1], [0.05])]
node = helper.make_node("NonMaxSuppression", ["boxes", "scores", "maxo", "iou", "thr"], ["sel"])
g = helper.make_graph([node], "nms",
                      [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [2, 600, 4]),
                       helper.make_tensor_value_info("scores", TensorProto.FLOAT, [2, 7, 600])],
                      [helper.make_tensor_value_info("sel", TensorProto.INT64, [None, 3])], consts)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
onnx.checker.check_model(m)
onnx.save(m, f"{t}/nms.onnx")
PY
$KILN run $TMP/nms.onnx -i $TMP/boxes.npy -i $TMP/scores.npy --target cpu -o $TMP/kiln.npy
node $SRC/tests/ort/ort_run.js $ORT $TMP/nms.onnx $TMP/boxes.npy $TMP/scores.npy -- $TMP/ort.npy
$KILN bench $TMP/nms.onnx -i $TMP/boxes.npy -i $TMP/scores.npy --compare ref,cpu,onnxruntime \
    --warmup 1 --iters 3 --ort $ORT --report $TMP/report
$PYTHON - $TMP <<'PY'
import json, sys
import numpy as np
t = sys.argv[1]
k, o = np.load(f"{t}/kiln.npy"), np.load(f"{t}/ort.npy")
assert k.shape == o.shape and k.shape[0] > 1000 and np.array_equal(k, o), (k.shape, o.shape)
rep = json.load(open(f"{t}/report.json"))
assert rep["input"] == f"{t}/boxes.npy, {t}/scores.npy", rep["input"]
res = rep["results"]
assert sorted(r["target"] for r in res) == ["cpu", "onnxruntime", "ref"], res
for r in res:
    assert "error" not in r and r["mean_ms"] > 0 and "speed_vs_onnxruntime" in r, r
print(f"{k.shape[0]} boxes kept as onnxruntime keeps them; three targets measured")
PY
