#!/usr/bin/env python3
"""Writes the one-node int8 graphs of bench/llvm_dw_matmul_vnni.sh into
DIR: the depthwise Convs and MatMuls of PP-OCRv4 (det at 640x640, rec at
48x320: the shapes as kiln quantize gives them), each as an i8 input, the
node with seeded weights and requantize attributes, and an i8 .npy input.
Prints one line per graph: NAME KIND SHAPE."""
import base64
import sys

import numpy as np

rng = np.random.default_rng(31)
out = sys.argv[1]


def const(name, arr):
    dims = ",".join(str(d) for d in arr.shape)
    dt = {np.int8: "i8", np.uint8: "u8", np.int32: "i32", np.float32: "f32"}[arr.dtype.type]
    return f'const %{name} : {dt}[{dims}] = base64"{base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()}"'


def rq(ch, sh):
    ints = lambda v: "[" + ",".join(str(int(x)) for x in v) + "]"
    mp = rng.integers(16000, 32768, ch)
    return f"rq_m_pos={ints(mp)}, rq_m_neg={ints(mp // 8)}, rq_shift={ints(np.full(ch, sh))}"


def write(name, lines, x):
    with open(f"{out}/{name}.gir", "w") as f:
        f.write("\n".join(lines) + "\n")
    np.save(f"{out}/{name}.npy", x)


# (name, channels, H, W, kernel, stride (y, x)): the input's H, W
dws = [
    ("rec_dw0_3x3_c16", 16, 24, 160, 3, (1, 1)),
    ("rec_dw2_3x3_c64", 64, 24, 160, 3, (1, 1)),
    ("rec_dw3_3x3_c64_s21", 64, 24, 160, 3, (2, 1)),
    ("rec_dw5_3x3_c128_s12", 128, 12, 160, 3, (1, 2)),
    ("rec_dw6_5x5_c240", 240, 12, 80, 5, (1, 1)),
    ("rec_dw11_5x5_c480", 480, 6, 80, 5, (1, 1)),
    ("rec_dw13_5x5_c480", 480, 3, 80, 5, (1, 1)),
    ("det_dw_3x3_c32", 32, 160, 160, 3, (1, 1)),
    ("det_dw_3x3_c64_s2", 64, 160, 160, 3, (2, 2)),
    ("det_dw_5x5_c240", 240, 40, 40, 5, (1, 1)),
    ("det_dw_5x5_c480", 480, 20, 20, 5, (1, 1)),
]
for name, c, h, w, k, s in dws:
    p = k // 2
    oh, ow = (h + 2 * p - k) // s[0] + 1, (w + 2 * p - k) // s[1] + 1
    lines = ['graph "dw" opset 17', f"input %x : i8[1,{c},{h},{w}]",
             const("w", rng.integers(-128, 128, (c, 1, k, k)).astype(np.int8)),
             const("b", rng.integers(-4000, 4000, c).astype(np.int32)),
             f"%y = Conv(%x, %w, %b) {{kernel_shape=[{k},{k}], group={c}, pads=[{p},{p},{p},{p}], "
             f"strides=[{s[0]},{s[1]}], {rq(c, 20)}}} : i8[1,{c},{oh},{ow}] scale(0.02)", "output %y"]
    write(name, lines, rng.integers(-128, 128, (1, c, h, w)).astype(np.int8))
    print(name, "depthwise", f"{c}x{h}x{w} k{k} s{s[0]},{s[1]}")
# the rec's int8 MatMuls: A [1, 40, K] times a constant B [K, N]
for k, n in [(120, 360), (120, 120), (120, 240), (240, 120), (120, 6625)]:
    name = f"rec_matmul_{k}x{n}"
    lines = ['graph "mm" opset 17', f"input %x : i8[1,40,{k}]",
             const("w", rng.integers(-128, 128, (k, n)).astype(np.int8)),
             f"%y = MatMul(%x, %w) {{{rq(n, 22)}}} : i8[1,40,{n}] scale(0.02)", "output %y"]
    write(name, lines, rng.integers(-128, 128, (1, 40, k)).astype(np.int8))
    print(name, "matmul", f"40x{k} * {k}x{n}")
