#!/usr/bin/env python3
"""Writes cases/chain.gir: fp32 Convs followed by elementwise chains that
klv_compile fuses into the Conv's kernel (chain.c), and chains it must
stop, with seeded weights, and cases/chain-input.npy.  Run once with
/usr/bin/python3; the outputs are checked in.

%c1's chain: Add of a value made before it (the residual), Mul by a
one-element constant, Sigmoid, Sub with the chain as second operand, Div by
the input, Clip, Tanh, LeakyRelu, Relu: 9 links, so the first 8 fuse and
%r9 is a kernel of its own.  %c2's Add reads %late, made after %c2: it
fuses into %late instead.  %c3's output is read twice (not fused).  %c4's chain stops at a
graph output (%m4, fused; %n4 after it is not).  %c5, a depthwise Conv
with bias (the row kernel), takes PP-OCR's MobileNet tail: Mul and Add of
one-element constants, HardSwish, Mul, HardSigmoid, all fused (its
weights from a second seed, so the rest is unchanged).  %c6, a blocked
Conv, fuses its Add of the input but not the HardSwish after it (the blocked kernel
stops a chain there)."""
import base64
import os

import numpy as np

rng = np.random.default_rng(77)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def const(name, arr):
    dims = ",".join(str(d) for d in arr.shape)
    data = base64.b64encode(arr.astype("<f4").tobytes()).decode()
    return f'const %{name} : f32[{dims}] = base64"{data}"'


T = "f32[1,8,6,6]"
lines = ['graph "chain" opset 17', f"input %x : {T}"]
for k in (1, 2, 3, 4, 5):
    lines.append(const(f"w{k}", (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(np.float32)))
lines.append(const("k", np.array([0.75], np.float32)))
lines.append(const("lo", np.array(-0.4, np.float32).reshape(())))
lines.append(const("hi", np.array(0.6, np.float32).reshape(())))
pad = "{kernel_shape=[3,3], pads=[1,1,1,1]}"
lines += [
    f"%c0 = Conv(%x, %w1) {pad} : {T}",
    f"%c1 = Conv(%c0, %w2) {pad} : {T}",
    f"%a1 = Add(%c1, %c0) : {T}",
    f"%m1 = Mul(%a1, %k) : {T}",
    f"%s1 = Sigmoid(%m1) : {T}",
    f"%d1 = Sub(%k, %s1) : {T}",
    f"%q1 = Div(%d1, %x) : {T}",
    f"%l1 = Clip(%q1, %lo, %hi) : {T}",
    f"%t1 = Tanh(%l1) : {T}",
    f"%e1 = LeakyRelu(%t1) {{alpha=0.3}} : {T}",
    f"%r9 = Relu(%e1) : {T}",
    f"%c2 = Conv(%x, %w3) {pad} : {T}",
    f"%late = Conv(%x, %w4) {pad} : {T}",
    f"%a2 = Add(%c2, %late) : {T}",
    f"%c3 = Conv(%x, %w5) {pad} : {T}",
    f"%s3 = Sigmoid(%c3) : {T}",
    f"%t3 = Tanh(%c3) : {T}",
    f"%c4 = Conv(%c3, %w5) {pad} : {T}",
    f"%m4 = Mul(%k, %c4) : {T}",
    f"%n4 = Relu(%m4) : {T}",
]
rng5 = np.random.default_rng(78)
lines.insert(lines.index(f"input %x : {T}") + 1, const("w6", (rng5.standard_normal((8, 1, 3, 3)) * 0.5).astype(np.float32)))
lines.insert(lines.index(f"input %x : {T}") + 2, const("b6", (rng5.standard_normal(8) * 0.5).astype(np.float32)))
lines += [
    f"%c5 = Conv(%x, %w6, %b6) {{kernel_shape=[3,3], pads=[1,1,1,1], group=8}} : {T}",
    f"%m5 = Mul(%k, %c5) : {T}",
    f"%a5 = Add(%m5, %lo) : {T}",
    f"%h5 = HardSwish(%a5) : {T}",
    f"%n5 = Mul(%h5, %hi) : {T}",
    f"%g5 = HardSigmoid(%n5) {{alpha=0.3, beta=0.4}} : {T}",
    f"%c6 = Conv(%c0, %w3) {pad} : {T}",
    f"%a6 = Add(%c6, %x) : {T}",
    f"%h6 = HardSwish(%a6) : {T}",
]
for o in ("r9", "a2", "s3", "t3", "m4", "n4", "g5", "h6"):
    lines.append(f"output %{o}")
os.makedirs(here, exist_ok=True)
with open(os.path.join(here, "chain.gir"), "w") as f:
    f.write("\n".join(lines) + "\n")
np.save(os.path.join(here, "chain-input.npy"), (rng.standard_normal((1, 8, 6, 6))).astype(np.float32))
