#!/usr/bin/python3
"""Write YOLOv3-tiny as ONNX (opset 13) with seeded weights.

The architecture is Darknet's yolov3-tiny.cfg layer for layer: 13 conv (BN +
LeakyRelu 0.1, except the two linear heads with bias), 6 MaxPool (the last
2x2 stride 1, padded on the bottom/right so 13x13 stays 13x13), 1 Resize
(nearest x2), 2 routes (one a plain reuse, one a Concat).  Outputs are the two
head convolutions, 1 x 3*(classes+5) x S/32 x S/32 and x S/16 x S/16.

Weights come from numpy RandomState(seed): He-scaled convolutions, and BN
statistics measured on a seeded image-like input so every BN output is about
N(beta, gamma^2): activations stay O(1) through the whole network.

Run with /usr/bin/python3 (Debian python3-onnx and python3-numpy):
  gen_yolov3_tiny.py --out yolov3-tiny.onnx [--size 416] [--channel-scale 1]
                     [--classes 80] [--seed 1] [--input-out input.npy]
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BN_EPS = 1e-5

# (kind, arguments) in Darknet layer order; conv: (filters, size, bn);
# maxpool: stride; route: layer indices (absolute).
LAYERS = [
    ("conv", 16, 3, True), ("maxpool", 2),
    ("conv", 32, 3, True), ("maxpool", 2),
    ("conv", 64, 3, True), ("maxpool", 2),
    ("conv", 128, 3, True), ("maxpool", 2),
    ("conv", 256, 3, True), ("maxpool", 2),           # 8: conv, kept for route 20
    ("conv", 512, 3, True), ("maxpool", 1),           # 11: 2x2 stride 1
    ("conv", 1024, 3, True),
    ("conv", 256, 1, True),                           # 13: kept for route 17
    ("conv", 512, 3, True),
    ("head",),                                        # 15: output 1
    ("yolo",),
    ("route", 13),
    ("conv", 128, 1, True),
    ("upsample",),
    ("route", 19, 8),
    ("conv", 256, 3, True),
    ("head",),                                        # 22: output 2
    ("yolo",),
]


def image_like(rng, channels, size):
    """A smooth, image-like input in [0, 1]: a few random gradients and blobs
    plus a little noise, as Darknet feeds images normalized to [0, 1]."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float64) / size
    img = np.empty((1, channels, size, size), np.float64)
    for c in range(channels):
        v = rng.uniform(0.2, 0.8) + 0.2 * rng.uniform(-1, 1) * x + 0.2 * rng.uniform(-1, 1) * y
        for _ in range(6):
            cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.05, 0.3)
            v += rng.uniform(-0.4, 0.4) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (r * r))
        v += rng.normal(0, 0.03, v.shape)
        img[0, c] = v
    return np.clip(img, 0, 1).astype(np.float32)


def conv2d(x, w, pad):
    """NCHW convolution, stride 1, symmetric padding, in float64."""
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - k + 1, wd + 2 * pad - k + 1
    s = xp.strides
    cols = np.lib.stride_tricks.as_strided(
        xp, (n, c, k, k, oh, ow), (s[0], s[1], s[2], s[3], s[2], s[3]))
    return np.tensordot(w.astype(np.float64), cols, axes=([1, 2, 3], [1, 2, 3])).transpose(
        1, 0, 2, 3)


def maxpool(x, stride):
    """2x2 max pool: stride 2, or stride 1 padded on the bottom/right."""
    if stride == 1:
        x = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf)
    h, w = (x.shape[2] - 2) // stride + 1, (x.shape[3] - 2) // stride + 1
    out = np.full(x.shape[:2] + (h, w), -np.inf)
    for dy in range(2):
        for dx in range(2):
            out = np.maximum(out, x[:, :, dy:dy + stride * h:stride, dx:dx + stride * w:stride])
    return out


def round_sig(a, digits=4):
    """Round to a few significant digits so tiny BLAS differences between
    machines do not change the written file."""
    a = np.asarray(a, np.float64)
    mag = np.where(a == 0, 1.0, 10.0 ** (np.floor(np.log10(np.abs(a) + 1e-300)) - digits + 1))
    return (np.round(a / mag) * mag).astype(np.float32)


