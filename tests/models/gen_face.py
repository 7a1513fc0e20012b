#!/usr/bin/python3
"""Write face-api's tiny face detector, with its real weights, as fp32 ONNX.

The weights are those of npm @vladmandic/face-api (MIT): the folder model/ of
the package holds tiny_face_detector_model.bin and its tfjs weights manifest
(tiny_face_detector_model-weights_manifest.json).  Every tensor is stored as
uint8 with a per-tensor scale and min; its fp32 value is q * scale + min
(computed in double, rounded to float32, as TensorFlow.js does).  Tensors lie
in the .bin one after the other in manifest order.

The network (a tiny-YOLOv2 with depthwise-separable convolutions):
  input   1x3xSxS, the image already normalized: (RGB pixel - mean) / 255
  conv0   Conv 3x3 3->16, no padding, bias, LeakyRelu 0.1
          MaxPool 2x2 stride 2
  conv1-5 depthwise Conv 3x3 (pad 1, no bias) + pointwise Conv 1x1 with bias,
          LeakyRelu 0.1; 16->32->64->128->256->512 channels; each followed by
          MaxPool 2x2, stride 2 (conv1-4) or 1 (conv5)
  conv8   Conv 1x1 512->25 with bias, no activation: the graph output "head",
          1 x 25 x S/32 x S/32, channel a*5+k is entry k (x, y, w, h, obj)
          of anchor a (5 anchors, one class, no class entries).
MaxPools follow TensorFlow's 'same' padding: the extra row and column, when
there is one, go on the bottom and right.  There is no batch normalization in
this model (the weight file holds only filters and biases).  The decode
(sigmoid, exp, anchors, NMS) is not in the model.

Run with /usr/bin/python3 (Debian python3-onnx and python3-numpy):
  gen_face.py --model-dir node_modules/@vladmandic/face-api/model --out face.onnx [--size 224]
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TOOL = "gen_face.py"
MANIFEST = "tiny_face_detector_model-weights_manifest.json"
LEAKY_ALPHA = 0.1
# (name, output channels, MaxPool stride after it)
SEPARABLE = [("conv1", 32, 2), ("conv2", 64, 2), ("conv3", 128, 2),
             ("conv4", 256, 2), ("conv5", 512, 1)]
HEAD_CHANNELS = 25


class WeightError(Exception):
    """A weight file that cannot be read as the detector's weights."""


def load_manifest(path):
    """The manifest's weight entries, in order, and the .bin file it names."""
    try:
        with open(path, encoding="utf-8") as f:
            groups = json.load(f)
    except (OSError, ValueError) as e:
        raise WeightError("%s: cannot read: %s" % (path, e)) from e
    if not isinstance(groups, list) or len(groups) != 1:
        raise WeightError("%s: expected one weight group, found %s" %
                          (path, len(groups) if isinstance(groups, list) else "none"))
    group = groups[0]
    paths, entries = group.get("paths"), group.get("weights")
    if not isinstance(paths, list) or len(paths) != 1 or not isinstance(entries, list):
        raise WeightError("%s: group 0 must have one path and a weights list" % path)
    return entries, os.path.join(os.path.dirname(path), paths[0])


def dequantize(manifest, entries, data):
    """name -> float32 array for every entry, reading data from offset 0 in
    manifest order; each entry uint8 with quantization scale and min."""
    out, off = {}, 0
    for i, e in enumerate(entries):
        where = "%s: weights[%d] (%s)" % (manifest, i, e.get("name", "?"))
        q = e.get("quantization") or {}
        shape = e.get("shape")
        if e.get("dtype") != "float32" or q.get("dtype") != "uint8":
            raise WeightError("%s: expected float32 stored as uint8" % where)
        if not isinstance(shape, list) or not all(isinstance(d, int) and d > 0 for d in shape):
            raise WeightError("%s: bad shape %r" % (where, shape))
        if not all(isinstance(q.get(k), (int, float)) for k in ("scale", "min")):
            raise WeightError("%s: quantization without numeric scale and min" % where)
        n = int(np.prod(shape))
        if off + n > len(data):
            raise WeightError("%s: needs bytes %d..%d, the .bin has %d" %
                              (where, off, off + n, len(data)))
        raw = np.frombuffer(data, np.uint8, n, off).astype(np.float64)
        out[e["name"]] = (raw * q["scale"] + q["min"]).astype(np.float32).reshape(shape)
        off += n
    if off != len(data):
        raise WeightError("%s: the manifest covers %d bytes, the .bin has %d" %
                          (manifest, off, len(data)))
    return out


