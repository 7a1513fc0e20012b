#!/usr/bin/env python3
"""Writes cases/qconv-vnni.gir and its inputs cases/qconv-vnni-{xu,xi,x1,xg,z}.npy:
ConvInteger and QLinearConv in the forms of their VNNI kernel
(llvm/kernels_qonnx.c): u8 and i8 x times constant u8 and i8 w in all four
combinations; 6 input channels (a word and a tail of 2 bytes per tap; K =
54) and 3 (a tail alone), 21 output channels (one vector of 16 lanes and
5, or 2 of 8 and 5); output rows of 9, 5 and 3 pixels (blocks of 4, the
last moved back); pads even, uneven and absent, stride 2, dilation 2, a
1-D Conv; group 2 of 5 channels each (11 output channels each) and a
depthwise Conv (the row kernel); zero points absent, one per tensor
(constant or a graph input) and per output channel for w; a bias.  Run once with /usr/bin/python3; the
outputs are checked in."""
import os

import numpy as np

from girtext import Draws, const

draws = Draws(3133, 0.004)
rng = draws.rng
u8, i8, f32 = draws.u8, draws.i8, draws.f32
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


L = ['graph "qconv_vnni" opset 17',
     "# Inputs: cases/qconv-vnni-{xu,xi,x1,xg,z}.npy (cases/qconv_vnni.sh).",
     "input %xu : u8[2,6,7,9]", "input %xi : i8[2,6,7,9]", "input %x1 : i8[1,3,11]", "input %xg : u8[1,10,5,6]",
     "input %z : u8[]"]
for name, arr in [("wu", u8(21, 6, 3, 3)), ("wi", i8(21, 6, 3, 3)), ("w1", i8(21, 3, 3)),
                  ("zxu", np.array(119, np.uint8)), ("zxi", np.array(-21, np.int8)),
                  ("zwu", np.array(133, np.uint8)), ("zwuc", u8(21)), ("zwic", i8(21)),
                  ("zwi", np.array(5, np.int8)), ("b", rng.integers(-30000, 30000, 21).astype(np.int32)),
                  ("sx", np.array(0.02, np.float32)), ("sw", f32(21)), ("sw1", np.array(0.004, np.float32)),
                  ("ys", np.array(0.9, np.float32)), ("yzu", np.array(127, np.uint8)),
                  ("yzi", np.array(-3, np.int8)), ("wgu", u8(22, 5, 3, 3)), ("wgi", i8(22, 5, 3, 3)),
                  ("zwgu", u8(22)), ("zwgi", i8(22)), ("swg", f32(22)), ("bg", rng.integers(-30000, 30000, 22).astype(np.int32)),
                  ("wdw", i8(10, 1, 3, 3))]:
    L.append(const(name, arr))
k3 = "kernel_shape=[3,3]"
L += [
    f"%c0 = ConvInteger(%xu, %wu, %zxu, %zwu) {{{k3}, pads=[1,1,1,1]}} : i32[2,21,7,9]",
    f"%c1 = ConvInteger(%xu, %wi) {{{k3}, strides=[2,2]}} : i32[2,21,3,4]",
    f"%c2 = ConvInteger(%xi, %wu, %zxi, %zwuc) {{{k3}, strides=[2,2], pads=[0,1,2,1]}} : i32[2,21,4,5]",
    f"%c3 = ConvInteger(%xi, %wi, %zxi, %zwic) {{{k3}, pads=[2,2,2,2], dilations=[2,2]}} : i32[2,21,7,9]",
    f"%c4 = ConvInteger(%xu, %wi, %z) {{{k3}, pads=[1,0,1,0], strides=[1,3]}} : i32[2,21,7,3]",
    "%c5 = ConvInteger(%x1, %w1, %zxi, %zwi) {kernel_shape=[3], pads=[1,2]} : i32[1,21,12]",
    f"%q0 = QLinearConv(%xu, %sx, %zxu, %wu, %sw, %zwu, %ys, %yzu, %b) {{{k3}, pads=[1,1,1,1]}} : u8[2,21,7,9]",
    f"%q1 = QLinearConv(%xu, %sx, %z, %wi, %sw1, %zwi, %ys, %yzi) {{{k3}, strides=[2,2], pads=[1,1,1,1]}} : i8[2,21,4,5]",
    f"%q2 = QLinearConv(%xi, %sx, %zxi, %wu, %sw, %zwuc, %ys, %yzu, %b) {{{k3}, pads=[1,2,0,1]}} : u8[2,21,6,10]",
    f"%q3 = QLinearConv(%xi, %sx, %zxi, %wi, %sw, %zwic, %ys, %yzi) {{{k3}, strides=[2,2], pads=[1,0,1,2]}} : i8[2,21,4,5]",
    f"%c6 = ConvInteger(%xg, %wgu, %zxu, %zwgu) {{group=2, {k3}, pads=[1,1,1,1]}} : i32[1,22,5,6]",
    f"%q4 = QLinearConv(%xg, %sx, %z, %wgi, %swg, %zwgi, %ys, %yzi, %bg) {{group=2, {k3}, strides=[2,2], pads=[1,1,1,1]}} : i8[1,22,3,3]",
    f"%c7 = ConvInteger(%xg, %wdw, %zxu) {{group=10, {k3}, pads=[1,1,1,1]}} : i32[1,10,5,6]",
]
outs = ["c0", "c1", "c2", "c3", "c4", "c5", "q0", "q1", "q2", "q3", "c6", "q4", "c7"]
L += [f"output %{v}" for v in outs]
with open(os.path.join(here, "qconv-vnni.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
np.save(os.path.join(here, "qconv-vnni-xu.npy"), u8(2, 6, 7, 9))
np.save(os.path.join(here, "qconv-vnni-xi.npy"), i8(2, 6, 7, 9))
np.save(os.path.join(here, "qconv-vnni-x1.npy"), i8(1, 3, 11))
np.save(os.path.join(here, "qconv-vnni-xg.npy"), u8(1, 10, 5, 6))
np.save(os.path.join(here, "qconv-vnni-z.npy"), np.array(141, np.uint8))
