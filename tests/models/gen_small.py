#!/usr/bin/python3
"""Write small test networks as ONNX (opset 13) with seeded weights.

Each network is a list of layers; convolutions carry BatchNormalization (its
statistics measured on the seeded input, as gen_yolov3_tiny.py does, so
activations stay O(1); each channel's variance floored at half the layer's
mean) and an activation, except the linear output head, which has a bias.
Weights come from numpy RandomState(seed), He-scaled per group.  The input
(--input-out) is an image-like scene in [0, 1] with edges (see scene()).

  resdw   1x3x32x32: Conv3x3 16 + LeakyRelu, then a residual block
          [depthwise Conv3x3 (group 16) + Relu -> Conv1x1 16 (linear)] + skip Add,
          MaxPool 2x2, Conv3x3 32 + LeakyRelu, depthwise Conv3x3 stride 2 + Relu,
          Conv1x1 8 (output, 1x8x8x8).  Exercises the dwconv and add engines.
  cpumid  1x3x32x32: Conv3x3 16, MaxPool, Conv3x3 32, then a Conv3x3 with
          dilation 2 (no FPGA engine; the int8 quantizer and interpreter take
          it), Conv3x3 32, MaxPool, Conv1x1 8 (output, 1x8x8x8): the plan has
          two FPGA segments with one CPU node between them.
  mbrelu6 1x3x64x64: MobileNet-style: Conv3x3 16 stride 2, depthwise Conv3x3,
          Conv1x1 24, depthwise Conv3x3 stride 2, Conv1x1 32, each + ReLU6
          (Clip 0..6, BN gamma x3 so that the upper bound binds), and a
          Conv1x1 8 head (output, 1x8x16x16).  The fused Clip on the engines.
  tfnhwc  1x32x32x3 (NHWC, as TensorFlow exports it): Transpose to NCHW,
          Conv3x3 16 + Relu, MaxPool, Conv3x3 16 + LeakyRelu, Conv1x1 8 head,
          Transpose back to NHWC (output 1x16x16x8).  The layout a tf2onnx
          model has around its network.
  hswish  1x3x64x64: PP-OCR-style blocks: Conv3x3 16 stride 2, depthwise
          Conv3x3, Conv1x1 24, each followed by a scalar affine y * a + b and
          HardSwish spelled out as paddle2onnx writes it (Add 3, Clip 0..6,
          Mul, Div 6), and a Conv1x1 8 head (output, 1x8x32x32).  The
          quantizer's LutI8 tables and the FPGA's kiln_lut engine.
  big     1x3x16x16: Conv3x3 64, MaxPool, three Conv3x3 256 on 8x8 maps and a
          Conv1x1 8 head: 1.33 M weights (int8 bytes), more than Ultra96-V2's
          block RAM (216 BRAM36, 972 KB), less than ZCU104's BRAM + URAM.
  ddr18   1x3x16x16: Conv1x1 18, Conv3x3 512, Conv3x3 18 and a Conv1x1 8
          head.  18 channels take 18 bytes a pixel in 2 lanes, 20 in 4:
          where a conv beside an 18-channel map streams its weights (83 KB)
          from DDR in tiles, that map goes through DDR, and the lanes that
          write it and read it must pad it alike.
  upcat   1x3x32x32: YOLOv3-tiny's route in small: Conv3x3 32 + LeakyRelu
          (kept), MaxPool, Conv3x3 16 with dilation 2, Resize (nearest x2),
          Concat of the upsampled map and the kept one (48 channels), a
          Conv3x3 8 head with dilation 2 (output 1x8x32x32).  The dilated
          convs run on the CPU, so the FPGA's second segment is the upsample
          and the concat alone, both inputs read from DDR (the route of
          YOLOv3-tiny with its neighbours on the shared engine).
  dwwide  1x3x64x64: PP-LCNet's later blocks in small: Conv3x3 256, then
          three [depthwise Conv5x5 + Relu -> Conv1x1 256 + Relu] on the
          64x64 map, and a Conv1x1 8 head (output 1x8x64x64).  The line
          buffers of the 5x5 depthwise convs (8 rows of 64 pixels of 256
          channels each) take more block RAM than KV260 has; the weights
          are 0.21 MB.

Run with /usr/bin/python3 (Debian python3-onnx and python3-numpy):
  gen_small.py --model resdw|cpumid|mbrelu6|tfnhwc|hswish|big|ddr18|upcat|dwwide --out M.onnx [--seed 1] [--input-out in.npy]
"""
import argparse

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from gen_yolov3_tiny import BN_EPS, image_like, round_sig, save_checked

