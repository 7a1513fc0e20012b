#!/usr/bin/env python3
"""Writes cases/ops.gir: a small graph in the text IR that runs the ops the
CPU back end first lowered, with seeded weights, and cases/ops-input.npy;
then cases/ops2.gir, ops2-input.npy, ops2-i8.gir, ops2-i8-input.npy (the
ops lowered since, below).  Run once with /usr/bin/python3; the outputs are
checked in."""
import os
import struct

import numpy as np

from girtext import const

rng = np.random.default_rng(31)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


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

# cases/ops2.gir: the ops lowered since, in their corner cases: Softmax
# over an inner axis and in the pre-13 (coerce2d) form, Pad in each mode
# (constant with a fill, reflect, edge), arithmetic broadcasting along one
# run of axes, fp32 Gemm (transB, alpha, beta, a fused activation) and
# MatMul (a 2-D B, and batched), the unary ops computed in double, Pow,
# ReduceMean and ReduceSum (last axis, two inner axes, all), AveragePool
# (count_include_pad, ceil_mode), BatchNormalization, ConvTranspose (PP-OCR
# det's k2 s2, and grouped with pads, dilation and output_padding), Resize
# linear (half_pixel, align_corners) and cubic, LogSoftmax, Hardmax, Gather
# of constant indices, the unary ops of unary_f (Round on halves, Sign, the
# trigonometric and hyperbolic functions and their inverses, Softplus,
# Softsign, Elu, Selu, Celu, ThresholdedRelu, Shrink), the other float
# reductions (Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp), Conv,
# MaxPool and AveragePool in 1-D and with auto_pad SAME, Conv of computed
# weights, Max, Min, Sum, Mean, PRelu, Mod and arithmetic broadcasting along
# two runs of axes, ArgMax and ArgMin (ties of a Floor: first and last),
# LayerNormalization with its mean and inverse deviation, GlobalMaxPool,
# comparisons, And, Or, Xor, Not and Where (of f32 and of bool), Cast
# between f32, i8, u8, i32, i64 and bool (wrapping and truncating),
# InstanceNormalization, Clip of computed bounds, Trilu, integer Add, Mul,
# Max (wrapping in i8) and comparisons, and
# one node left to
# the interpreter (LRN).
# And cases/ops2-i8.gir: Pad of int8 data, int8 Add (same shape and
# broadcast) and int8 AveragePool.
lines = ['graph "ops2" opset 17', "input %x : f32[2,3,4,5]"]
lines.append(const("pads", np.array([0, 0, 1, 2, 0, 0, 1, 1], np.int64)))
lines.append(const("pads2", np.array([0, 0, 1, 1, 0, 0, 2, 1], np.int64)))
lines.append(const("fill", np.array(0.5, np.float32).reshape(())))
lines.append(const("cb", rng.standard_normal((3, 1, 1)).astype(np.float32)))
lines.append(const("lb", rng.standard_normal(5).astype(np.float32)))
lines.append(const("rb", rng.standard_normal((4, 1)).astype(np.float32)))
lines.append(const("gw", rng.standard_normal((7, 20)).astype(np.float32)))
lines.append(const("gc", rng.standard_normal(7).astype(np.float32)))
lines.append(const("mw", rng.standard_normal((5, 6)).astype(np.float32)))
lines.append(const("two", np.array(2.0, np.float32).reshape(())))
lines.append(const("ax3", np.array([3], np.int64)))
lines.append(const("ax12", np.array([1, 2], np.int64)))
bn = [rng.standard_normal(3).astype(np.float32) for _ in range(3)]
lines.append(const("bs3", bn[0]))
lines.append(const("bb3", bn[1]))
lines.append(const("bm3", bn[2]))
lines.append(const("bv3", rng.uniform(0.5, 2.0, 3).astype(np.float32)))
lines.append(const("tw1", rng.standard_normal((3, 4, 2, 2)).astype(np.float32)))
lines.append(const("tb1", rng.standard_normal(4).astype(np.float32)))
lines.append(const("tw2", rng.standard_normal((3, 2, 3, 3)).astype(np.float32)))
lines.append(const("rsc", np.array([1, 1, 2, 1.5], np.float32)))
lines.append(const("rsd", np.array([1, 1, 0.5, 0.6], np.float32)))
lines.append(const("gix", np.array([[2, 0], [-1, 2]], np.int64)))
lines.append(const("s1", np.array([2, 3, 20], np.int64)))
lines.append(const("r2", rng.standard_normal((2, 1, 4, 1)).astype(np.float32)))
lines.append(const("lns", rng.standard_normal((4, 5)).astype(np.float32)))
lines.append(const("k100", np.array(100.0, np.float32).reshape(())))
lines.append(const("tk", np.array(-1, np.int64).reshape(())))
lines.append(const("ci", np.array([-30, 0, 45], np.int64).reshape((1, 3, 1, 1))))
lines.append(const("c8", np.array([-100, -5, 0, 7, 90], np.int8)))
lines.append(const("w1d", rng.standard_normal((4, 3, 3)).astype(np.float32)))
lines.append(const("b1d", rng.standard_normal(4).astype(np.float32)))
lines.append(const("wsm", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)))
lines.append(const("st0", np.array([0, 0, 0, 0], np.int64)))
lines.append(const("en3", np.array([2, 3, 3, 3], np.int64)))
lines += [
    '%ct = ConvTranspose(%x, %tw1, %tb1) {kernel_shape=[2,2], strides=[2,2]} : f32[2,4,8,10]',
    '%cg = ConvTranspose(%x, %tw2) {group=3, kernel_shape=[3,3], strides=[2,1], pads=[1,0,0,1], dilations=[1,2], output_padding=[1,0]} : f32[2,6,9,8]',
    '%rl = Resize(%x, _, %rsc) {mode="linear"} : f32[2,3,8,7]',
    '%ra2 = Resize(%x, _, %rsc) {mode="linear", coordinate_transformation_mode="align_corners"} : f32[2,3,8,7]',
    '%rc = Resize(%x, _, %rsd) {mode="cubic"} : f32[2,3,2,3]',
    '%ls = LogSoftmax(%x) {axis=2} : f32[2,3,4,5]',
    '%hm = Hardmax(%x) {axis=-1} : f32[2,3,4,5]',
    '%ga = Gather(%x, %gix) {axis=3} : f32[2,3,4,2,2]',
    '%sa = Softmax(%x) {axis=1} : f32[2,3,4,5]',
    '%sc = Softmax(%x) {axis=2, coerce2d=1} : f32[2,3,4,5]',
    '%pc = Pad(%x, %pads, %fill) {mode="constant"} : f32[2,3,6,8]',
    '%pr = Pad(%x, %pads2) {mode="reflect"} : f32[2,3,7,7]',
    '%pe = Pad(%x, %pads2) {mode="edge"} : f32[2,3,7,7]',
    '%ba = Add(%x, %cb) : f32[2,3,4,5]',
    '%bm = Mul(%ba, %lb) : f32[2,3,4,5]',
    '%bs = Sub(%rb, %bm) : f32[2,3,4,5]',
    '%fl = Flatten(%bs) {axis=2} : f32[6,20]',
    '%gm = Gemm(%fl, %gw, %gc) {transB=1, alpha=0.5, beta=2.0, act="leakyrelu", act_alpha=0.1} : f32[6,7]',
    '%mm = MatMul(%x, %mw) : f32[2,3,4,6]',
    '%xt = Transpose(%x) {perm=[0,1,3,2]} : f32[2,3,5,4]',
    '%bb = MatMul(%sa, %xt) : f32[2,3,4,4]',
    '%h = LRN(%x) {size=3} : f32[2,3,4,5]',
    '%u1 = HardSigmoid(%x) {alpha=0.3, beta=0.4} : f32[2,3,4,5]',
    '%u2 = HardSwish(%u1) : f32[2,3,4,5]',
    '%u3 = Abs(%x) : f32[2,3,4,5]',
    '%u4 = Sqrt(%u3) : f32[2,3,4,5]',
    '%u5 = Log(%u4) : f32[2,3,4,5]',
    '%u6 = Exp(%u5) : f32[2,3,4,5]',
    '%u7 = Reciprocal(%u6) : f32[2,3,4,5]',
    '%u8 = Neg(%u7) : f32[2,3,4,5]',
    '%u9 = Erf(%u8) : f32[2,3,4,5]',
    '%ua = Floor(%bs) : f32[2,3,4,5]',
    '%ub = Ceil(%bs) : f32[2,3,4,5]',
    '%pw = Pow(%x, %two) : f32[2,3,4,5]',
    '%pl = Pow(%u3, %lb) : f32[2,3,4,5]',
    '%rm = ReduceMean(%x, %ax3) {keepdims=1} : f32[2,3,4,1]',
    '%rs = ReduceSum(%x, %ax12) {keepdims=0} : f32[2,5]',
    '%ra = ReduceMean(%u2) {keepdims=0} : f32[]',
    '%ap = AveragePool(%x) {kernel_shape=[3,2], strides=[2,2], pads=[1,0,1,1], count_include_pad=1} : f32[2,3,2,3]',
    '%aq = AveragePool(%bs) {kernel_shape=[2,2], strides=[2,2], ceil_mode=1} : f32[2,3,2,3]',
    '%bn = BatchNormalization(%x, %bs3, %bb3, %bm3, %bv3) {epsilon=0.001} : f32[2,3,4,5]',
    '%hx = Div(%ub, %two) : f32[2,3,4,5]',
    '%v1 = Round(%hx) : f32[2,3,4,5]',
    '%v2 = Sign(%ua) : f32[2,3,4,5]',
    '%v3 = Sin(%x) : f32[2,3,4,5]',
    '%v4 = Cos(%v3) : f32[2,3,4,5]',
    '%v5 = Tan(%v4) : f32[2,3,4,5]',
    '%v6 = Tanh(%x) : f32[2,3,4,5]',
    '%v7 = Asin(%v6) : f32[2,3,4,5]',
    '%v8 = Acos(%v6) : f32[2,3,4,5]',
    '%v9 = Atan(%v8) : f32[2,3,4,5]',
    '%va = Atanh(%v6) : f32[2,3,4,5]',
    '%vb = Sinh(%va) : f32[2,3,4,5]',
    '%vc = Cosh(%vb) : f32[2,3,4,5]',
    '%vd = Acosh(%vc) : f32[2,3,4,5]',
    '%ve = Asinh(%vd) : f32[2,3,4,5]',
    '%vf = Softplus(%x) : f32[2,3,4,5]',
    '%vg = Softsign(%vf) : f32[2,3,4,5]',
    '%vh = Elu(%x) {alpha=0.7} : f32[2,3,4,5]',
    '%vi = Selu(%x) : f32[2,3,4,5]',
    '%vj = Celu(%x) {alpha=1.3} : f32[2,3,4,5]',
    '%vk = ThresholdedRelu(%x) {alpha=0.2} : f32[2,3,4,5]',
    '%vl = Shrink(%x) {lambd=0.4, bias=0.1} : f32[2,3,4,5]',
    '%w1 = ReduceMax(%x, %ax12) {keepdims=1} : f32[2,1,1,5]',
    '%w2 = ReduceMin(%x, %ax3) {keepdims=0} : f32[2,3,4]',
    '%w3 = ReduceProd(%x, %ax3) {keepdims=0} : f32[2,3,4]',
    '%w4 = ReduceL1(%x) {keepdims=0} : f32[]',
    '%w5 = ReduceL2(%x, %ax12) {keepdims=0} : f32[2,5]',
    '%w6 = ReduceSumSquare(%x, %ax3) {keepdims=1} : f32[2,3,4,1]',
    '%w7 = ReduceLogSum(%u3, %ax3) {keepdims=0} : f32[2,3,4]',
    '%w8 = ReduceLogSumExp(%x, %ax12) {keepdims=0} : f32[2,5]',
    '%x1 = Reshape(%x, %s1) : f32[2,3,20]',
    '%c1 = Conv(%x1, %w1d, %b1d) {kernel_shape=[3], pads=[1,2], strides=[2], dilations=[2]} : f32[2,4,10]',
    '%cs = Conv(%x, %wsm) {kernel_shape=[3,3], auto_pad="SAME_UPPER", strides=[2,2]} : f32[2,4,2,3]',
    '%ws = Slice(%x, %st0, %en3) : f32[2,3,3,3]',
    '%cv = Conv(%x, %ws) {kernel_shape=[3,3], pads=[1,1,1,1]} : f32[2,2,4,5]',
    '%m1 = MaxPool(%x1) {kernel_shape=[3], strides=[2], pads=[1,1]} : f32[2,3,10]',
    '%ms = MaxPool(%x) {kernel_shape=[3,2], auto_pad="SAME_LOWER", strides=[2,2]} : f32[2,3,2,3]',
    '%a1 = AveragePool(%x1) {kernel_shape=[4], strides=[3], pads=[2,1], count_include_pad=1} : f32[2,3,7]',
    '%mx = Max(%x, %cb, %lb) : f32[2,3,4,5]',
    '%mn = Min(%x, %rb) : f32[2,3,4,5]',
    '%sm = Sum(%x, %cb) : f32[2,3,4,5]',
    '%me = Mean(%x, %lb, %rb) : f32[2,3,4,5]',
    '%pu = PRelu(%x, %cb) : f32[2,3,4,5]',
    '%md = Mod(%x, %lb) {fmod=1} : f32[2,3,4,5]',
    '%b2 = Add(%x, %r2) : f32[2,3,4,5]',
    '%p2 = Pow(%u3, %r2) : f32[2,3,4,5]',
    '%vv = Concat(%v1, %v2, %v5, %v7, %v9, %ve, %vg, %vh, %vi, %vj, %vk, %vl) {axis=1} : f32[2,36,4,5]',
    '%mm2 = Concat(%mx, %mn, %sm, %me, %pu, %md, %b2, %p2) {axis=1} : f32[2,24,4,5]',
    '%am = ArgMax(%ua) {axis=2, keepdims=1} : i64[2,3,1,5]',
    '%an = ArgMin(%ua) {axis=-1, keepdims=0, select_last_index=1} : i64[2,3,4]',
    '%gx = GlobalMaxPool(%x) : f32[2,3,1,1]',
    '%q1 = Greater(%x, %cb) : bool[2,3,4,5]',
    '%q2 = LessOrEqual(%x, %lb) : bool[2,3,4,5]',
    '%q3 = Equal(%ua, %v2) : bool[2,3,4,5]',
    '%q4 = And(%q1, %q2) : bool[2,3,4,5]',
    '%q5 = Xor(%q4, %q3) : bool[2,3,4,5]',
    '%q6 = Not(%q5) : bool[2,3,4,5]',
    '%q7 = Or(%q6, %q1) : bool[2,3,4,5]',
    '%wh = Where(%q7, %x, %r2) : f32[2,3,4,5]',
    '%wq = Where(%q2, %q3, %q1) : bool[2,3,4,5]',
    '%sx = Mul(%x, %k100) : f32[2,3,4,5]',
    '%k1 = Cast(%sx) {to=3} : i8[2,3,4,5]',
    '%k2 = Cast(%k1) {to=1} : f32[2,3,4,5]',
    '%k3 = Cast(%sx) {to=7} : i64[2,3,4,5]',
    '%k4 = Cast(%k3) {to=2} : u8[2,3,4,5]',
    '%k5 = Cast(%k4) {to=1} : f32[2,3,4,5]',
    '%k6 = Cast(%q1) {to=1} : f32[2,3,4,5]',
    '%k7 = Cast(%ua) {to=9} : bool[2,3,4,5]',
    '%k8 = Cast(%k7) {to=6} : i32[2,3,4,5]',
    '%k9 = Cast(%k8) {to=1} : f32[2,3,4,5]',
    '%in1 = InstanceNormalization(%x, %bs3, %bb3) {epsilon=0.01} : f32[2,3,4,5]',
    '%mlo = ReduceMean(%x) {keepdims=0} : f32[]',
    '%mhi = ReduceMean(%u3) {keepdims=0} : f32[]',
    '%cl = Clip(%x, %mlo, %mhi) : f32[2,3,4,5]',
    '%cm = Clip(%x, _, %mlo) : f32[2,3,4,5]',
    '%tu = Trilu(%x, %tk) {upper=1} : f32[2,3,4,5]',
    '%tl = Trilu(%k1) {upper=0} : i8[2,3,4,5]',
    '%tf = Cast(%tl) {to=1} : f32[2,3,4,5]',
    '%ia = Add(%k3, %ci) : i64[2,3,4,5]',
    '%im = Mul(%k1, %k1) : i8[2,3,4,5]',
    '%ix = Max(%k1, %c8) : i8[2,3,4,5]',
    '%ic = Greater(%k3, %ci) : bool[2,3,4,5]',
    '%ie = Equal(%k1, %c8) : bool[2,3,4,5]',
    '%fa = Cast(%ia) {to=1} : f32[2,3,4,5]',
    '%fm = Cast(%im) {to=1} : f32[2,3,4,5]',
    '%fx = Cast(%ix) {to=1} : f32[2,3,4,5]',
    '%ln, %lm, %li = LayerNormalization(%x, %lns, %lb) {axis=2, epsilon=0.01} : f32[2,3,4,5], f32[2,3,1,1], f32[2,3,1,1]',
]
# Outputs of one shape are concatenated (a block copy, exact) so the test
# compares few files.
lines += [
    '%o45 = Concat(%sa, %sc, %u9, %ua, %ub, %pw, %pl, %bn, %ls, %hm, %ln, %vv, %mm2, %wh, %k2, %k5, %k6, %k9, %in1, %cl, %cm, %tu, %tf, %fa, %fm, %fx) {axis=1} : f32[2,132,4,5]',
    '%ob = Concat(%q1, %q2, %q3, %q4, %q5, %q6, %q7, %wq, %ic, %ie) {axis=1} : bool[2,30,4,5]',
    '%o234 = Concat(%w2, %w3, %w7) {axis=2} : f32[2,3,12]',
    '%o25 = Concat(%rs, %w5, %w8) {axis=1} : f32[2,15]',
    '%o2387 = Concat(%rl, %ra2) {axis=1} : f32[2,6,8,7]',
    '%o2377 = Concat(%pr, %pe) {axis=1} : f32[2,6,7,7]',
    '%o2311 = Concat(%lm, %li, %gx) {axis=1} : f32[2,9,1,1]',
]
lines += [f"output %{v}" for v in ["o45", "o234", "o25", "o2387", "o2377", "o2311", "pc", "h",
                                   "mm", "bb", "rm", "ra", "ap", "aq", "ct", "cg", "rc", "ga",
                                   "w1", "w4", "w6", "c1", "cs", "cv", "m1", "ms", "a1", "am",
                                   "an", "ob", "k3"]]
