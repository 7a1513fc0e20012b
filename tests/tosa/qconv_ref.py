"""The int8 conv of qconv.mlir in TOSA's own arithmetic, with NumPy: conv2d
accumulates in int32, rescale (scale32 false: apply_scale_16) computes
(acc * m + 2^(shift-1)) >> shift and saturates to int8, clamp [0, 127].
Weights, bias, multipliers and shifts are read from the file.  Exits 1
unless kiln's output is identical.

usage: qconv_ref.py qconv.mlir in.npy kiln_out.npy"""
import re
import sys

import numpy as np

text = open(sys.argv[1]).read()
w = np.array(eval(re.search(r'%w = "tosa.const"\(\) \{value = dense<(.*?)> :', text).group(1)), dtype=np.int64)
b = np.array(eval(re.search(r'%b = "tosa.const"\(\) \{value = dense<(.*?)> :', text).group(1)), dtype=np.int64)
m = np.array([int(v) for v in re.search(r"multiplier = array<i32: ([0-9, ]+)>", text).group(1).split(",")])
sh = np.array([int(v) for v in re.search(r"shift = array<i32: ([0-9, ]+)>", text).group(1).split(",")])
x = np.load(sys.argv[2]).astype(np.int64)
got = np.load(sys.argv[3])
_, h, wd, _ = x.shape
xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
acc = np.zeros((1, h, wd, w.shape[0]), dtype=np.int64)
for ky in range(3):
    for kx in range(3):
        acc += np.einsum("nhwi,oi->nhwo", xp[:, ky:ky + h, kx:kx + wd, :], w[:, ky, kx, :])
acc += b
r = (acc * m + (np.int64(1) << (sh - 1))) >> sh
y = np.clip(np.clip(r, -128, 127), 0, 127).astype(np.int8)
same = int((got == y).sum()) if got.shape == y.shape else 0
print("qconv: kiln against NumPy's TOSA arithmetic, %d of %d int8 values identical" % (same, y.size))
sys.exit(0 if same == y.size else 1)
