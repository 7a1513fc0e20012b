#!/usr/bin/env python3
"""Writes cases/select.gir, cases/select-obj.gir and their inputs cases/select-{x,v,xi,y,boxes,
scores,maxo,iou}.npy: NonZero, Compress and NonMaxSuppression, whose output extent
depends on the data, through the CPU back end.  x (f32) holds zeros, -0 and
a NaN; NonZero of it, of Relu(x) and of a computed bool; Compress along an
axis, flat and along the last axis (a condition shorter than the axis) and of
i32, each with a computed condition; NonMaxSuppression of Sigmoid scores (ties: scores on
a grid of 1/8) with constant parameters and two-corner boxes in either
order, and with run-time max_output_boxes_per_class and IoU threshold on
center-format boxes; Shape of an NMS result, and the box indices of both
NMS results (Gather) joined (Concat): nodes reading a value of
data-dependent extent, left to the interpreter, their outputs sized by
their runs; cases/select-obj.gir the
same without it, for objects.  Run once with
/usr/bin/python3; the outputs are checked in."""
import os

import numpy as np

from girtext import const

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

L = ['graph "select" opset 17',
     "# Inputs: cases/select-{x,v,xi,y,boxes,scores,maxo,iou}.npy (cases/select.sh).",
     "input %x : f32[3,4,5]", "input %v : f32[6]", "input %xi : i32[2,6,3]", "input %y : f32[4,7]",
     "input %boxes : f32[2,20,4]", "input %scores : f32[2,3,20]",
     "input %maxo : i64[1]", "input %iou : f32[1]",
     const("zero", np.array([0], np.float32)), const("m4", np.array([4], np.int64)),
     const("t5", np.array([0.5], np.float32)), const("s7", np.array([0.7], np.float32)),
     const("c2", np.array(2, np.int64).reshape(())),
     "%r = Relu(%x) : f32[3,4,5]",
     "%nx = NonZero(%x) : i64[3,?]",
     "%nr = NonZero(%r) : i64[3,?]",
     "%c = Greater(%v, %zero) : bool[6]",
     "%nc = NonZero(%c) : i64[1,?]",
     "%ca = Compress(%xi, %c) {axis=1} : i32[2,?,3]",
     "%cf = Compress(%x, %c) : f32[?]",
     "%ry = Relu(%y) : f32[4,7]",
     "%cn = Compress(%ry, %c) {axis=-1} : f32[4,?]",
     "%s = Sigmoid(%scores) : f32[2,3,20]",
     "%k = NonMaxSuppression(%boxes, %s, %m4, %t5, %s7) : i64[?,3]",
     "%kc = NonMaxSuppression(%boxes, %scores, %maxo, %iou) {center_point_box=1} : i64[?,3]",
     "%ks = Shape(%k) : i64[2]",
     "%ki = Gather(%k, %c2) {axis=1} : i64[?]",
     "%kj = Gather(%kc, %c2) {axis=1} : i64[?]",
     "%kk = Concat(%ki, %kj) {axis=0} : i64[?]",
     "output %nx, %nr, %nc, %ca, %cf, %cn, %k, %kc, %ks, %kk"]
with open(os.path.join(here, "select.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
# the same without the Shape, Gather and Concat nodes (an object has no interpreter for a node
# that reads a value of data-dependent extent): cases/aot_select.sh
O = [l for l in L if not l.startswith(("%ks", "%ki", "%kj", "%kk", "output"))]
O[0] = 'graph "select_obj" opset 17'
O[1] = "# Inputs: cases/select-{x,v,xi,y,boxes,scores,maxo,iou}.npy (cases/aot_select.sh)."
O.append("output %nx, %nr, %nc, %ca, %cf, %cn, %k, %kc")
with open(os.path.join(here, "select-obj.gir"), "w") as f:
    f.write("\n".join(O) + "\n")
r = np.random.default_rng(31)
x = r.integers(-2, 3, (3, 4, 5)).astype(np.float32)
x[0, 1, 2] = -0.0
x[2, 3, 4] = np.nan
v = r.standard_normal(6).astype(np.float32)
v[:3] = [1.0, -1.0, 0.5]
# corners in either order, overlapping clusters
ctr = r.uniform(0, 10, (2, 20, 2)).astype(np.float32)
ctr[:, 10:] = ctr[:, :10] + r.uniform(-0.5, 0.5, (2, 10, 2)).astype(np.float32)
wh = r.uniform(1, 3, (2, 20, 2)).astype(np.float32)
a, b = ctr - wh / 2, ctr + wh / 2
swap = r.integers(0, 2, (2, 20, 1)).astype(bool)
boxes = np.concatenate([np.where(swap, b, a), np.where(swap, a, b)], axis=2)[..., [1, 0, 3, 2]]
scores = (r.integers(-16, 17, (2, 3, 20)) / 8).astype(np.float32)
for name, arr in (("x", x), ("v", v), ("xi", r.integers(-9, 10, (2, 6, 3)).astype(np.int32)),
                  ("y", r.standard_normal((4, 7)).astype(np.float32)),
                  ("boxes", boxes.astype(np.float32)), ("scores", scores),
                  ("maxo", np.array([12], np.int64)), ("iou", np.array([0.1], np.float32))):
    np.save(os.path.join(here, f"select-{name}.npy"), arr)
