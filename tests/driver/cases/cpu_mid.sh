# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 900
# A CPU layer between two FPGA segments and a Darknet YoloHead after the
# last one (tests/driver/cpumid_yolo.cfg: a grouped conv the FPGA does not
# take): kiln compile writes the CPU partition as objects for aarch64 and
# x86-64 (cpu0-*.o, cpu0.h) called by model.c between the two segments, the
# same bytes on a second compile.  kiln-infer built for x86-64 and for
# aarch64 (under qemu-aarch64) runs 2 frames against kiln simulate --serve:
# out0.npy byte-identical between the two and to kiln run --target int8,
# detections.json identical.  And the preprocessing is one definition: a
# photo through kiln run --dump-input and through kiln-infer --preprocess
# (both builds) gives the same input bytes.  The aarch64 and photo parts
# are skipped (saying so) when the cross tools or the images are missing.
. $HERE/lib.sh
PRE="--mean 117.001,114.697,97.404 --std 255,254.5,250 --resize pad"
CFG=$HERE/cpumid_yolo.cfg
# the smallest engines (Ultra96-V2, pixel parallelism 1): a Verilator build
# 4x smaller than zcu104's plan (2.5 MB of C++ against 10.6 MB), on the
# fabric clock (--clk2x off: auto would take clk2x there)
BOARD="--board ultra96v2 --pp-max 1 --clk2x off"
$KILN compile $CFG --calib-random 2 $BOARD -o $TMP/a $PRE > $TMP/compile.out
cat $TMP/compile.out
grep -q '2 segment(s)' $TMP/compile.out
$KILN compile $CFG --calib-random 2 $BOARD -o $TMP/a2 $PRE > /dev/null
diff -r $TMP/a/driver $TMP/a2/driver
D=$TMP/a/driver
test -s $D/cpu0-aarch64.o && test -s $D/cpu0-x86_64.o && test -s $D/cpu0.h
grep -q 'set(KD_CPU_PARTS cpu0)' $D/model.cmake
# the schedule: segment 0, the CPU partition, segment 1, the head
grep -E 'kd_run_segment|kiln_cpu0\(in|kd_yolo_head\(' $D/model.c | sed 's/^ *//' > $TMP/order
cat $TMP/order
printf '%s\n' 'if (kd_run_segment(r, 0, timeout_ms, err) < 0)' 'kiln_cpu0(in, out);' \
    'if (kd_run_segment(r, 1, timeout_ms, err) < 0)' 'kd_yolo_head(outputs[0], 18, 256, 1);' |
    diff - $TMP/order
$KILN run --target int8 $TMP/a/model.gir -i $MODELS/cpumid-input.npy -o $TMP/r0.npy > /dev/null
cmake -S $D -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
a64=1
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "aarch64 part skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed"
    a64=0
else
    cmake -S $D -B $TMP/ba -DCMAKE_TOOLCHAIN_FILE=$D/toolchain-aarch64.cmake > /dev/null
    cmake --build $TMP/ba > $TMP/build-a64.log 2>&1 || { cat $TMP/build-a64.log; exit 1; }
    file $TMP/ba/kiln-infer | grep -q aarch64
fi
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/cpumid-input.npy -o $TMP/ox --frames 2 \
    > $TMP/run.out
if [ $a64 = 1 ]; then
    /usr/bin/time -f 'qemu-aarch64: %e s wall' qemu-aarch64 -L /usr/aarch64-linux-gnu \
        $TMP/ba/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/cpumid-input.npy -o $TMP/oa \
        --frames 2 >> $TMP/run.out 2> $TMP/time.out
fi
unserve
cat $TMP/run.out
grep -q '2 frame(s)' $TMP/run.out
cmp $TMP/ox/out0.npy $TMP/r0.npy
if [ $a64 = 1 ]; then
    cat $TMP/time.out
    cmp $TMP/oa/out0.npy $TMP/ox/out0.npy
    cmp $TMP/oa/detections.json $TMP/ox/detections.json
fi
echo "out0.npy: x86-64 = int8 interpreter$([ $a64 = 1 ] && echo ' = aarch64'), byte for byte"
# One preprocessing definition: kiln run's and the driver's input bytes.
if [ ! -f $IMAGES/dog.jpg ]; then
    echo "photo part skipped: $IMAGES/dog.jpg not installed (scripts/install-deps.sh)"
    exit 0
fi
$KILN run --target int8 $TMP/a/model.gir -i $IMAGES/dog.jpg $PRE --dump-input $TMP/run-in.npy \
    -o $TMP/p.npy > /dev/null
$TMP/bx/kiln-infer --preprocess $IMAGES/dog.jpg -o $TMP/px > /dev/null
set -- $TMP/px/input.npy
if [ $a64 = 1 ]; then
    qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/ba/kiln-infer --preprocess $IMAGES/dog.jpg \
        -o $TMP/pa > /dev/null
    set -- "$@" $TMP/pa/input.npy
fi
$PYTHON - $TMP/run-in.npy "$@" <<'PY'
import sys
import numpy as np
ref = np.load(sys.argv[1])
assert ref.dtype == np.float32 and ref.shape == (1, 3, 32, 32), (ref.dtype, ref.shape)
for p in sys.argv[2:]:
    x = np.load(p)
    assert x.dtype == ref.dtype and x.shape == ref.shape, (p, x.dtype, x.shape)
    assert x.tobytes() == ref.tobytes(), (p, float(np.abs(x - ref).max()))
print("dog.jpg: kiln run --dump-input = kiln-infer --preprocess (%d builds), %d bytes"
      % (len(sys.argv) - 2, ref.nbytes))
PY
