# RUN: KILN PYTHON
# TIMEOUT: 60
# Image preprocessing (docs/inputs.md) against an independent computation in
# numpy: PNGs written here from known pixels, kiln run --dump-input writes
# what it feeds the model, numpy computes the same bilinear resize and
# normalization.  Covers up- and downscaling, RGB and RGBA files, --mean,
# --std, --scale, --bgr, --resize pad, --nhwc and --alpha.
$PYTHON - "$KILN" "$MODELS" "$TMP" <<'PY'
import struct, subprocess, sys, zlib
import numpy as np
from onnx import TensorProto, helper
import onnx

kiln, models, tmp = sys.argv[1:4]

def write_png(path, px):
    h, w, c = px.shape
    raw = b"".join(b"\x00" + px[y].tobytes() for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    hdr = struct.pack(">IIBBBBB", w, h, 8, {3: 2, 4: 6}[c], 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", hdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def axis(n_in, n_out):
    s = np.clip((np.arange(n_out) + 0.5) * n_in / n_out - 0.5, 0, n_in - 1)
    lo = np.floor(s).astype(int)
    return lo, np.minimum(lo + 1, n_in - 1), s - lo

def resize(img, H, W):
    img = img.astype(np.float64)
    yl, yh, wy = axis(img.shape[0], H)
    xl, xh, wx = axis(img.shape[1], W)
    wx = wx[None, :, None]
    top = img[yl][:, xl] * (1 - wx) + img[yl][:, xh] * wx
    bot = img[yh][:, xl] * (1 - wx) + img[yh][:, xh] * wx
    return top * (1 - wy)[:, None, None] + bot * wy[:, None, None]

def expected(px, H, W, mean=(0, 0, 0), std=(1, 1, 1), scale=None, bgr=False, pad=False,
             nhwc=False, alpha=False):
    rgb = px[:, :, :3]
    ih, iw = rgb.shape[:2]
    rw, rh = W, H
    if pad:
        s = min(W / iw, H / ih)
        rw = int(min(W, max(1, np.floor(iw * s + 0.5))))
        rh = int(min(H, max(1, np.floor(ih * s + 0.5))))
    img = np.zeros((H, W, 3))
    img[:rh, :rw] = resize(rgb, rh, rw)
    if bgr:
        img = img[:, :, ::-1]
    if alpha:
        img = np.concatenate([img, np.full((H, W, 1), 255.0)], axis=2)
    c = img.shape[2]
    mean = np.array(list(mean) + [0] * (c - len(mean)), dtype=np.float64)
    std = np.array(list(std) + [1] * (c - len(std)), dtype=np.float64)
    x = (img - mean) * scale if scale is not None else (img - mean) / std
    x = x if nhwc else x.transpose(2, 0, 1)
    return x[None].astype(np.float32)

rng = np.random.RandomState(5)
small = rng.randint(0, 256, (11, 13, 3)).astype(np.uint8)   # 13 wide, 11 high
large = rng.randint(0, 256, (70, 50, 4)).astype(np.uint8)   # RGBA, 50 wide, 70 high
write_png(tmp + "/small.png", small)
write_png(tmp + "/large.png", large)

# a 4-channel model for --alpha
node = helper.make_node("Mul", ["x", "one"], ["y"])
g = helper.make_graph([node], "alpha", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
                      initializer=[helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), tmp + "/alpha.onnx")

torch = [models + "/dyn_torch.onnx", "--input-shape", "1,3,32,32"]
tf = [models + "/dyn_tf.onnx", "--input-shape", "1,40,48,3", "--nhwc"]
cases = [
    (torch, "small.png", ["--mean", "123.675,116.28,103.53", "--std", "58.395,57.12,57.375"],
     dict(H=32, W=32, mean=(123.675, 116.28, 103.53), std=(58.395, 57.12, 57.375))),
    (torch, "large.png", ["--bgr", "--mean", "1,2,3", "--scale", "0.00392156862745098", "--resize", "pad"],
     dict(H=32, W=32, bgr=True, mean=(1, 2, 3), scale=0.00392156862745098, pad=True)),
    (tf, "large.png", [], dict(H=40, W=48, nhwc=True)),
    (tf, "small.png", ["--resize", "pad", "--std", "2,4,8"], dict(H=40, W=48, nhwc=True, pad=True, std=(2, 4, 8))),
    ([tmp + "/alpha.onnx"], "small.png", ["--alpha", "--mean", "10,20,30"], dict(H=8, W=8, alpha=True, mean=(10, 20, 30))),
]
for k, (model, img, flags, ref) in enumerate(cases):
    out = "%s/in%d.npy" % (tmp, k)
    cmd = [kiln, "run"] + model + flags + ["-i", tmp + "/" + img, "--dump-input", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    got = np.load(out)
    exp = expected(small if img == "small.png" else large, **ref)
    err = np.abs(got.astype(np.float64) - exp).max()
    print("case %d %s %s: shape %s, max |kiln - numpy| %.3g" % (k, img, " ".join(flags), got.shape, err))
    assert got.shape == exp.shape, (got.shape, exp.shape)
    assert err <= 1e-5 * max(1.0, np.abs(exp).max()), err
PY
