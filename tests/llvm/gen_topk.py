#!/usr/bin/env python3
"""Writes cases/topk.gir and its inputs cases/topk-{x,xi,xl}.npy: TopK of a
constant K through the CPU back end.  x (f32, values -4..4, so many ties)
holds NaNs and -inf: K 3 largest on the middle axis, all 7 smallest (the
whole axis sorted); xi (i32) K 5 on the last axis and 3 smallest on axis
0; xl (f32, normal) K 5 of 50 on the last axis.  Run once with
/usr/bin/python3; the outputs are checked in."""
import os

import numpy as np

from girtext import const

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

L = ['graph "topk" opset 17', "# Inputs: cases/topk-{x,xi,xl}.npy (cases/topk.sh).",
     "input %x : f32[2,7,3]", "input %xi : i32[4,9]", "input %xl : f32[3,50]",
     const("k3", np.array([3], np.int64)), const("k5", np.array([5], np.int64)),
     const("k7", np.array([7], np.int64)),
     "%a, %ai = TopK(%x, %k3) {axis=1} : f32[2,3,3], i64[2,3,3]",
     "%b, %bi = TopK(%x, %k7) {axis=1, largest=0} : f32[2,7,3], i64[2,7,3]",
     "%c, %ci = TopK(%xi, %k5) : i32[4,5], i64[4,5]",
     "%d, %di = TopK(%xi, %k3) {axis=0, largest=0} : i32[3,9], i64[3,9]",
     "%e, %ei = TopK(%xl, %k5) {axis=-1} : f32[3,5], i64[3,5]",
     "output %a, %ai, %b, %bi, %c, %ci, %d, %di, %e, %ei"]
with open(os.path.join(here, "topk.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
r = np.random.default_rng(3)
x = r.integers(-4, 5, (2, 7, 3)).astype(np.float32)
x[0, 2, 1] = np.nan
x[1, 5, 0] = x[1, 6, 0] = np.nan
x[0, 0, 2] = -np.inf
np.save(os.path.join(here, "topk-x.npy"), x)
np.save(os.path.join(here, "topk-xi.npy"), r.integers(-3, 4, (4, 9)).astype(np.int32))
np.save(os.path.join(here, "topk-xl.npy"), r.standard_normal((3, 50)).astype(np.float32))
