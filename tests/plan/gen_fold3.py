#!/usr/bin/python3
"""Three 3x3 convs with ReLU on 13x13 maps (32 -> 1024 -> 128 -> 128
channels, seeded weights), the model the fold cases fold the last two of.

  gen_fold3.py OUT.onnx NAME     NAME: the graph's name
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(1)
ch = [32, 1024, 128, 128]
nodes, inits, x = [], [], "x"
for i in range(3):
    w = (rng.standard_normal((ch[i + 1], ch[i], 3, 3)) * 0.1).astype(np.float32)
    b = (rng.standard_normal(ch[i + 1]) * 0.1).astype(np.float32)
    inits += [numpy_helper.from_array(w, "w%d" % i), numpy_helper.from_array(b, "b%d" % i)]
    nodes.append(helper.make_node("Conv", [x, "w%d" % i, "b%d" % i], ["c%d" % i],
                                  name="conv%d" % i, pads=[1, 1, 1, 1], kernel_shape=[3, 3]))
    nodes.append(helper.make_node("Relu", ["c%d" % i], ["y%d" % i], name="relu%d" % i))
    x = "y%d" % i
g = helper.make_graph(nodes, sys.argv[2],
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, ch[0], 13, 13])],
                      [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, ch[-1], 13, 13])],
                      inits)
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
