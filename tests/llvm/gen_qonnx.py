#!/usr/bin/env python3
"""Writes cases/qonnx.gir: ONNX's quantized ops and the other ops lowered
with them, in their corner cases, and its inputs cases/qonnx-x.npy,
qonnx-l.npy, qonnx-ys.npy (and qonnx-l-bad.npy, a sequence length out of
range, qonnx-ys-bad.npy, a y_scale of 0).  Run once with /usr/bin/python3;
the outputs are checked in, with cases/qonnx-guard.gir (the guarded
nodes alone, for the refused inputs).

DynamicQuantizeLinear of x feeds u8 data and its zero point into
ConvInteger (groups, stride, dilation, uneven pads, a per-channel u8
weight zero point), QLinearConv (i8 weights, per-channel scales and zero
points, bias) and MatMulInteger (a per-column zero point); QuantizeLinear
feeds i8 data into ConvInteger without zero points and QLinearMatMul
(computed y_scale, per-column scales and zero points).  Also
MeanVarianceNormalization (default and other axes), LRN of an even size,
ConvTranspose 1-D and 3-D (group 2), ReverseSequence of computed lengths,
GridSample (nearest with reflection and align_corners, bilinear with
zeros, bicubic with border and with reflection; grid points up to 1.4
outside [-1, 1]), Einsum (a batched product, a sum over two axes, an
ellipsis diagonal), MaxUnpool of MaxPool's indices, Det, RoiAlign (avg with half_pixel and
its own grid, max with output_half_pixel and sampling_ratio 2; a box
past the map)."""
import os

import numpy as np

from girtext import const

rng = np.random.default_rng(3131)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def u8(*shape):
    return rng.integers(0, 256, shape).astype(np.uint8)


