#!/usr/bin/env python3
"""Writes cases/seq-dyn.gir and its inputs cases/seq-dyn-{sh,sz,st,lim,dl,li,idx,dep}.npy
(and seq-dyn-dl-zero.npy, a zero Range delta for the error case):
ConstantOfShape, Range and OneHot whose output shapes come from input
data (the shape, the bounds, the depth are graph inputs, as in the ONNX
backend tests), so the CPU program finds each shape when it runs:
ConstantOfShape of f32 and of zeros, one of a zero dim; Range f32 (a
count where rounding adds an element) and i64 (a negative delta); OneHot
of i64 indices with negative and out-of-range ones along axis 1 and the
last axis; and Shape of a ConstantOfShape result (a node reading a value
sized at run time, left to the interpreter).  Run once with
/usr/bin/python3; the outputs are checked in."""
import base64
import os

import numpy as np

from girtext import DT, const

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def tval(arr):
    return f'{DT[arr.dtype.type]}[{arr.size}] base64"{base64.b64encode(arr.tobytes()).decode()}"'


L = ['graph "seq_dyn" opset 17',
     "# Inputs: cases/seq-dyn-{sh,sz,st,lim,dl,li,idx,dep}.npy (cases/seq_dyn.sh).",
     "input %sh : i64[3]", "input %sz : i64[2]", "input %st : f32[]", "input %lim : f32[]",
     "input %dl : f32[]", "input %li : i64[]", "input %idx : i64[3,4]", "input %dep : i64[]",
     const("s64", np.array(20, np.int64).reshape(())), const("d64", np.array(-3, np.int64).reshape(())),
     const("vf", np.array([-0.5, 2.25], np.float32)), const("vi", np.array([3, -9], np.int32)),
     f"%c0 = ConstantOfShape(%sh) {{value={tval(np.array([1.5], np.float32))}}} : f32[?,?,?]",
     "%c1 = ConstantOfShape(%sz) : f32[?,?]",
     "%r0 = Range(%st, %lim, %dl) : f32[?]",
     "%r1 = Range(%s64, %li, %d64) : i64[?]",
     "%o0 = OneHot(%idx, %dep, %vf) {axis=1} : f32[3,?,4]",
     "%o1 = OneHot(%idx, %dep, %vi) : i32[3,4,?]",
     "%cs = Shape(%c0) : i64[3]",
     "output %c0, %c1, %r0, %r1, %o0, %o1, %cs"]
with open(os.path.join(here, "seq-dyn.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
for name, arr in (("sh", np.array([2, 3, 4], np.int64)), ("sz", np.array([3, 0], np.int64)),
                  ("st", np.array(0.3, np.float32)), ("lim", np.array(7.3, np.float32)),
                  ("dl", np.array(0.7, np.float32)), ("li", np.array(-2, np.int64)),
                  ("idx", np.array([[0, 4, -1, -7], [2, 5, -6, 3], [1, 1, 0, -2]], np.int64)),
                  ("dep", np.array(6, np.int64)), ("dl-zero", np.array(0, np.float32))):
    np.save(os.path.join(here, f"seq-dyn-{name}.npy"), arr.reshape(arr.shape))
