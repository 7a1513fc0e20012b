#!/usr/bin/env python3
"""Writes cases/dw-int8.gir: int8 depthwise Convs (group = channels) in the
corner cases of the CPU back end's VNNI depthwise kernel (llvm/conv_dw_i8.c),
with seeded weights and requantize attributes, and cases/dw-int8-x.npy, its
input.  Run once with /usr/bin/python3; the outputs are checked in.

20 channels; 3x3 padded, 5x5 with stride (2, 1) (two groups of 4 kernel
rows, the second with 3 rows of weight 0), stride (1, 2) (two column
phases), dilation 2, asymmetric pads, a 7x7 without bias, a 1x3 and rows of
fewer pixels than a vector; ReLU, LeakyReLU, identity and the clamp."""
import os

import numpy as np

from girtext import const, ints

rng = np.random.default_rng(3131)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
C = 20


def rq(shift_lo, shift_hi):
    mp = rng.integers(8000, 32768, C)
    kind = rng.integers(0, 3, C)
    mn = np.where(kind == 0, 0, np.where(kind == 1, mp // 8, mp))
    sh = rng.integers(shift_lo, shift_hi + 1, C)
    return f"rq_m_pos={ints(mp)}, rq_m_neg={ints(mn)}, rq_shift={ints(sh)}"


lines = ['graph "dw_int8" opset 17', f"input %x : f32[2,{C},11,19]"]
lines.append(const("s", np.array(0.02, np.float32).reshape(())))
lines.append(const("zp", np.array(0, np.int8).reshape(())))
lines.append(f"%xq = QuantizeLinear(%x, %s, %zp) : i8[2,{C},11,19]")
# name, kernel, attributes, output H, W, bias
convs = [
    ("d1", (3, 3), "pads=[1,1,1,1]", 11, 19, True),
    ("d2", (5, 5), "pads=[2,2,2,2], strides=[2,1]", 6, 19, True),
    ("d3", (3, 3), "pads=[1,1,1,1], strides=[1,2]", 11, 10, True),
    ("d4", (3, 3), "pads=[2,2,2,2], dilations=[2,2]", 11, 19, True),
    ("d5", (5, 5), "pads=[1,2,2,1], strides=[2,2]", 5, 9, True),
    ("d6", (7, 7), "pads=[3,3,3,3]", 11, 19, False),
    ("d7", (1, 3), "pads=[0,1,0,1], strides=[1,3]", 11, 7, True),
]
for name, (kh, kw), attrs, oh, ow, has_b in convs:
    lines.append(const(name + "w", rng.integers(-128, 128, (C, 1, kh, kw)).astype(np.int8)))
    if has_b:
        lines.append(const(name + "b", rng.integers(-40000, 40000, C).astype(np.int32)))
    clamp = ", act_min=[-5], act_max=[120]" if name == "d1" else ""
    ins = f"%xq, %{name}w" + (f", %{name}b" if has_b else "")
    lines.append(f"%{name} = Conv({ins}) {{kernel_shape=[{kh},{kw}], group={C}, {attrs}, "
                 f"{rq(21, 24)}{clamp}}} : i8[2,{C},{oh},{ow}]")
# the blocked VNNI MatMul and Gemm of a constant B (llvm/gemm_i8.c): M = 21
# rows (not a multiple of its 4), K = 19 (3 bytes past the last word),
# N = 13 (a partial vector); the Gemm with transB and a bias per column
lines.insert(2, 'input %a : f32[3,7,19]')
lines.insert(3, 'input %a2 : f32[21,19]')
lines.append(const("mw", rng.integers(-128, 128, (19, 13)).astype(np.int8)))
lines.append(const("gw", rng.integers(-128, 128, (13, 19)).astype(np.int8)))
lines.append(const("gb", rng.integers(-40000, 40000, (1, 13)).astype(np.int32)))
C_ = C
C = 13
lines += [
    "%aq = QuantizeLinear(%a, %s, %zp) : i8[3,7,19]",
    "%a2q = QuantizeLinear(%a2, %s, %zp) : i8[21,19]",
    f"%mm = MatMul(%aq, %mw) {{{rq(21, 23)}}} : i8[3,7,13]",
    f"%gm = Gemm(%a2q, %gw, %gb) {{transB=1, {rq(22, 24)}}} : i8[21,13]",
]
C = C_
lines = [ln + " scale(0.02)" if ln.startswith("%") else ln for ln in lines]
for name in [c[0] for c in convs] + ["mm", "gm"]:
    lines.append(f"output %{name}")
with open(os.path.join(here, "dw-int8.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "dw-int8-x.npy"), (rng.standard_normal((2, C, 11, 19)) * 1.2).astype(np.float32))
np.save(os.path.join(here, "dw-int8-a.npy"), (rng.standard_normal((3, 7, 19)) * 1.2).astype(np.float32))
np.save(os.path.join(here, "dw-int8-a2.npy"), (rng.standard_normal((21, 19)) * 1.2).astype(np.float32))
