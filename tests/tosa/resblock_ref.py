"""The ResNet-style block of resblock.mlir computed with NumPy, from the
dense literals of the file itself (independent of kiln's reader): prints
the relative L2 error of kiln's output and fails above 1e-5.

usage: resblock_ref.py resblock.mlir in.npy kiln_out.npy"""
import re
import sys

import numpy as np


def consts(text):
    out = {}
    for m in re.finditer(r'%(\w+) = "tosa.const"\(\) \{value = dense<(.*?)> : tensor<([0-9x]+)xf32>', text):
        shape = [int(d) for d in m.group(3).split("x")]
        out[m.group(1)] = np.array(eval(m.group(2)), dtype=np.float64).reshape(shape)
    return out


def conv3x3_nhwc(x, w, b):
    """x [1,H,W,C], w OHWI [O,3,3,I], pad 1, stride 1."""
    _, h, wd, _ = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    y = np.zeros((1, h, wd, w.shape[0]))
    for ky in range(3):
        for kx in range(3):
            y += np.einsum("nhwi,oi->nhwo", xp[:, ky:ky + h, kx:kx + wd, :], w[:, ky, kx, :])
    return y + b


def main():
    text = open(sys.argv[1]).read()
    c = consts(text)
    x = np.load(sys.argv[2]).astype(np.float64)
    got = np.load(sys.argv[3]).astype(np.float64)
    r1 = np.maximum(conv3x3_nhwc(x, c["w1"], c["b1"]), 0)
    y = np.maximum(conv3x3_nhwc(r1, c["w2"], c["b2"]) + x, 0)
    if got.shape != y.shape:
        sys.exit("shape %s, expected %s" % (got.shape, y.shape))
    rel = np.linalg.norm(got - y) / np.linalg.norm(y)
    print("resblock: kiln against NumPy, relative L2 %.3g over %d values" % (rel, y.size))
    if not rel <= 1e-5:
        sys.exit("relative L2 %.3g above 1e-5" % rel)


main()
