#!/usr/bin/env python3
"""Writes cases/int8-ops.gir: a small graph in the int8 form (docs/quant.md)
whose Conv, Gemm and MatMul nodes take the CPU back end's int8 kernels in
their corner cases, with seeded weights and requantize attributes, and
cases/int8-ops-x.npy, cases/int8-ops-z.npy, its two inputs.  Run once with
/usr/bin/python3; the outputs are checked in.

Conv: input channels 5 and 20 (not multiples of 4, the VNNI kernel's
group), output channels 20 (a partial vector block), padded and not,
stride 2, dilation 2, a 1x1.  Gemm: transA, transB, bias of each broadcast
shape and none, the act_min/act_max clamp.  MatMul: a rank-4 A, a constant
and a computed B.  Per channel: ReLU (m_neg 0), LeakyReLU, identity, and a
shift of 0 (saturates)."""
import os

import numpy as np

from girtext import const, ints

rng = np.random.default_rng(2031)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def rq(ch, shift_lo, shift_hi):
    """Requantize attributes for ch channels: m_pos, m_neg (ReLU, LeakyReLU
    or identity per channel), shifts; channel 0 with shift 0."""
    mp = rng.integers(8000, 32768, ch)
    kind = rng.integers(0, 3, ch)
    mn = np.where(kind == 0, 0, np.where(kind == 1, mp // 8, mp))
    sh = rng.integers(shift_lo, shift_hi + 1, ch)
    mp[0], mn[0], sh[0] = 3, -2, 0
    return f"rq_m_pos={ints(mp)}, rq_m_neg={ints(mn)}, rq_shift={ints(sh)}"


def w8(*shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


def b32(*shape):
    return rng.integers(-40000, 40000, shape).astype(np.int32)


lines = ['graph "int8_ops" opset 17', "input %x : f32[2,5,7,9]", "input %z : f32[9,11]"]
lines.append(const("s", np.array(0.02, np.float32).reshape(())))
lines.append(const("zp", np.array(0, np.int8).reshape(())))
lines.append(const("w1", w8(20, 5, 3, 3)))
lines.append(const("b1", b32(20)))
lines.append(const("w2", w8(6, 20, 3, 3)))
lines.append(const("w3", w8(3, 5, 1, 1)))
lines.append(const("b3", b32(3)))
lines.append(const("w4", w8(16, 20, 3, 3)))
lines.append(const("b4", b32(16)))
lines.append(const("shp", np.array([12, 12], np.int64)))
lines.append(const("g1w", w8(72, 10)))
lines.append(const("g1b", b32(10)))
lines.append(const("g2w", w8(10, 72)))
lines.append(const("g2b", b32(2, 1)))
lines.append(const("g3w", w8(5, 12)))
lines.append(const("g4w", w8(72, 10)))
lines.append(const("g4b", b32(2, 10)))
lines.append(const("g5b", b32(1, 10)))
lines.append(const("m1w", w8(9, 11)))
lines += [
    "%xq = QuantizeLinear(%x, %s, %zp) : i8[2,5,7,9]",
    "%zq = QuantizeLinear(%z, %s, %zp) : i8[9,11]",
    f"%c1 = Conv(%xq, %w1, %b1) {{kernel_shape=[3,3], pads=[1,1,1,1], strides=[1,1], {rq(20, 23, 26)}, act_min=[-5], act_max=[120]}} : i8[2,20,7,9]",
    f"%c2 = Conv(%c1, %w2) {{kernel_shape=[3,3], strides=[2,2], {rq(6, 24, 27)}}} : i8[2,6,3,4]",
    f"%c3 = Conv(%xq, %w3, %b3) {{kernel_shape=[1,1], {rq(3, 22, 24)}}} : i8[2,3,7,9]",
    f"%c4 = Conv(%c1, %w4, %b4) {{kernel_shape=[3,3], pads=[1,2,2,1], dilations=[2,2], {rq(16, 23, 26)}}} : i8[2,16,6,8]",
    "%f = Flatten(%c2) {axis=1} : i8[2,72]",
    f"%g1 = Gemm(%f, %g1w, %g1b) {{{rq(10, 21, 24)}}} : i8[2,10]",
    f"%g2 = Gemm(%f, %g2w, %g2b) {{transB=1, {rq(10, 21, 24)}, act_min=[0], act_max=[100]}} : i8[2,10]",
    "%r = Reshape(%f, %shp) : i8[12,12]",
    f"%g3 = Gemm(%r, %g3w) {{transA=1, transB=1, {rq(5, 22, 24)}}} : i8[12,5]",
    f"%g4 = Gemm(%f, %g4w, %g4b) {{{rq(10, 21, 24)}}} : i8[2,10]",
    f"%g5 = Gemm(%f, %g4w, %g5b) {{{rq(10, 21, 24)}}} : i8[2,10]",
    f"%m1 = MatMul(%c3, %m1w) {{{rq(11, 18, 20)}}} : i8[2,3,7,11]",
    f"%m2 = MatMul(%c3, %zq) {{{rq(11, 18, 20)}}} : i8[2,3,7,11]",
]
# every i8 value carries a scale (what makes a graph the int8 form)
lines = [ln + " scale(0.02)" if ln.startswith("%") else ln for ln in lines]
for o in ("c4", "g1", "g2", "g3", "g4", "g5", "m1", "m2"):
    lines.append(f"output %{o}")
os.makedirs(here, exist_ok=True)
with open(os.path.join(here, "int8-ops.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "int8-ops-x.npy"), (rng.standard_normal((2, 5, 7, 9)) * 1.2).astype(np.float32))
np.save(os.path.join(here, "int8-ops-z.npy"), (rng.standard_normal((9, 11)) * 1.2).astype(np.float32))
