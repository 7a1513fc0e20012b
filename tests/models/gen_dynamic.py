#!/usr/bin/python3
"""Write ONNX models with dynamic input dims and the shape subgraphs real
exporters put around the network (seeded weights), for the static-shape
tests (docs/inputs.md).

  dyn_torch  as a PyTorch export with dynamic_axes: input "input"
             [batch, 3, height, width].  Conv + Relu, then a nearest Resize
             whose sizes are computed from Shape (Shape -> Gather -> Cast ->
             Mul -> Floor -> Cast -> Unsqueeze -> Concat with Slice(Shape)),
             Conv stride 2 + Relu, MaxPool, then two heads:
               "logits": Shape -> Gather(0) -> Unsqueeze -> Concat(-1) ->
                 Reshape (x.view(x.size(0), -1)) -> Gemm (10 classes; needs
                 height = width = 32);
               "grid": the pooled map plus a YOLO-style column grid
                 (Range(0, Squeeze(Slice(Shape))) -> Cast -> Expand to
                 Shape), times ConstantOfShape(Shape) 0.5, divided by
                 Cast(Size).
  dyn_tf     as a tf2onnx export: NHWC input "input:0" [unk__N, unk__H,
             unk__W, 3] -> Transpose -> Conv + Relu -> Resize with sizes
             Concat(Slice(Shape, 0, 2), Cast(Mul(Cast(Slice(Shape(NHWC),
             1, 3)), 2))) -> Conv stride 2 + Relu -> GlobalAveragePool ->
             Reshape to Concat(Slice(Shape, 0, 1), [-1]) -> MatMul -> Add ->
             Softmax ("probs"); needs only a static shape, any H and W.

Run with /usr/bin/python3 (Debian python3-onnx and python3-numpy):
  gen_dynamic.py --model dyn_torch|dyn_tf --out M.onnx [--seed 1]
                 [--input-out in.npy --input-shape 1,3,32,32]
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """Nodes, initializers and fresh names of one graph."""

    def __init__(self, rng):
        self.rng = rng
        self.nodes = []
        self.inits = []
        self.n = 0

    def name(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def const(self, base, array):
        nm = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), nm))
        return nm

    def op(self, op_type, inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=self.name(op_type), **attrs))
        return out

    def conv(self, x, cin, cout, k, stride):
        w = self.rng.normal(0, np.sqrt(2.0 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32)
        b = self.rng.normal(0, 0.1, cout).astype(np.float32)
        y = self.op("Conv", [x, self.const("w", w), self.const("b", b)], kernel_shape=[k, k],
                    strides=[stride, stride], pads=[k // 2] * 4)
        return self.op("Relu", [y])

    def i64(self, base, values):
        return self.const(base, np.array(values, dtype=np.int64))


def dyn_torch(b):
    x = b.conv("input", 3, 8, 3, 1)
    # F.interpolate(x, scale_factor=2) with dynamic sizes
    s = b.op("Shape", [x])
    hw = []
    for axis in (2, 3):
        d = b.op("Gather", [s, b.const("axis", np.array(axis, dtype=np.int64))], axis=0)
        d = b.op("Cast", [d], to=TensorProto.FLOAT)
        d = b.op("Mul", [d, b.const("two", np.array(2.0, dtype=np.float32))])
        d = b.op("Floor", [d])
        d = b.op("Cast", [d], to=TensorProto.INT64)
        hw.append(b.op("Unsqueeze", [d, b.i64("axes", [0])]))
    nc = b.op("Slice", [s, b.i64("starts", [0]), b.i64("ends", [2]), b.i64("axes", [0])])
    sizes = b.op("Concat", [nc] + hw, axis=0)
    x = b.op("Resize", [x, "", "", sizes], mode="nearest",
             coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    x = b.conv(x, 8, 8, 3, 2)
    p = b.op("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
    # x.view(x.size(0), -1) -> Linear
    s2 = b.op("Shape", [p])
    n = b.op("Gather", [s2, b.const("zero", np.array(0, dtype=np.int64))], axis=0)
    n = b.op("Unsqueeze", [n, b.i64("axes", [0])])
    shp = b.op("Concat", [n, b.i64("minus1", [-1])], axis=0)
    flat = b.op("Reshape", [p, shp])
    w = b.rng.normal(0, 0.02, (10, 8 * 16 * 16)).astype(np.float32)
    logits = b.op("Gemm", [flat, b.const("fc_w", w), b.const("fc_b", np.zeros(10, np.float32))],
                  transB=1)
    # grid offsets from shapes, as YOLO exports compute them
    wdim = b.op("Slice", [s2, b.i64("starts", [3]), b.i64("ends", [4]), b.i64("axes", [0])])
    wdim = b.op("Squeeze", [wdim, b.i64("axes", [0])])
    cols = b.op("Range", [b.const("start", np.array(0, dtype=np.int64)), wdim,
                          b.const("delta", np.array(1, dtype=np.int64))])
    cols = b.op("Cast", [cols], to=TensorProto.FLOAT)
    grid = b.op("Expand", [cols, s2])
    half = b.op("ConstantOfShape", [s2], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.5]))
    y = b.op("Mul", [b.op("Add", [p, grid]), half])
    size = b.op("Cast", [b.op("Size", [p])], to=TensorProto.FLOAT)
    grid_out = b.op("Div", [y, size])
    inp = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 3, "height", "width"])
    outs = [(logits, "logits"), (grid_out, "grid")]
    return [inp], outs


def dyn_tf(b):
    x = b.op("Transpose", ["input:0"], perm=[0, 3, 1, 2])
    x = b.conv(x, 3, 8, 3, 1)
    snhwc = b.op("Shape", ["input:0"])
    hw = b.op("Slice", [snhwc, b.i64("starts", [1]), b.i64("ends", [3])])
    hw = b.op("Cast", [hw], to=TensorProto.FLOAT)
    hw = b.op("Mul", [hw, b.const("scale", np.array([2.0, 2.0], dtype=np.float32))])
    hw = b.op("Cast", [hw], to=TensorProto.INT64)
    nc = b.op("Slice", [b.op("Shape", [x]), b.i64("starts", [0]), b.i64("ends", [2])])
    sizes = b.op("Concat", [nc, hw], axis=0)
    x = b.op("Resize", [x, "", "", sizes], mode="linear",
             coordinate_transformation_mode="half_pixel")
    x = b.conv(x, 8, 16, 3, 2)
    x = b.op("GlobalAveragePool", [x])
    n = b.op("Slice", [b.op("Shape", [x]), b.i64("starts", [0]), b.i64("ends", [1])])
    x = b.op("Reshape", [x, b.op("Concat", [n, b.i64("minus1", [-1])], axis=0)])
    w = b.rng.normal(0, 0.3, (16, 5)).astype(np.float32)
    x = b.op("MatMul", [x, b.const("dense_w", w)])
    x = b.op("Add", [x, b.const("dense_b", b.rng.normal(0, 0.1, 5).astype(np.float32))])
    probs = b.op("Softmax", [x], axis=-1)
    inp = helper.make_tensor_value_info("input:0", TensorProto.FLOAT,
                                        ["unk__N", "unk__H", "unk__W", 3])
    return [inp], [(probs, "probs")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, choices=["dyn_torch", "dyn_tf"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--input-out")
    ap.add_argument("--input-shape", default="1,3,32,32")
    a = ap.parse_args()
    b = Builder(np.random.RandomState(a.seed))
    inputs, outs = {"dyn_torch": dyn_torch, "dyn_tf": dyn_tf}[a.model](b)
    # the graph outputs are named; the last node of each head writes them
    renamed = {v: nm for v, nm in outs}
    for node in b.nodes:
        node.output[:] = [renamed.get(o, o) for o in node.output]
        node.input[:] = [renamed.get(i, i) for i in node.input]
    rank = {"dyn_torch": {"logits": 2, "grid": 4}, "dyn_tf": {"probs": 2}}[a.model]
    outputs = [helper.make_tensor_value_info(nm, TensorProto.FLOAT, ["d%d" % i for i in range(rank[nm])])
               for _, nm in outs]
    graph = helper.make_graph(b.nodes, a.model, inputs, outputs, initializer=b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="kiln-tests")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, a.out)
    if a.input_out:
        dims = [int(d) for d in a.input_shape.split(",")]
        x = np.random.RandomState(a.seed + 100).uniform(0, 1, dims).astype(np.float32)
        np.save(a.input_out, x)


if __name__ == "__main__":
    main()
