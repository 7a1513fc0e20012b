# RUN: KILN PYTHON
# The fp32 blocked Conv reads its input in place and skips the taps that
# fall into the padding in its loops (no zero-bordered copy): the kernel
# rows of a border output row by bounds worked out per row, the columns by
# a copy of the taps for each block at a row's end, with its pixels' taps
# outside left out.  Convs of asymmetric pads, dilations, a column stride
# of 2, pads wider than the kernel reaches (output rows and columns whose
# every tap is padding: the bias alone) and a ragged last oc block, in
# both kernel forms (pixel lanes, out=3, and channel lanes): with --exact
# every output is the interpreter's byte for byte, by default within 1e-5
# relative L2; kiln tune's random schedules (each checked against the
# interpreter) run the other forms and pixel counts.  A 2x2 stride-2
# MaxPool after a pixel-lane Conv (%pp, ragged oc block, its last pixel
# block moved back) is fused into it (chain.c): one node fused, the
# pooled output the interpreter's byte for byte.  A 320 -> 20 3x3 Conv
# (%cc, after a 1x1 one widening the input; 184 KB of weights per oc
# block) runs its input channels in chunks over every row, the partial
# sums kept on the stack between chunks: the same bits.
$PYTHON - "$TMP" <<'PY'
import base64, sys
import numpy as np
rng = np.random.default_rng(11)
def const(name, a):
    dims = ",".join(str(d) for d in a.shape)
    return f'const %{name} : f32[{dims}] = base64"{base64.b64encode(a.astype("<f4").tobytes()).decode()}"'
C, H, W = 5, 17, 39
L = ['graph "borders" opset 17', f"input %x : f32[1,{C},{H},{W}]"]
convs = [  # name, M, kernel, pads (t, l, b, r), strides, dilations
    ("pa", 19, 3, [2, 0, 1, 3], [1, 1], [1, 1]),
    ("pd", 21, 3, [3, 4, 3, 4], [2, 1], [2, 3]),
    ("cs", 20, 3, [1, 2, 1, 2], [1, 2], [1, 1]),
    ("cw", 18, 3, [4, 1, 4, 5], [1, 2], [1, 1]),
    ("pw", 7, 5, [4, 5, 6, 4], [1, 1], [1, 1]),
    ("cb", 33, 7, [3, 3, 3, 3], [1, 1], [1, 2]),
    ("pp", 19, 3, [1, 1, 2, 2], [1, 1], [1, 1]),
]
for name, M, k, p, s, d in convs:
    L.append(const("w" + name, 0.3 * rng.standard_normal((M, C, k, k))))
    L.append(const("b" + name, rng.standard_normal(M)))
for name, M, k, p, s, d in convs:
    oh = (H + p[0] + p[2] - d[0] * (k - 1) - 1) // s[0] + 1
    ow = (W + p[1] + p[3] - d[1] * (k - 1) - 1) // s[1] + 1
    ints = lambda v: "[" + ",".join(map(str, v)) + "]"
    L.append(f"%{name} = Conv(%x, %w{name}, %b{name}) {{kernel_shape=[{k},{k}], pads={ints(p)}, "
             f"strides={ints(s)}, dilations={ints(d)}}} : f32[1,{M},{oh},{ow}]")
L.append("%mp = MaxPool(%pp) {kernel_shape=[2,2], strides=[2,2]} : f32[1,19,9,20]")
L.append(const("ww", 0.3 * rng.standard_normal((320, C, 1, 1))))
L.append(const("wc", 0.05 * rng.standard_normal((20, 320, 3, 3))))
L.append(const("bc", rng.standard_normal(20)))
L.append(f"%wide = Conv(%x, %ww) {{kernel_shape=[1,1]}} : f32[1,320,{H},{W}]")
L.append(f"%cc = Conv(%wide, %wc, %bc) {{kernel_shape=[3,3], pads=[1,2,1,0]}} : f32[1,20,{H},{W}]")
L += [f"output %{c[0]}" for c in convs[:-1]] + ["output %mp", "output %cc"]
open(sys.argv[1] + "/b.gir", "w").write("\n".join(L) + "\n")
np.save(sys.argv[1] + "/in.npy", (2 * rng.standard_normal((1, C, H, W))).astype(np.float32))
PY
c=() r=() d=()
for k in 0 1 2 3 4 5 6 7; do
    c+=(-o $TMP/exact$k.npy) r+=(-o $TMP/ref$k.npy) d+=(-o $TMP/cpu$k.npy)
done
$KILN run $TMP/b.gir -i $TMP/in.npy "${r[@]}" > /dev/null
$KILN run $TMP/b.gir -i $TMP/in.npy --target cpu --exact "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q '^kiln: cpu: 1 elementwise nodes fused into the Conv before them$' $TMP/run.err
$KILN run $TMP/b.gir -i $TMP/in.npy --target cpu "${d[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do
    cmp $TMP/exact$k.npy $TMP/ref$k.npy
    $KILN compare $TMP/cpu$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
done
$KILN tune $TMP/b.gir --trials 1 -q --records $TMP/r.jsonl > $TMP/tune.txt
cat $TMP/tune.txt
grep -q '^1 .* out=3 ' $TMP/tune.txt
grep -q '^2 .* out=3 ' $TMP/tune.txt
grep -Eq '^3 .* out=[124] ' $TMP/tune.txt
grep -Eq '^4 .* out=[124] ' $TMP/tune.txt
$KILN tune $TMP/b.gir --trials 4 -q --records $TMP/r.jsonl > /dev/null
if grep -q '"ok":false' $TMP/r.jsonl; then grep '"ok":false' $TMP/r.jsonl; exit 1; fi
echo "padding in the loops: --exact byte for byte the interpreter, the default and $(wc -l < $TMP/r.jsonl) tuned schedules within 1e-5"