def build(size, channel_scale, classes, seed, x):
    rng = np.random.RandomState(seed)
    head_c = 3 * (classes + 5)
    inits, nodes, outputs = [], [], []
    names = {}          # layer index -> ONNX value name
    acts = {}           # layer index -> numpy activation (calibration)
    cur, cur_a, cur_c = "input", x.astype(np.float64), x.shape[1]

    def const(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    for i, layer in enumerate(LAYERS):
        kind = layer[0]
        if kind in ("conv", "head"):
            if kind == "conv":
                filters, k, bn = max(1, layer[1] // channel_scale), layer[2], True
            else:
                filters, k, bn = head_c, 1, False
            fan_in = cur_c * k * k
            w = (rng.standard_normal((filters, cur_c, k, k)) * np.sqrt(2.0 / fan_in)).astype(
                np.float32)
            name = "conv%d" % i
            y = conv2d(cur_a, w, k // 2)
            if bn:
                nodes.append(helper.make_node(
                    "Conv", [cur, const(name + "_w", w)], [name], name=name,
                    kernel_shape=[k, k], strides=[1, 1], pads=[k // 2] * 4))
                gamma = rng.uniform(0.8, 1.2, filters).astype(np.float32)
                beta = rng.uniform(-0.1, 0.1, filters).astype(np.float32)
                mean = round_sig(y.mean(axis=(0, 2, 3)))
                var = round_sig(y.var(axis=(0, 2, 3)) + 1e-3)
                bname = name + "_bn"
                nodes.append(helper.make_node(
                    "BatchNormalization",
                    [name, const(bname + "_scale", gamma), const(bname + "_bias", beta),
                     const(bname + "_mean", mean), const(bname + "_var", var)],
                    [bname], name=bname, epsilon=BN_EPS))
                y = (y - mean[None, :, None, None]) / np.sqrt(
                    var[None, :, None, None] + BN_EPS) * gamma[None, :, None, None] + \
                    beta[None, :, None, None]
                lname = name + "_leaky"
                nodes.append(helper.make_node("LeakyRelu", [bname], [lname], name=lname,
                                              alpha=0.1))
                y = np.where(y > 0, y, 0.1 * y)
                cur = lname
            else:
                b = rng.uniform(-0.1, 0.1, filters).astype(np.float32)
                nodes.append(helper.make_node(
                    "Conv", [cur, const(name + "_w", w), const(name + "_b", b)], [name],
                    name=name, kernel_shape=[k, k], strides=[1, 1], pads=[k // 2] * 4))
                y = y + b[None, :, None, None]
                cur = name
                outputs.append((name, y.shape))
            cur_a, cur_c = y, filters
        elif kind == "maxpool":
            stride = layer[1]
            name = "maxpool%d" % i
            pads = [0, 0, 0, 0] if stride == 2 else [0, 0, 1, 1]
            nodes.append(helper.make_node("MaxPool", [cur], [name], name=name,
                                          kernel_shape=[2, 2], strides=[stride, stride],
                                          pads=pads))
            cur, cur_a = name, maxpool(cur_a, stride)
        elif kind == "yolo":
            pass  # decoding is left to the host: outputs are the head convs
        elif kind == "upsample":
            name = "upsample%d" % i
            nodes.append(helper.make_node(
                "Resize", [cur, "", const(name + "_scales", np.array([1, 1, 2, 2], np.float32))],
                [name], name=name, mode="nearest", coordinate_transformation_mode="asymmetric",
                nearest_mode="floor"))
            cur, cur_a = name, cur_a.repeat(2, axis=2).repeat(2, axis=3)
        elif kind == "route":
            srcs = layer[1:]
            if len(srcs) == 1:
                cur, cur_a = names[srcs[0]], acts[srcs[0]]
            else:
                name = "route%d" % i
                nodes.append(helper.make_node("Concat", [names[s] for s in srcs], [name],
                                              name=name, axis=1))
                cur = name
                cur_a = np.concatenate([acts[s] for s in srcs], axis=1)
            cur_c = cur_a.shape[1]
        names[i], acts[i] = cur, cur_a
    graph = helper.make_graph(
        nodes, "yolov3_tiny",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, x.shape[1], size, size])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in outputs],
        inits)
    model = helper.make_model(graph, producer_name="kiln gen_yolov3_tiny.py",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model, outputs


def save_checked(tool, model, outputs, out, x, input_out):
    """Check model (ONNX checker, inferred output shapes = outputs), write it
    to out and the input x to input_out (when given), print the outputs."""
    onnx.checker.check_model(model)
    inferred = onnx.shape_inference.infer_shapes(model)
    for vi in inferred.graph.output:
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        want = dict(outputs)[vi.name]
        if tuple(dims) != tuple(want):
            sys.exit("%s: output %s is %s, expected %s" % (tool, vi.name, dims, want))
    onnx.save(model, out)
    if input_out:
        np.save(input_out, x)
    for name, shape in outputs:
        print("%s: %s %s" % (out, name, "x".join(str(d) for d in shape)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="ONNX file to write")
    ap.add_argument("--size", type=int, default=416, help="input height and width (multiple of 32)")
    ap.add_argument("--channel-scale", type=int, default=1,
                    help="divide every non-head channel count by this")
    ap.add_argument("--classes", type=int, default=80, help="classes per anchor (heads: 3*(c+5))")
    ap.add_argument("--seed", type=int, default=1, help="numpy RandomState seed")
    ap.add_argument("--input-out", help="also write the calibration input as .npy")
    a = ap.parse_args()
    if a.size < 32 or a.size % 32:
        sys.exit("gen_yolov3_tiny.py: --size must be a positive multiple of 32")
    if a.channel_scale < 1 or a.classes < 1:
        sys.exit("gen_yolov3_tiny.py: --channel-scale and --classes must be positive")
    x = image_like(np.random.RandomState(a.seed + 1000), 3, a.size)
    model, outputs = build(a.size, a.channel_scale, a.classes, a.seed, x)
    save_checked("gen_yolov3_tiny.py", model, outputs, a.out, x, a.input_out)


if __name__ == "__main__":
    main()
