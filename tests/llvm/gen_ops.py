#!/usr/bin/env python3
"""Writes cases/ops.gir: a small graph in the text IR that runs every op the
CPU back end lowers (and one it leaves to the interpreter), with seeded
weights, and cases/ops-input.npy.  Run once; the outputs are checked in."""
import base64
import os
import struct

import numpy as np

rng = np.random.default_rng(31)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def const(name, arr):
    dt = {np.float32: "f32", np.int64: "i64"}[arr.dtype.type]
    dims = ",".join(str(d) for d in arr.shape)
    data = base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()
    return f'const %{name} : {dt}[{dims}] = base64"{data}"'


lines = ['graph "ops" opset 17', "input %x : f32[1,4,8,8]"]
lines.append(const("w1", rng.standard_normal((6, 2, 3, 3)).astype(np.float32)))
lines.append(const("b1", rng.standard_normal(6).astype(np.float32)))
lines.append(const("w2", rng.standard_normal((6, 4, 3, 3)).astype(np.float32)))
lines.append(const("k", np.array([1.5], np.float32)))
lines.append(const("k2", np.array([0.75], np.float32)))
lines.append(const("lo", np.array(-1.0, np.float32).reshape(())))
lines.append(const("hi", np.array(1.25, np.float32).reshape(())))
lines.append(const("scales", np.array([1, 1, 2, 2], np.float32)))
lines.append(const("st", np.array([1], np.int64)))
lines.append(const("en", np.array([7], np.int64)))
lines.append(const("ax", np.array([1], np.int64)))
lines += [
    '%c1 = Conv(%x, %w1, %b1) {group=2, kernel_shape=[3,3], pads=[1,1,1,1], strides=[2,2], act="clip", act_min=-0.5, act_max=0.5} : f32[1,6,4,4]',
    '%c2 = Conv(%x, %w2) {kernel_shape=[3,3], pads=[2,2,2,2], dilations=[2,2]} : f32[1,6,8,8]',
    '%r = Relu(%c2) : f32[1,6,8,8]',
    '%l = LeakyRelu(%c2) {alpha=0.2} : f32[1,6,8,8]',
    '%s = Sigmoid(%r) : f32[1,6,8,8]',
    '%t = Tanh(%l) : f32[1,6,8,8]',
    '%a = Add(%s, %t) : f32[1,6,8,8]',
    '%m = Mul(%a, %k) : f32[1,6,8,8]',
    '%d = Div(%m, %k2) : f32[1,6,8,8]',
    '%sb = Sub(%d, %l) : f32[1,6,8,8]',
    '%cl = Clip(%sb, %lo, %hi) : f32[1,6,8,8]',
    '%p = MaxPool(%cl) {kernel_shape=[3,3], pads=[1,1,1,1], strides=[2,2]} : f32[1,6,4,4]',
    '%cat = Concat(%p, %c1) {axis=1} : f32[1,12,4,4]',
    '%up = Resize(%cat, _, %scales) {coordinate_transformation_mode="asymmetric", mode="nearest", nearest_mode="floor"} : f32[1,12,8,8]',
    '%tr = Transpose(%up) {perm=[0,2,3,1]} : f32[1,8,8,12]',
    '%sl = Slice(%tr, %st, %en, %ax) : f32[1,6,8,12]',
    '%fl = Flatten(%sl) {axis=1} : f32[1,576]',
    '%sm = Softmax(%fl) {axis=1} : f32[1,576]',
    '%gp = GlobalAveragePool(%c2) : f32[1,6,1,1]',
    "output %sm",
    "output %gp",
    "output %cat",
]
os.makedirs(here, exist_ok=True)
with open(os.path.join(here, "ops.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "ops-input.npy"), rng.standard_normal((1, 4, 8, 8)).astype(np.float32))
