# RUN: KILN PYTHON
# A Darknet [yolo] layer (YoloHead: the logistic on x, y, objectness and
# the classes, w and h as they are) after a conv of 3 x (5 + 2) channels:
# --target cpu compiles every node and with --exact (no fused multiply-add
# in the conv) the output is byte for byte the interpreter's; the w and h channels equal the conv's (a run with the
# [yolo] layer cut off).
cat > $TMP/y.cfg <<'CFG'
[net]
width=8
height=8
channels=3

[convolutional]
filters=21
size=3
stride=1
pad=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,14,23,27,37,58
classes=2
num=3
CFG
head -n 12 $TMP/y.cfg > $TMP/c.cfg
$PYTHON -c "import numpy as np, sys; np.save(sys.argv[1], (4 * np.random.default_rng(7).standard_normal((1, 3, 8, 8))).astype(np.float32))" $TMP/in.npy
$KILN run $TMP/y.cfg -i $TMP/in.npy -o $TMP/ref.npy > /dev/null
$KILN run $TMP/y.cfg -i $TMP/in.npy --target cpu --exact -o $TMP/cpu.npy > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 2 of 2 nodes compiled, 0 in the interpreter;' $TMP/run.err
cmp $TMP/cpu.npy $TMP/ref.npy
$KILN run $TMP/c.cfg -i $TMP/in.npy -o $TMP/conv.npy > /dev/null
$PYTHON - $TMP <<'PY'
import sys
import numpy as np
t = sys.argv[1]
y, c = np.load(f"{t}/cpu.npy"), np.load(f"{t}/conv.npy")
wh = [a * 7 + e for a in range(3) for e in (2, 3)]
rest = [ch for ch in range(21) if ch not in wh]
assert np.array_equal(y[:, wh], c[:, wh]), "w, h changed"
assert np.allclose(y[:, rest], 1 / (1 + np.exp(-c[:, rest].astype(np.float64))), rtol=1e-6, atol=1e-7)
assert not np.array_equal(y[:, rest], c[:, rest])
print("YoloHead: --target cpu byte for byte the interpreter; w, h copied, the rest logistic")
PY
