#!/usr/bin/env python3
"""A seeded conv -> affine + HardSwish -> depthwise conv -> HardSwish -> 1x1
conv chain whose first conv's output channels range over three decades
(trained nets' channel imbalance, docs/quant.md "Per-channel activation
scales"): the model of `--channel-scales auto`'s tests (quant_channel_scales,
sim_chscale_lut).

usage: gen_chscale.py OUT.onnx INPUT.npy
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    r = np.random.default_rng(7)
    C = 16
    spread = np.float32(10.0) ** np.linspace(-2.0, 1.0, C).astype(np.float32)
    w0 = (r.standard_normal((C, 3, 3, 3)) * 0.3).astype(np.float32) * spread[:, None, None, None]
    b0 = (r.standard_normal(C) * 0.1).astype(np.float32) * spread
    w1 = (r.standard_normal((C, 1, 3, 3)) * 0.5).astype(np.float32) / np.sqrt(spread)[:, None, None, None]
    w2 = (r.standard_normal((8, C, 1, 1)) * 0.3).astype(np.float32)
    init = [numpy_helper.from_array(a, n) for a, n in
            [(w0, "w0"), (b0, "b0"), (w1, "w1"), (w2, "w2"),
             (np.array([0.9], np.float32), "ka"), (np.array([0.05], np.float32), "kb")]]
    nodes = [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], "conv0", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Mul", ["c0", "ka"], ["m0"], "mul0"),
        helper.make_node("Add", ["m0", "kb"], ["a0"], "add0"),
        helper.make_node("HardSwish", ["a0"], ["h0"], "hswish0"),
        helper.make_node("Conv", ["h0", "w1"], ["c1"], "dw1", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], group=C),
        helper.make_node("HardSwish", ["c1"], ["h1"], "hswish1"),
        helper.make_node("Conv", ["h1", "w2"], ["y"], "conv2", kernel_shape=[1, 1]),
    ]
    g = helper.make_graph(nodes, "chscale",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 32, 32])],
                          init)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(m, sys.argv[1])
    np.save(sys.argv[2], np.random.default_rng(11).random((1, 3, 32, 32), dtype=np.float32))
    return 0


if __name__ == "__main__":
    sys.exit(main())
