# RUN: KILN PYTHON
# TopK of a constant K (cases/topk.gir from gen_topk.py): --target cpu
# compiles every node and each output is byte for byte the interpreter's,
# with ties (to the lower index) and NaNs (above every number); the
# interpreter's order is also checked against numpy's stable sort.
g=$HERE/cases/topk.gir
ins=$(for v in x xi xl; do echo "-i $HERE/cases/topk-$v.npy"; done)
outs() { local k; for k in $(seq 0 9); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $ins $(outs ref) > /dev/null
$KILN run $g $ins --target cpu $(outs cpu) > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 5 of 5 nodes compiled, 0 in the interpreter;' $TMP/run.err
for k in $(seq 0 9); do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
$PYTHON - $HERE/cases $TMP <<'PY'
import sys
import numpy as np
c, t = sys.argv[1:]
x, xi, xl = (np.load(f"{c}/topk-{v}.npy") for v in ("x", "xi", "xl"))
def want(a, k, axis, largest):
    # NaN above every number, ties to the lower index (lexsort is stable)
    nan = np.isnan(a)
    v = np.where(nan, 0, a).astype(np.float64)
    keys = (-v, -nan.astype(int)) if largest else (v, nan.astype(int))
    return np.take(np.lexsort(keys, axis=axis), np.arange(k), axis=axis)
cases = [(x, 3, 1, 1, 1), (x, 7, 1, 0, 3), (xi, 5, -1, 1, 5), (xi, 3, 0, 0, 7), (xl, 5, -1, 1, 9)]
for a, k, axis, largest, out in cases:
    got = np.load(f"{t}/ref{out}.npy")
    assert np.array_equal(got, want(a, k, axis, largest)), (out, got, want(a, k, axis, largest))
print("5 TopK nodes: --target cpu byte for byte the interpreter; indices as numpy's stable sort")
PY