# Layers: ("conv", filters, k, stride, group, dilation, act) with group 0
# meaning depthwise and act "leaky", "relu", "relu6", "linear" (BN, no activation) or
# "head" (bias, no BN, graph output); ("maxpool",); ("save", tag) remembers
# the current value; ("add", tag) adds the remembered value; ("upsample",)
# doubles the map (Resize, nearest); ("concat", tag) joins the current value
# and the remembered one along the channels, in that order.
MODELS = {
    "resdw": (32, [
        ("conv", 16, 3, 1, 1, 1, "leaky"), ("save", "skip"),
        ("conv", 16, 3, 1, 0, 1, "relu"),
        ("conv", 16, 1, 1, 1, 1, "linear"), ("add", "skip"),
        ("maxpool",),
        ("conv", 32, 3, 1, 1, 1, "leaky"),
        ("conv", 32, 3, 2, 0, 1, "relu"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "cpumid": (32, [
        ("conv", 16, 3, 1, 1, 1, "leaky"), ("maxpool",),
        ("conv", 32, 3, 1, 1, 1, "leaky"),
        ("conv", 32, 3, 1, 1, 2, "leaky"),
        ("conv", 32, 3, 1, 1, 1, "leaky"), ("maxpool",),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "mbrelu6": (64, [
        ("conv", 16, 3, 2, 1, 1, "relu6"),
        ("conv", 16, 3, 1, 0, 1, "relu6"),
        ("conv", 24, 1, 1, 1, 1, "relu6"),
        ("conv", 24, 3, 2, 0, 1, "relu6"),
        ("conv", 32, 1, 1, 1, 1, "relu6"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "tfnhwc": (32, [
        ("conv", 16, 3, 1, 1, 1, "relu"), ("maxpool",),
        ("conv", 16, 3, 1, 1, 1, "leaky"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "hswish": (64, [
        ("conv", 16, 3, 2, 1, 1, "hswish"),
        ("conv", 16, 3, 1, 0, 1, "hswish"),
        ("conv", 24, 1, 1, 1, 1, "hswish"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "big": (16, [
        ("conv", 64, 3, 1, 1, 1, "leaky"), ("maxpool",),
        ("conv", 256, 3, 1, 1, 1, "leaky"),
        ("conv", 256, 3, 1, 1, 1, "leaky"),
        ("conv", 256, 3, 1, 1, 1, "leaky"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "dwwide": (64, [
        ("conv", 256, 3, 1, 1, 1, "relu"),
        ("conv", 256, 5, 1, 0, 1, "relu"), ("conv", 256, 1, 1, 1, 1, "relu"),
        ("conv", 256, 5, 1, 0, 1, "relu"), ("conv", 256, 1, 1, 1, 1, "relu"),
        ("conv", 256, 5, 1, 0, 1, "relu"), ("conv", 256, 1, 1, 1, 1, "relu"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "ddr18": (16, [
        ("conv", 18, 1, 1, 1, 1, "leaky"),
        ("conv", 512, 3, 1, 1, 1, "leaky"),
        ("conv", 18, 3, 1, 1, 1, "leaky"),
        ("conv", 8, 1, 1, 1, 1, "head"),
    ]),
    "upcat": (32, [
        ("conv", 32, 3, 1, 1, 1, "leaky"), ("save", "skip"), ("maxpool",),
        ("conv", 16, 3, 1, 1, 2, "leaky"),
        ("upsample",), ("concat", "skip"),
        ("conv", 8, 3, 1, 1, 2, "head"),
    ]),
}
# Models whose input and outputs are NHWC, with Transposes around the network.
NHWC = {"tfnhwc"}


def scene(rng, channels, size):
    """An image-like input in [0, 1] with edges: gen_yolov3_tiny's smooth
    gradients and blobs plus a few flat-shaded rectangles and a stripe
    texture, so neighbouring pixels differ by more than int8 rounding."""
    img = image_like(rng, channels, size).astype(np.float64)
    y, x = np.mgrid[0:size, 0:size]
    for _ in range(5):
        x0, y0 = rng.randint(0, size - 4, 2)
        x1, y1 = x0 + rng.randint(3, size // 2), y0 + rng.randint(3, size // 2)
        box = (x >= x0) & (x < x1) & (y >= y0) & (y < y1)
        img[0][:, box] += rng.uniform(-0.35, 0.35, (channels, 1))
    f, ang = rng.uniform(0.4, 1.2), rng.uniform(0, np.pi)
    img += 0.08 * np.sin(f * (np.cos(ang) * x + np.sin(ang) * y))[None, None]
    return np.clip(img, 0, 1).astype(np.float32)


def conv2d(x, w, stride, group, dil):
    """NCHW grouped convolution in float64, padding dil*(k//2) on every side
    (the output keeps H/stride x W/stride)."""
    n, c, h, wd = x.shape
    f, cg, k, _ = w.shape
    pad = dil * (k // 2)
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dil * (k - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dil * (k - 1) - 1) // stride + 1
    s = xp.strides
    cols = np.lib.stride_tricks.as_strided(
        xp, (n, c, k, k, oh, ow),
        (s[0], s[1], s[2] * dil, s[3] * dil, s[2] * stride, s[3] * stride))
    fg = f // group
    out = [np.tensordot(w[g * fg:(g + 1) * fg].astype(np.float64), cols[:, g * cg:(g + 1) * cg],
                        axes=([1, 2, 3], [1, 2, 3])) for g in range(group)]
    return np.concatenate(out, axis=0).transpose(1, 0, 2, 3)


def maxpool2(x):
    """2x2 max pool, stride 2."""
    return np.maximum(np.maximum(x[:, :, 0::2, 0::2], x[:, :, 0::2, 1::2]),
                      np.maximum(x[:, :, 1::2, 0::2], x[:, :, 1::2, 1::2]))


def build(kind, seed, x):
    rng = np.random.RandomState(seed)
    inits, nodes, outputs, saved = [], [], [], {}
    cur, cur_a = "input", x.astype(np.float64)
    if kind in NHWC:
        nodes.append(helper.make_node("Transpose", ["input"], ["input_nchw"], name="to_nchw",
                                      perm=[0, 3, 1, 2]))
        cur = "input_nchw"

    def const(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    for i, layer in enumerate(MODELS[kind][1]):
        if layer[0] == "save":
            saved[layer[1]] = (cur, cur_a)
            continue
        if layer[0] == "add":
            name = "add%d" % i
            other, other_a = saved[layer[1]]
            nodes.append(helper.make_node("Add", [cur, other], [name], name=name))
            cur, cur_a = name, cur_a + other_a
            continue
        if layer[0] == "upsample":
            name = "upsample%d" % i
            nodes.append(helper.make_node(
                "Resize", [cur, "", const(name + "_scales", np.array([1, 1, 2, 2], np.float32))],
                [name], name=name, mode="nearest", coordinate_transformation_mode="asymmetric",
                nearest_mode="floor"))
            cur, cur_a = name, cur_a.repeat(2, axis=2).repeat(2, axis=3)
            continue
        if layer[0] == "concat":
            name = "concat%d" % i
            other, other_a = saved[layer[1]]
            nodes.append(helper.make_node("Concat", [cur, other], [name], name=name, axis=1))
            cur, cur_a = name, np.concatenate([cur_a, other_a], axis=1)
            continue
        if layer[0] == "maxpool":
            name = "maxpool%d" % i
            nodes.append(helper.make_node("MaxPool", [cur], [name], name=name,
                                          kernel_shape=[2, 2], strides=[2, 2]))
            cur, cur_a = name, maxpool2(cur_a)
            continue
        _, filters, k, stride, group, dil, act = layer
        cin = cur_a.shape[1]
        group = cin if group == 0 else group
        if group == cin:
            filters = cin  # depthwise: one filter per channel
        fan_in = cin // group * k * k
        w = (rng.standard_normal((filters, cin // group, k, k)) * np.sqrt(2.0 / fan_in)).astype(
            np.float32)
        name = "%s%d" % ("dw" if group > 1 else "conv", i)
        pad = dil * (k // 2)
        attrs = dict(kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4)
        if group > 1:
            attrs["group"] = group
        if dil > 1:
            attrs["dilations"] = [dil, dil]
        y = conv2d(cur_a, w, stride, group, dil)
        if act == "head":
            b = rng.uniform(-0.1, 0.1, filters).astype(np.float32)
            nodes.append(helper.make_node(
                "Conv", [cur, const(name + "_w", w), const(name + "_b", b)], [name], name=name,
                **attrs))
            cur, cur_a = name, y + b[None, :, None, None]
            outputs.append((name, cur_a.shape))
            continue
        nodes.append(helper.make_node("Conv", [cur, const(name + "_w", w)], [name], name=name,
                                      **attrs))
        gamma = rng.uniform(0.8, 1.2, filters).astype(np.float32)
        if act == "relu6":
            gamma = (gamma * 3.0).astype(np.float32)
        beta = rng.uniform(-0.1, 0.1, filters).astype(np.float32)
        mean = round_sig(y.mean(axis=(0, 2, 3)))
        # Each channel's variance floored at half the layer's mean: a channel
        # that barely varies over one input is not scaled up to unit variance,
        # int8 rounding error with it (resdw: cosine 0.994 instead of 0.991).
        var_c = y.var(axis=(0, 2, 3))
        var = round_sig(np.maximum(var_c, 0.5 * var_c.mean()) + 1e-3)
        bname = name + "_bn"
        nodes.append(helper.make_node(
            "BatchNormalization",
            [name, const(bname + "_scale", gamma), const(bname + "_bias", beta),
             const(bname + "_mean", mean), const(bname + "_var", var)],
            [bname], name=bname, epsilon=BN_EPS))
        y = (y - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + BN_EPS) * \
            gamma[None, :, None, None] + beta[None, :, None, None]
        cur = bname
        if act == "leaky":
            cur = name + "_leaky"
            nodes.append(helper.make_node("LeakyRelu", [bname], [cur], name=cur, alpha=0.1))
            y = np.where(y > 0, y, 0.1 * y)
        elif act == "relu":
            cur = name + "_relu"
            nodes.append(helper.make_node("Relu", [bname], [cur], name=cur))
            y = np.maximum(y, 0)
        elif act == "relu6":
            cur = name + "_relu6"
            nodes.append(helper.make_node(
                "Clip", [bname, const(name + "_lo", np.float32(0.0)),
                         const(name + "_hi", np.float32(6.0))], [cur], name=cur))
            y = np.clip(y, 0.0, 6.0)
        elif act == "hswish":
            ka, kb = np.float32(rng.uniform(0.9, 1.3)), np.float32(rng.uniform(-0.2, 0.2))
            aff, x3, r6, m6, cur = (name + s for s in ("_aff", "_x3", "_r6", "_m6", "_hswish"))
            nodes.append(helper.make_node("Mul", [const(name + "_ka", np.array([ka])), bname],
                                          [aff + "m"], name=aff + "m"))
            nodes.append(helper.make_node("Add", [aff + "m", const(name + "_kb", np.array([kb]))],
                                          [aff], name=aff))
            nodes.append(helper.make_node("Add", [aff, const(name + "_3", np.float32(3.0))],
                                          [x3], name=x3))
            nodes.append(helper.make_node(
                "Clip", [x3, const(name + "_lo", np.float32(0.0)),
                         const(name + "_hi", np.float32(6.0))], [r6], name=r6))
            nodes.append(helper.make_node("Mul", [aff, r6], [m6], name=m6))
            nodes.append(helper.make_node("Div", [m6, const(name + "_6", np.float32(6.0))],
                                          [cur], name=cur))
            y = y * ka + kb
            y = y * np.clip(y + 3.0, 0.0, 6.0) / 6.0
        cur_a = y
    in_shape = list(x.shape)
    if kind in NHWC:
        in_shape = [in_shape[0], in_shape[2], in_shape[3], in_shape[1]]
        for k, (name, shape) in enumerate(outputs):
            nodes.append(helper.make_node("Transpose", [name], [name + "_nhwc"],
                                          name=name + "_to_nhwc", perm=[0, 2, 3, 1]))
            outputs[k] = (name + "_nhwc", (shape[0], shape[2], shape[3], shape[1]))
    graph = helper.make_graph(
        nodes, kind,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, in_shape)],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in outputs],
        inits)
    model = helper.make_model(graph, producer_name="kiln gen_small.py",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model, outputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, choices=sorted(MODELS), help="network to write")
    ap.add_argument("--out", required=True, help="ONNX file to write")
    ap.add_argument("--seed", type=int, default=1, help="numpy RandomState seed")
    ap.add_argument("--input-out", help="also write the seeded image-like input as .npy")
    a = ap.parse_args()
    size = MODELS[a.model][0]
    x = scene(np.random.RandomState(a.seed + 1000), 3, size)
    model, outputs = build(a.model, a.seed, x)
    if a.model in NHWC:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    save_checked("gen_small.py", model, outputs, a.out, x, a.input_out)


if __name__ == "__main__":
    main()
