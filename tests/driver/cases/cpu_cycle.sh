# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 900
# A CPU layer inside what would be one FPGA segment's dataflow (a grouped
# conv between a conv and the [shortcut] Add that joins both on the FPGA:
# the conv feeds the CPU layer and the Add reads its result): the Add is in
# a later segment than the conv (hls/partition.c), which writes its output
# for both the CPU layer and the Add, so kiln compile writes driver/ with
# the schedule segment 0, the CPU partition, segment 1.  kiln-infer runs it
# against kiln simulate --serve: out0.npy byte-identical to kiln run
# --target int8.
. $HERE/lib.sh
cat > $TMP/cyc.cfg <<'CFG'
[net]
width=16
height=16
channels=3

[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
pad=1
activation=leaky

[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
pad=1
groups=2
activation=leaky

[shortcut]
from=-2
activation=linear

[convolutional]
size=1
stride=1
pad=1
filters=18
activation=linear

[yolo]
mask=0,1,2
anchors=10,14,23,27,37,58
classes=1
num=3
CFG
$KILN compile $TMP/cyc.cfg --calib-random 1 --board ultra96v2 --pp-max 1 -o $TMP/a > $TMP/out \
    2> $TMP/err
cat $TMP/out $TMP/err
if grep -q "not written" $TMP/err; then exit 1; fi
grep -q '2 segment(s)' $TMP/out
D=$TMP/a/driver
grep -E 'kd_run_segment|kiln_cpu0\(in' $D/model.c | sed 's/^ *//' > $TMP/order
cat $TMP/order
printf '%s\n' 'if (kd_run_segment(r, 0, timeout_ms, err) < 0)' 'kiln_cpu0(in, out);' \
    'if (kd_run_segment(r, 1, timeout_ms, err) < 0)' | diff - $TMP/order
$PYTHON -c 'import numpy as np; np.save("'$TMP/in.npy'", np.random.default_rng(7).uniform(0, 1, (1, 3, 16, 16)).astype(np.float32))'
$KILN run --target int8 $TMP/a/model.gir -i $TMP/in.npy -o $TMP/r0.npy > /dev/null
cmake -S $D -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $TMP/in.npy -o $TMP/ox > $TMP/run.out
unserve
cat $TMP/run.out
cmp $TMP/ox/out0.npy $TMP/r0.npy
echo "out0.npy: the driver over two segments = int8 interpreter, byte for byte"
