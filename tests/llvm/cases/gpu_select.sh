# RUN: KILN
# The gpu target's outputs of data-dependent extent and shape.
# cases/select.gir (NonZero, Compress, NonMaxSuppression: one-thread
# launches writing their extent into a count table, after a launch of
# NMS's (batch, class) pairs in parallel) without the
# Gather and Concat of NMS results, which the gpu target refuses (the
# message below); its Shape of an NMS result the launcher writes.
# cases/seq-dyn.gir (ConstantOfShape, Range, OneHot sized by the launcher
# from their inputs' data, and a Shape of a result) as it is.  Each as PTX
# with its plan (ptx_check: ptxas for sm_90 where it is on PATH) and the
# plan run on this CPU (--target gpu-host) byte for byte the interpreter;
# a zero Range delta is the interpreter's error, exit 2; a Reshape to a
# run-time shape is refused as before.  Without libdevice
# (CI) select.gir's Sigmoid of the NMS scores becomes a Relu.
. $HERE/gpu_lib.sh
lib=${KILN_LIBDEVICE-${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc}
sig=(-e '')
if [ -z "$lib" ] || [ ! -r "$lib" ]; then
    sig=(-e 's/= Sigmoid(/= Relu(/')
    echo "no libdevice: select.gir's Sigmoid as Relu"
fi
sed "${sig[@]}" $HERE/cases/select.gir > $TMP/select-all.gir
"$SRC/tests/cli/expect.sh" 2 "kiln: run: --target gpu: node 'ki': Gather reads 'k' (i64[?,3]), whose extent is known only when the graph runs; the gpu target's kernels have static shapes (a Shape is the one reader it takes)" \
    -- $KILN run $TMP/select-all.gir $(for v in x v xi y boxes scores maxo iou; do
        echo "-i $HERE/cases/select-$v.npy"; done) --target gpu-host
sed -e '/^%k[ijk] = /d' -e 's/^\(output .*\), %kk$/\1/' "${sig[@]}" $HERE/cases/select.gir > $TMP/select.gir
$KILN lower $TMP/select.gir --triple nvptx64-nvidia-cuda -o $TMP/select.ptx
ptx_check $TMP/select "$(grep -c '^%' $TMP/select.gir)"
"$PYTHON" - $TMP/select.json <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
ops = [l["op"] for l in plan["launches"] if "count" in l]
assert sorted(ops) == ["Compress"] * 3 + ["NonMaxSuppression"] * 2 + ["NonZero"] * 3, ops
assert [l["name"] for l in plan["launches"] if l.get("shape")] == ["ks"], plan["launches"]
PY
ins=$(for v in x v xi y boxes scores maxo iou; do echo "-i $HERE/cases/select-$v.npy"; done)
outs() { local k; for k in $(seq 0 8); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $TMP/select.gir $ins $(outs ref) > /dev/null
$KILN run $TMP/select.gir $ins --target gpu-host $(outs host) > $TMP/select.out
for k in $(seq 0 8); do
    cmp $TMP/host$k.npy $TMP/ref$k.npy
done
grep 'output [67] ' $TMP/select.out
echo "select: 9 outputs of the plan run here byte for byte the interpreter"

g=$HERE/cases/seq-dyn.gir
$KILN lower $g --triple nvptx64-nvidia-cuda -o $TMP/seq.ptx
ptx_check $TMP/seq "$(grep -c '^%' $g)"
"$PYTHON" - $TMP/seq.json <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
ops = [l["op"] for l in plan["launches"] if "sized" in l]
assert ops == ["ConstantOfShape"] * 2 + ["Range"] * 2 + ["OneHot"] * 2, ops
sized = [b["value"] for b in plan["buffers"] if b.get("sized")]
assert sized == ["c0", "c1", "r0", "r1", "o0", "o1"], sized
PY
ins() { local v; for v in sh sz st lim $1 li idx dep; do echo "-i $HERE/cases/seq-dyn-$v.npy"; done; }
outs() { local k; for k in $(seq 0 6); do echo "-o $TMP/$1$k.npy"; done; }
$KILN run $g $(ins dl) $(outs sref) > /dev/null
$KILN run $g $(ins dl) --target gpu-host $(outs shost) > /dev/null
for k in $(seq 0 6); do
    cmp $TMP/shost$k.npy $TMP/sref$k.npy
done
echo "seq-dyn: 7 outputs of the plan run here byte for byte the interpreter"
# (after the line of compile figures)
rc=0
$KILN run $g $(ins dl-zero) --target gpu-host > /dev/null 2> $TMP/bad.err || rc=$?
cat $TMP/bad.err
test $rc = 2
test "$(tail -n 1 $TMP/bad.err)" = "kiln: run: --target gpu-host: node 'r0': Range: delta must be nonzero and all inputs finite"
test "$(wc -l < $TMP/bad.err)" = 2
# any other value of no static shape (a Reshape to a shape that is an
# input) is still refused
printf '%s\n' 'graph "rs" opset 17' 'input %x : f32[6]' 'input %s : i64[2]' \
    '%y = Reshape(%x, %s) : f32[?,?]' 'output %y' > $TMP/rs.gir
"$SRC/tests/cli/expect.sh" 2 "kiln: lower: the gpu target needs static shapes: value 'y' is f32[?,?]" \
    -- $KILN lower $TMP/rs.gir --triple nvptx64-nvidia-cuda -o $TMP/rs.ptx
