#!/usr/bin/python3
# gen_qdq_cases.py OUTDIR: small QDQ ONNX models for the fold_qdq pass.
#   qdq_conv.onnx        Q -> DQ -> Conv(DQ(w per channel), b) -> Relu -> Q -> DQ ->
#                        MaxPool -> Q -> DQ: folds into the int8 form
#   qdq_asym_bad.onnx    the activation's QuantizeLinear has zero point 5
#   qdq_scale_bad.onnx   x_scale * w_scale / y_scale = 1e6: no 16-bit multiplier
import os
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.RandomState(2)


def model(name, x_zp=0, y_scale=0.05):
    c = lambda n, a: numpy_helper.from_array(a, n)
    inits = [c('xs', np.array(0.02, np.float32)), c('xz', np.array(x_zp, np.int8)),
             c('z', np.array(0, np.int8)),
             c('w', rng.randint(-127, 128, (4, 3, 3, 3)).astype(np.int8)),
             c('ws', rng.uniform(0.001, 0.01, 4).astype(np.float32)),
             c('wz', np.zeros(4, np.int8)), c('b', rng.uniform(-0.1, 0.1, 4).astype(np.float32)),
             c('ys', np.array(y_scale, np.float32))]
    N = helper.make_node
    nodes = [N('QuantizeLinear', ['x', 'xs', 'xz'], ['xq'], name='x_q'),
             N('DequantizeLinear', ['xq', 'xs', 'xz'], ['xd'], name='x_dq'),
             N('DequantizeLinear', ['w', 'ws', 'wz'], ['wd'], name='w_dq', axis=0),
             N('Conv', ['xd', 'wd', 'b'], ['c'], name='conv', pads=[1, 1, 1, 1]),
             N('Relu', ['c'], ['r'], name='relu'),
             N('QuantizeLinear', ['r', 'ys', 'z'], ['rq'], name='conv_q'),
             N('DequantizeLinear', ['rq', 'ys', 'z'], ['rd'], name='conv_dq'),
             N('MaxPool', ['rd'], ['p'], name='pool', kernel_shape=[2, 2], strides=[2, 2]),
             N('QuantizeLinear', ['p', 'ys', 'z'], ['pq'], name='pool_q'),
             N('DequantizeLinear', ['pq', 'ys', 'z'], ['y'], name='out_dq')]
    g = helper.make_graph(nodes, name,
                          [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 4, 4, 4])],
                          inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)])
    m.ir_version = 7
    onnx.save(m, os.path.join(out, name + '.onnx'))


model('qdq_conv')
model('qdq_asym_bad', x_zp=5)
model('qdq_scale_bad', y_scale=1e-9)