# ONNX's own quantized MatMuls (llvm/kernels_qonnx.c) of a constant B, as a
# dynamically quantized transformer has them (BERT-base: 128 tokens, 768 ->
# 768 and 768 -> 3072; a u8 or i8 B with per-column zero points) and the
# rec's shape in QLinearMatMul; A an input of the graph (u8 or i8)
u8 = lambda *s: rng.integers(0, 256, s).astype(np.uint8)
i8 = lambda *s: rng.integers(-128, 128, s).astype(np.int8)
f32 = lambda v: np.array(v, np.float32)
for name, op, m, k, n, ad, bd in [("mmint_u8u8_768x768", "MatMulInteger", 128, 768, 768, "u8", "u8"),
                                  ("mmint_u8i8_768x3072", "MatMulInteger", 128, 768, 3072, "u8", "i8"),
                                  ("mmint_i8i8_120x360", "MatMulInteger", 40, 120, 360, "i8", "i8"),
                                  ("qlmm_u8i8_768x768", "QLinearMatMul", 128, 768, 768, "u8", "i8"),
                                  ("qlmm_i8u8_120x360", "QLinearMatMul", 40, 120, 360, "i8", "u8")]:
    mk = {"u8": u8, "i8": i8}
    lines = [f'graph "{op}" opset 17', f"input %x : {ad}[1,{m},{k}]", const("w", mk[bd](k, n)),
             const("az", mk[ad](1).reshape(())), const("bz", mk[bd](n) // 8)]
    if op == "MatMulInteger":
        lines.append(f"%y = MatMulInteger(%x, %w, %az, %bz) : i32[1,{m},{n}]")
    else:
        lines += [const("as", f32(0.02).reshape(())), const("bs", (rng.random(n) * 0.01 + 0.001).astype(np.float32)),
                  const("ys", f32(0.9).reshape(())), const("yz", mk[ad](1).reshape(()))]
        lines.append(f"%y = QLinearMatMul(%x, %as, %az, %w, %bs, %bz, %ys, %yz) : {ad}[1,{m},{n}]")
    lines.append("output %y")
    write(name, lines, mk[ad](1, m, k))
    print(name, "qonnx", f"{m}x{k} * {k}x{n} {ad}.{bd}")
# ONNX's own quantized Convs (llvm/kernels_qonnx.c) of a constant w and
# group 1, in the layer shapes of a quantized ResNet-50 (56x56 3x3 64 -> 64,
# a 1x1 256 -> 64, 28x28 stride 2 128 -> 128) and its first layer (224x224,
# 3 channels, stride 2); x an input of the graph (u8 or i8), a per-tensor x
# zero point, w per-channel zero points and scales
for name, op, c, m, h, k, s, xd, wd, gr in [
        ("cvint_u8i8_3x3_c64", "ConvInteger", 64, 64, 56, 3, 1, "u8", "i8", 1),
        ("cvint_u8u8_3x3_c3_s2", "ConvInteger", 3, 32, 224, 3, 2, "u8", "u8", 1),
        ("qlconv_u8i8_1x1_c256", "QLinearConv", 256, 64, 56, 1, 1, "u8", "i8", 1),
        ("qlconv_i8u8_3x3_c128_s2", "QLinearConv", 128, 128, 56, 3, 2, "i8", "u8", 1),
        ("qlconv_grp2_3x3_c128", "QLinearConv", 128, 128, 28, 3, 1, "u8", "i8", 2),
        ("qlconv_grp8_3x3_c128", "QLinearConv", 128, 128, 28, 3, 1, "u8", "i8", 8),
        ("qlconv_grp32_3x3_c128", "QLinearConv", 128, 128, 56, 3, 1, "u8", "i8", 32),
        ("qlconv_dw_3x3_c64", "QLinearConv", 64, 64, 56, 3, 1, "u8", "u8", 64)]:
    mk = {"u8": u8, "i8": i8}
    p = k // 2
    o = (h + 2 * p - k) // s + 1
    attrs = f"{{group={gr}, kernel_shape=[{k},{k}], pads=[{p},{p},{p},{p}], strides=[{s},{s}]}}"
    lines = [f'graph "{op}" opset 17', f"input %x : {xd}[1,{c},{h},{h}]", const("w", mk[wd](m, c // gr, k, k)),
             const("xz", mk[xd](1).reshape(())), const("wz", mk[wd](m) // 16)]
    if op == "ConvInteger":
        lines.append(f"%y = ConvInteger(%x, %w, %xz, %wz) {attrs} : i32[1,{m},{o},{o}]")
    else:
        lines += [const("xs", f32(0.02).reshape(())), const("ws", (rng.random(m) * 0.004 + 0.001).astype(np.float32)),
                  const("ys", f32(0.9).reshape(())), const("yz", mk[xd](1).reshape(())),
                  const("b", rng.integers(-20000, 20000, m).astype(np.int32))]
        lines.append(f"%y = QLinearConv(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b) {attrs} : {xd}[1,{m},{o},{o}]")
    lines.append("output %y")
    write(name, lines, mk[xd](1, c, h, h))
    print(name, "qonnx", f"{c}x{h}x{h} k{k} s{s} -> {m} {xd}.{wd}" + (f" g{gr}" if gr > 1 else ""))
