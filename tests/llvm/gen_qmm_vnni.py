#!/usr/bin/env python3
"""Writes cases/qmm-vnni.gir and its inputs cases/qmm-vnni-{au,ai,bu,a2,z}.npy:
MatMulInteger and QLinearMatMul in the shapes and operand forms of their
VNNI kernel (llvm/kernels_qonnx.c): u8 and i8 a times u8 and i8 b in all
four combinations; M = 5 (a row block of 4 moved back to end at M), K = 19
(4 words and a tail of 3 bytes), N = 21 (one whole vector of 16 lanes and
5 more, or 2 of 8 and 5); zero points absent, one per tensor, per row of
a and per column of b, constant or graph inputs; a constant b and a
computed, batched b (each batch of a times its b); K = 2 (a tail alone)
and N = 37.  Run once with /usr/bin/python3; the outputs are checked in."""
import os

import numpy as np

from girtext import Draws, const

draws = Draws(3132, 0.02)
rng = draws.rng
u8, i8, f32 = draws.u8, draws.i8, draws.f32
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


L = ['graph "qmm_vnni" opset 17',
     "# Inputs: cases/qmm-vnni-{au,ai,bu,a2,z}.npy (cases/qmm_vnni.sh).",
     "input %au : u8[2,5,19]", "input %ai : i8[2,5,19]", "input %bu : u8[2,19,21]",
     "input %a2 : i8[3,2]", "input %z : u8[]"]
for name, arr in [("cu", u8(19, 21)), ("ci", i8(19, 21)), ("zau", np.array(117, np.uint8)),
                  ("zai", i8(5)), ("zai1", np.array(-9, np.int8)), ("zbu", u8(21)), ("zbi", i8(21)),
                  ("zbi1", np.array(7, np.int8)), ("c2", i8(2, 37)), ("sa", np.array(0.03, np.float32)),
                  ("sar", f32(5)), ("sb", f32(21)), ("sb1", np.array(0.015, np.float32)),
                  ("ys", np.array(0.6, np.float32)), ("yzu", np.array(131, np.uint8)),
                  ("yzi", np.array(-4, np.int8))]:
    L.append(const(name, arr))
L += [
    "%m0 = MatMulInteger(%au, %cu, %zau, %zbu) : i32[2,5,21]",
    "%m1 = MatMulInteger(%au, %ci) : i32[2,5,21]",
    "%m2 = MatMulInteger(%ai, %cu, %zai) : i32[2,5,21]",
    "%m3 = MatMulInteger(%ai, %ci, %zai1, %zbi) : i32[2,5,21]",
    "%m4 = MatMulInteger(%au, %bu, %z, %z) : i32[2,5,21]",
    "%m5 = MatMulInteger(%a2, %c2, %zai1, %zbi1) : i32[3,37]",
    "%q0 = QLinearMatMul(%au, %sa, %zau, %cu, %sb, %zbu, %ys, %yzu) : u8[2,5,21]",
    "%q1 = QLinearMatMul(%au, %sa, %z, %ci, %sb1, %zbi, %ys, %yzi) : i8[2,5,21]",
    "%q2 = QLinearMatMul(%ai, %sar, %zai, %cu, %sb, %zbu, %ys, %yzu) : u8[2,5,21]",
    "%q3 = QLinearMatMul(%ai, %sa, %zai1, %ci, %sb, %zbi1, %ys, %yzi) : i8[2,5,21]",
    "%q4 = QLinearMatMul(%ai, %sa, %zai1, %bu, %sb1, %z, %ys, %yzu) : u8[2,5,21]",
]
L += [f"output %{v}" for v in ["m0", "m1", "m2", "m3", "m4", "m5", "q0", "q1", "q2", "q3", "q4"]]
with open(os.path.join(here, "qmm-vnni.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
np.save(os.path.join(here, "qmm-vnni-au.npy"), u8(2, 5, 19))
np.save(os.path.join(here, "qmm-vnni-ai.npy"), i8(2, 5, 19))
np.save(os.path.join(here, "qmm-vnni-bu.npy"), u8(2, 19, 21))
np.save(os.path.join(here, "qmm-vnni-a2.npy"), i8(3, 2))
np.save(os.path.join(here, "qmm-vnni-z.npy"), np.array(141, np.uint8))
