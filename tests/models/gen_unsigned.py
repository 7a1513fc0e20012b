#!/usr/bin/env python3
"""A seeded 1x1 conv + ReLU -> 1x1 conv -> HardSigmoid -> 1x1 conv + ReLU
chain: three values that cannot be negative (the ReLU'd conv outputs, the
HardSigmoid's), read by a conv without padding or the graph output, so
`kiln quantize --unsigned auto` gives each 0..255 (docs/quant.md "Unsigned
activations"; test quant_unsigned).  The output is a head conv: one scale
per channel, and unsigned.

usage: gen_unsigned.py OUT.onnx INPUT.npy
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    r = np.random.default_rng(5)
    C = 16
    w0 = (r.standard_normal((C, 3, 1, 1)) * 0.8).astype(np.float32)
    b0 = (r.standard_normal(C) * 0.2).astype(np.float32)
    w1 = (r.standard_normal((C, C, 1, 1)) * 0.4).astype(np.float32)
    w2 = (r.standard_normal((8, C, 1, 1)) * 0.4).astype(np.float32)
    init = [numpy_helper.from_array(a, n) for a, n in
            [(w0, "w0"), (b0, "b0"), (w1, "w1"), (w2, "w2")]]
    nodes = [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], "conv0", kernel_shape=[1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"], "relu0"),
        helper.make_node("Conv", ["r0", "w1"], ["c1"], "conv1", kernel_shape=[1, 1]),
        helper.make_node("HardSigmoid", ["c1"], ["h1"], "hsig1", alpha=0.2, beta=0.5),
        helper.make_node("Conv", ["h1", "w2"], ["c2"], "conv2", kernel_shape=[1, 1]),
        helper.make_node("Relu", ["c2"], ["y"], "relu2"),
    ]
    g = helper.make_graph(nodes, "unsigned",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 32, 32])],
                          init)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(m, sys.argv[1])
    np.save(sys.argv[2], np.random.default_rng(11).random((1, 3, 32, 32), dtype=np.float32))
    return 0


if __name__ == "__main__":
    sys.exit(main())