with open(os.path.join(here, "ops2.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "ops2-input.npy"), rng.standard_normal((2, 3, 4, 5)).astype(np.float32))

lines = ['graph "ops2-i8" opset 17', "input %x : i8[1,2,3,4]"]
lines.append(const("pads", np.array([0, 1, 2, 0, 0, 0, 1, 3], np.int64)))
lines.append(const("fill", np.array([-7], np.int8).reshape(())))
lines.append(const("b8", rng.integers(-128, 128, (2, 1, 4)).astype(np.int8)))
lines += [
    '%ad = Add(%x, %x) {rq_m_a=[23000], rq_m_b=[-9000], rq_shift=[14]} : i8[1,2,3,4]',
    '%ab = Add(%x, %b8) {rq_m_a=[300], rq_m_b=[700], rq_shift=[9]} : i8[1,2,3,4]',
    '%av = AveragePool(%x) {kernel_shape=[2,3], strides=[1,2], pads=[1,1,0,1], rq_m=[5461], rq_shift=[15]} : i8[1,2,3,2]',
    '%pc = Pad(%x, %pads, %fill) {mode="constant"} : i8[1,3,6,7]',
    '%pz = Pad(%x, %pads) {mode="constant"} : i8[1,3,6,7]',
    '%pr = Pad(%x, %pads) {mode="reflect"} : i8[1,3,6,7]',
    "output %pc",
    "output %pz",
    "output %pr",
    "output %ad",
    "output %ab",
    "output %av",
]
with open(os.path.join(here, "ops2-i8.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "ops2-i8-input.npy"), rng.integers(-128, 128, (1, 2, 3, 4)).astype(np.int8))