def weight(w, name, shape):
    """w[name] checked to have shape (tfjs layout: HWIO, depthwise HWC1)."""
    if name not in w:
        raise WeightError("weights: %s missing" % name)
    if tuple(w[name].shape) != tuple(shape):
        raise WeightError("weights: %s is %s, expected %s" % (name, list(w[name].shape), list(shape)))
    return w[name]


def same_pool_pads(size, stride):
    """ONNX pads of a 2x2 MaxPool under TensorFlow's 'same' rule."""
    out = -(-size // stride)
    extra = max((out - 1) * stride + 2 - size, 0)
    return [extra // 2, extra // 2, extra - extra // 2, extra - extra // 2], out


class Builder:
    """The ONNX nodes and initializers, added in graph order."""

    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, arr):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, np.float32), name))
        return name

    def node(self, op, inputs, name, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name


def build(w, size):
    """The ONNX model for input size; returns (model, [(output, shape)])."""
    b = Builder()
    f = weight(w, "conv0/filters", (3, 3, 3, 16)).transpose(3, 2, 0, 1)
    cur = b.node("Conv", ["input", b.const("conv0.w", f),
                          b.const("conv0.b", weight(w, "conv0/bias", (16,)))],
                 "conv0", kernel_shape=[3, 3], pads=[0, 0, 0, 0])
    cur = b.node("LeakyRelu", [cur], "conv0_leaky", alpha=LEAKY_ALPHA)
    hw, ch = size - 2, 16
    pads, hw = same_pool_pads(hw, 2)
    cur = b.node("MaxPool", [cur], "pool0", kernel_shape=[2, 2], strides=[2, 2], pads=pads)
    for name, oc, stride in SEPARABLE:
        dw = weight(w, name + "/depthwise_filter", (3, 3, ch, 1)).transpose(2, 3, 0, 1)
        pw = weight(w, name + "/pointwise_filter", (1, 1, ch, oc)).transpose(3, 2, 0, 1)
        cur = b.node("Conv", [cur, b.const(name + "_dw.w", dw)], name + "_dw",
                     kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=ch)
        cur = b.node("Conv", [cur, b.const(name + "_pw.w", pw),
                              b.const(name + "_pw.b", weight(w, name + "/bias", (oc,)))],
                     name + "_pw", kernel_shape=[1, 1])
        cur = b.node("LeakyRelu", [cur], name + "_leaky", alpha=LEAKY_ALPHA)
        pads, hw = same_pool_pads(hw, stride)
        cur = b.node("MaxPool", [cur], name + "_pool", kernel_shape=[2, 2],
                     strides=[stride, stride], pads=pads)
        ch = oc
    f = weight(w, "conv8/filters", (1, 1, ch, HEAD_CHANNELS)).transpose(3, 2, 0, 1)
    b.node("Conv", [cur, b.const("conv8.w", f),
                    b.const("conv8.b", weight(w, "conv8/bias", (HEAD_CHANNELS,)))],
           "head", kernel_shape=[1, 1])
    out_shape = [1, HEAD_CHANNELS, hw, hw]
    graph = helper.make_graph(
        b.nodes, "tiny_face_detector",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("head", TensorProto.FLOAT, out_shape)], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name=TOOL)
    model.ir_version = 7
    return model, [("head", out_shape)]


def save(model, outputs, out):
    """Check the model (checker, inferred output shapes) and write it whole:
    to a temporary name first, renamed when complete."""
    onnx.checker.check_model(model)
    inferred = onnx.shape_inference.infer_shapes(model)
    for vi in inferred.graph.output:
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        if dims != dict(outputs)[vi.name]:
            sys.exit("%s: output %s is %s, expected %s" % (TOOL, vi.name, dims, dict(outputs)[vi.name]))
    tmp = out + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, out)
    for name, shape in outputs:
        print("%s: %s %s" % (out, name, "x".join(str(d) for d in shape)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", required=True,
                    help="face-api's model/ folder (the manifest and the .bin)")
    ap.add_argument("--out", required=True, help="ONNX file to write")
    ap.add_argument("--size", type=int, default=224,
                    help="input height and width, a multiple of 32 (face-api's default: 416)")
    a = ap.parse_args()
    if a.size < 64 or a.size % 32:
        sys.exit("%s: --size must be a multiple of 32, at least 64" % TOOL)
    manifest = os.path.join(a.model_dir, MANIFEST)
    try:
        entries, bin_path = load_manifest(manifest)
        try:
            with open(bin_path, "rb") as fb:
                data = fb.read()
        except OSError as e:
            raise WeightError("%s: cannot read: %s" % (bin_path, e)) from e
        w = dequantize(manifest, entries, data)
        model, outputs = build(w, a.size)
    except WeightError as e:
        sys.exit("%s: %s" % (TOOL, e))
    save(model, outputs, a.out)


if __name__ == "__main__":
    main()