def i8(*shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


L = ['graph "qonnx" opset 17',
     "# Inputs: cases/qonnx-{x,l,ys}.npy; l-bad.npy holds a length out of range, ys-bad.npy a y_scale of 0 (cases/qonnx.sh).",
     "input %x : f32[2,4,5,6]", "input %l : i64[2]", "input %ys : f32[]"]
L.append(const("s8", np.array(0.02, np.float32).reshape(())))
L.append(const("z8", np.array(3, np.int8).reshape(())))
L.append(const("wu", u8(6, 2, 3, 3)))
L.append(const("wuz", u8(6)))
L.append(const("wi", i8(3, 4, 1, 1)))
L.append(const("wq", i8(5, 4, 3, 3)))
L.append(const("wqs", (rng.random(5) * 0.01 + 0.001).astype(np.float32)))
L.append(const("wqz", i8(5) // 16))
L.append(const("qys", np.array(0.5, np.float32).reshape(())))
L.append(const("yz", np.array(128, np.uint8).reshape(())))
L.append(const("bq", rng.integers(-3000, 3000, 5).astype(np.int32)))
L.append(const("bu", u8(6, 7)))
L.append(const("buz", u8(7)))
L.append(const("bi", i8(6, 3)))
L.append(const("bis", (rng.random(3) * 0.02 + 0.005).astype(np.float32)))
L.append(const("biz", i8(3) // 8))
L.append(const("yz8", np.array(-5, np.int8).reshape(())))
L.append(const("s3", np.array([2, 4, 30], np.int64)))
L.append(const("s5", np.array([2, 4, 5, 2, 3], np.int64)))
L.append(const("sr", np.array([5, 2, 24], np.int64)))
L.append(const("sq", np.array([15, 4, 4], np.int64)))
L.append(const("su", np.array([2, 5, 4, 6], np.int64)))
L.append(const("rois", np.array([[1, 1, 7, 9], [-2, -1, 14, 11], [3.5, 0.5, 6, 4.25]], np.float32)))
L.append(const("rb", np.array([0, 1, 1], np.int64)))
L.append(const("tw1", rng.standard_normal((4, 2, 3)).astype(np.float32)))
L.append(const("tb1", rng.standard_normal(2).astype(np.float32)))
L.append(const("tw3", rng.standard_normal((4, 1, 2, 2, 2)).astype(np.float32)))
L.append(const("grid", (rng.random((2, 3, 4, 2)) * 2.8 - 1.4).astype(np.float32)))
L += [
    "%dq, %dqs, %dqz = DynamicQuantizeLinear(%x) : u8[2,4,5,6], f32[], u8[]",
    "%qi = QuantizeLinear(%x, %s8, %z8) : i8[2,4,5,6]",
    "%ci = ConvInteger(%dq, %wu, %dqz, %wuz) {group=2, kernel_shape=[3,3], strides=[2,1], pads=[1,1,0,2], dilations=[1,2]} : i32[2,6,2,5]",
    "%ci2 = ConvInteger(%qi, %wi) {kernel_shape=[1,1]} : i32[2,3,5,6]",
    "%qc = QLinearConv(%dq, %dqs, %dqz, %wq, %wqs, %wqz, %qys, %yz, %bq) {kernel_shape=[3,3], pads=[1,1,1,1]} : u8[2,5,5,6]",
    "%mi = MatMulInteger(%dq, %bu, %dqz, %buz) : i32[2,4,5,7]",
    "%qm = QLinearMatMul(%qi, %s8, %z8, %bi, %bis, %biz, %ys, %yz8) : i8[2,4,5,3]",
    "%mv = MeanVarianceNormalization(%x) : f32[2,4,5,6]",
    "%mv2 = MeanVarianceNormalization(%x) {axes=[1,3]} : f32[2,4,5,6]",
    "%lr = LRN(%x) {size=4, alpha=0.001, beta=0.6, bias=2.0} : f32[2,4,5,6]",
    "%x3 = Reshape(%x, %s3) : f32[2,4,30]",
    "%ct1 = ConvTranspose(%x3, %tw1, %tb1) {kernel_shape=[3], strides=[2], pads=[1,0], output_padding=[1]} : f32[2,2,61]",
    "%x5 = Reshape(%x, %s5) : f32[2,4,5,2,3]",
    "%ct3 = ConvTranspose(%x5, %tw3) {group=2, kernel_shape=[2,2,2], strides=[1,2,1]} : f32[2,2,6,4,4]",
    "%xr = Reshape(%x, %sr) : f32[5,2,24]",
    "%rs = ReverseSequence(%xr, %l) {batch_axis=1, time_axis=0} : f32[5,2,24]",
    '%gs1 = GridSample(%x, %grid) {mode="nearest", padding_mode="reflection", align_corners=1} : f32[2,4,3,4]',
    "%gs2 = GridSample(%x, %grid) : f32[2,4,3,4]",
    '%gs3 = GridSample(%x, %grid) {mode="bicubic", padding_mode="border"} : f32[2,4,3,4]',
    '%gs4 = GridSample(%x, %grid) {mode="bicubic", padding_mode="reflection"} : f32[2,4,3,4]',
    '%e1 = Einsum(%x, %x) {equation="bcij,bckj->bcik"} : f32[2,4,5,5]',
    '%e2 = Einsum(%x) {equation="bcij->cj"} : f32[4,6]',
    "%xq = Reshape(%x, %sq) : f32[15,4,4]",
    '%e3 = Einsum(%xq) {equation="...ii->...i"} : f32[15,4]',
    "%xu = Reshape(%x, %su) : f32[2,5,4,6]",
    "%mp, %mpi = MaxPool(%xu) {kernel_shape=[2,2], strides=[2,2]} : f32[2,5,2,3], i64[2,5,2,3]",
    "%mu = MaxUnpool(%mp, %mpi) {kernel_shape=[2,2], strides=[2,2]} : f32[2,5,4,6]",
    "%dt = Det(%xq) : f32[15]",
    "%ra1 = RoiAlign(%x, %rois, %rb) {output_height=3, output_width=2, spatial_scale=0.5} : f32[3,4,3,2]",
    '%ra2 = RoiAlign(%x, %rois, %rb) {mode="max", sampling_ratio=2, coordinate_transformation_mode="output_half_pixel", output_height=2, output_width=2} : f32[3,4,2,2]',
]
for o in ["dq", "dqs", "dqz", "ci", "ci2", "qc", "mi", "qm", "mv", "mv2", "lr", "ct1", "ct3", "rs", "gs1", "gs2", "gs3", "gs4", "e1", "e2", "e3", "mu", "dt", "ra1", "ra2"]:
    L.append(f"output %{o}")
with open(os.path.join(here, "qonnx.gir"), "w") as f:
    f.write("\n".join(L) + "\n")
# cases/qonnx-guard.gir: the two guarded nodes alone (their inputs as in
# qonnx.gir), so the refused inputs compile a small graph
G = [l for l in L[:5]] + [l for l in L if l.startswith(("const %s8 ", "const %z8 ", "const %bi", "const %yz8 ", "const %sr "))]
G[0] = 'graph "qonnx_guard" opset 17'
G[1] = "# The guarded nodes of qonnx.gir alone; inputs cases/qonnx-{x,l,ys}.npy and the -bad ones (cases/qonnx.sh)."
G += [l for l in L if l.startswith(("%qi ", "%qm ", "%xr ", "%rs "))] + ["output %qm", "output %rs"]
with open(os.path.join(here, "qonnx-guard.gir"), "w") as f:
    f.write("\n".join(G) + "\n")
np.save(os.path.join(here, "qonnx-x.npy"), (rng.standard_normal((2, 4, 5, 6)) * 2).astype(np.float32))
np.save(os.path.join(here, "qonnx-l.npy"), np.array([3, 5], np.int64))
np.save(os.path.join(here, "qonnx-l-bad.npy"), np.array([3, 6], np.int64))
np.save(os.path.join(here, "qonnx-ys.npy"), np.array(0.75, np.float32))
np.save(os.path.join(here, "qonnx-ys-bad.npy"), np.array(0.0, np.float32))
