#!/usr/bin/env python3
"""Writes cases/seq-ops.gir and its inputs cases/seq-ops-{idx,s,si,fi,sh}.npy:
ConstantOfShape, Range and OneHot of static output shapes whose data
inputs are graph inputs (constant ones fold away): ConstantOfShape of f32
and i32 values and of none (zeros); Range f32 (a count where rounding adds
an element) and i32 (a negative delta); OneHot of i64 indices with
negative ones and ones out of range (axis 1 and the default -1, f32 and i32
values) and of f32 indices (a NaN, -0.5, axis 0).  Run once with
/usr/bin/python3; the outputs are checked in."""
import base64
import os

import numpy as np

from girtext import DT, const

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def tval(arr):
    return f'{DT[arr.dtype.type]}[{arr.size}] base64"{base64.b64encode(arr.tobytes()).decode()}"'


L = ['graph "seq_ops" opset 17', "# Inputs: cases/seq-ops-{idx,s,si,fi,sh}.npy (cases/seq_ops.sh).",
     "input %idx : i64[3,4]", "input %s : f32[]", "input %si : i32[]", "input %fi : f32[6]",
     "input %sh : i64[2]",
     const("lim", np.array(7.3, np.float32).reshape(())), const("dl", np.array(0.7, np.float32).reshape(())),
     const("l32", np.array(-7, np.int32).reshape(())), const("d32", np.array(-3, np.int32).reshape(())),
     const("dep", np.array(5, np.int64).reshape(())), const("vf", np.array([-0.5, 2.25], np.float32)),
     const("vi", np.array([3, -9], np.int32)), const("dep2", np.array(4.0, np.float32).reshape(())),
     f"%c0 = ConstantOfShape(%sh) {{value={tval(np.array([1.5], np.float32))}}} : f32[2,3]",
     f"%c1 = ConstantOfShape(%sh) {{value={tval(np.array([-7], np.int32))}}} : i32[2,3]",
     "%c2 = ConstantOfShape(%sh) : f32[2,3]",
     "%r0 = Range(%s, %lim, %dl) : f32[11]",
     "%r1 = Range(%si, %l32, %d32) : i32[6]",
     "%o0 = OneHot(%idx, %dep, %vf) {axis=1} : f32[3,5,4]",
     "%o1 = OneHot(%idx, %dep, %vi) : i32[3,4,5]",
     "%o2 = OneHot(%fi, %dep2, %vf) {axis=0} : f32[4,6]",
     "output %c0, %c1, %c2, %r0, %r1, %o0, %o1, %o2"]
with open(os.path.join(here, "seq-ops.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
np.save(os.path.join(here, "seq-ops-idx.npy"), np.array([[0, 4, -1, -5], [2, 5, -6, 3], [1, 1, 0, -2]], np.int64))
np.save(os.path.join(here, "seq-ops-s.npy"), np.array(0.3, np.float32))
np.save(os.path.join(here, "seq-ops-si.npy"), np.array(10, np.int32))
np.save(os.path.join(here, "seq-ops-fi.npy"), np.array([0.7, -1.2, 3.9, np.nan, -0.5, 9.0], np.float32))
np.save(os.path.join(here, "seq-ops-sh.npy"), np.array([2, 3], np.int64))
