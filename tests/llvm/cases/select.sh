# RUN: KILN PYTHON
# NonZero, Compress and NonMaxSuppression, outputs of data-dependent extent
# (cases/select.gir from gen_select.py): --target cpu compiles them (each
# output sized by its run) and every output is byte for byte the
# interpreter's; the Shape of an NMS result and the box indices of both
# NMS results (two Gathers) joined by a Concat (their outputs sized by
# their runs) run in the interpreter.
# NonZero and Compress are also checked against numpy.
g=$HERE/cases/select.gir
ins=$(for v in x v xi y boxes scores maxo iou; do echo "-i $HERE/cases/select-$v.npy"; done)
outs() { local k; for k in $(seq 0 9); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $ins $(outs ref) > /dev/null
$KILN run $g $ins --target cpu $(outs cpu) > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 12 of 16 nodes compiled, 4 in the interpreter;' $TMP/run.err
for k in $(seq 0 9); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
$PYTHON - $HERE/cases $TMP <<'PY'
import sys
import numpy as np
c, t = sys.argv[1:]
x, v, xi, y = (np.load(f"{c}/select-{n}.npy") for n in ("x", "v", "xi", "y"))
got = [np.load(f"{t}/cpu{k}.npy") for k in range(10)]
cond = v > 0
want = [np.array(np.nonzero(x)), np.array(np.nonzero(np.maximum(x, 0))), np.array(np.nonzero(cond)),
        np.compress(cond, xi, axis=1), np.compress(cond, x), np.compress(cond, np.maximum(y, 0), axis=-1)]
for k, w in enumerate(want):
    assert got[k].shape == w.shape and np.array_equal(got[k], w, equal_nan=True), (k, got[k], w)
assert got[6].shape[1] == 3 and 0 < got[6].shape[0] <= 24 and list(got[8]) == list(got[6].shape)
assert np.array_equal(got[9], np.concatenate([got[6][:, 2], got[7][:, 2]]))
assert got[7].shape[1] == 3 and 0 < got[7].shape[0] <= 72
print(f"NonZero, Compress as numpy; NMS kept {got[6].shape[0]} and {got[7].shape[0]} boxes")
PY
