#!/usr/bin/python3
# Writes int8_mix.gir: a small graph in kiln's int8 form (docs/quant.md) that
# touches every op the QDQ writer treats apart: Conv with identity, ReLU,
# LeakyReLU and a Clip range, Add, Requantize, MaxPool, Resize, Concat,
# GlobalAveragePool, QuantizeLinear and DequantizeLinear.  Seeded; the output
# is checked in, this script only documents how it was made.
#   /usr/bin/python3 gen_int8_mix.py > int8_mix.gir
import base64
import sys
import numpy as np

rng = np.random.RandomState(11)


def b64(a):
    return 'base64"' + base64.b64encode(np.ascontiguousarray(a).tobytes()).decode() + '"'


def f(v):
    return repr(float(np.float32(v)))


def rq(s):
    """(m, shift) with m * 2^-shift ~ s, m < 2^15 (requant.h kiln_rq_choose)."""
    for sh in range(47, -1, -1):
        v = s * 2.0 ** sh
        if v < 32767.5:
            return int(v + 0.5), sh
    raise ValueError(s)


def ints(v):
    return '[' + ','.join(str(int(x)) for x in v) + ']'


out = []
w = out.append
w("# RUN (tests/qonnx/qonnx.cmake): qdq_vs_ort.sh KILN int8_mix.gir rand:1,3,8,8 ORT WORK 100")
w('graph "int8_mix" opset 13')
w('input %x : f32[1,3,8,8] nchw')
sx, s1, s2, sp, sa, s3 = 0.0213, 0.0517, 0.0391, 0.0517, 0.0813, 0.1029
w('const %xs : f32[] = ' + b64(np.float32(sx)))
w('const %zp : i8[] = ' + b64(np.int8(0)))
consts = []


def conv_consts(name, oc, ic, k, s_in, s_out, alpha):
    wq = rng.randint(-127, 128, size=(oc, ic, k, k)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=oc)
    b = rng.randint(-2000, 2000, size=oc).astype(np.int32)
    mp, mn, sh = [], [], []
    for c in range(oc):
        m, s = rq(s_in * ws[c] / s_out)
        mp.append(m)
        sh.append(s)
        mn.append(m if alpha is None else int(round(m * alpha)))
    w('const %%%s_w : i8[%d,%d,%d,%d] = %s' % (name, oc, ic, k, k, b64(wq)))
    w('const %%%s_b : i32[%d] = %s' % (name, oc, b64(b)))
    return 'rq_m_neg=%s, rq_m_pos=%s, rq_shift=%s' % (ints(mn), ints(mp), ints(sh))


a1 = conv_consts('c1', 8, 3, 3, sx, s1, 0.1)
a2 = conv_consts('c2', 8, 8, 1, sp, s2, 0.0)
a3 = conv_consts('c3', 4, 16, 3, sa, s3, None)
w('const %scales : f32[4] = ' + b64(np.array([1, 1, 2, 2], np.float32)))
w('const %s3 : f32[] = ' + b64(np.float32(s3)))
w('%%xq = QuantizeLinear(%%x, %%xs, %%zp) : i8[1,3,8,8] nchw scale(%s)' % f(sx))
w('%%c1 = Conv(%%xq, %%c1_w, %%c1_b) {pads=[1,1,1,1], %s} : i8[1,8,8,8] nchw scale(%s)'
  % (a1, f(s1)))
w('%%p1 = MaxPool(%%c1) {kernel_shape=[2,2], strides=[2,2]} : i8[1,8,4,4] nchw scale(%s)'
  % f(sp))
w('%%c2 = Conv(%%p1, %%c2_w, %%c2_b) {%s} : i8[1,8,4,4] nchw scale(%s)' % (a2, f(s2)))
m, sh = rq(s2 / sp)
w('%%r2 = Requantize(%%c2) {rq_m=[%d], rq_shift=[%d]} : i8[1,8,4,4] nchw scale(%s)'
  % (m, sh, f(sp)))
sh = 15
w('%%a = Add(%%p1, %%r2) {rq_m_a=[%d], rq_m_b=[%d], rq_shift=[%d]} : i8[1,8,4,4] nchw scale(%s)'
  % (round(sp / sa * 2 ** sh), round(sp / sa * 2 ** sh), sh, f(sa)))
w('%%u = Resize(%%a, _, %%scales) {mode="nearest"} : i8[1,8,8,8] nchw scale(%s)' % f(sa))
m, sh = rq(s1 / sa)
w('%%c1r = Requantize(%%c1) {rq_m=[%d], rq_shift=[%d]} : i8[1,8,8,8] nchw scale(%s)'
  % (m, sh, f(sa)))
w('%%cat = Concat(%%u, %%c1r) {axis=1} : i8[1,16,8,8] nchw scale(%s)' % f(sa))
w('%%c3 = Conv(%%cat, %%c3_w, %%c3_b) {act_max=[100], act_min=[-20], pads=[1,1,1,1], %s} '
  ': i8[1,4,8,8] nchw scale(%s)' % (a3, f(s3)))
m, sh = rq(1.0 / 64)
w('%%gp = GlobalAveragePool(%%c3) {rq_m=[%d], rq_shift=[%d]} : i8[1,4,1,1] nchw scale(%s)'
  % (m, sh, f(s3)))
w('%y = DequantizeLinear(%c3, %s3, %zp) : f32[1,4,8,8] nchw')
w('%g = DequantizeLinear(%gp, %s3, %zp) : f32[1,4,1,1] nchw')
w('output %y')
w('output %g')
print('\n'.join(out))
