# RUN: KILN VERILATOR
# TIMEOUT: 600
# FIXTURES_REQUIRED: driver_yolo_dir
# The driver cross-compiled with its toolchain-aarch64.cmake
# (aarch64-linux-gnu-gcc) and run under qemu-aarch64 against the server:
# out0.npy, out1.npy and detections.json byte-identical to the x86-64
# build's (and so to the int8 interpreter's).  Skipped (passes, saying so)
# when the cross compiler or qemu-aarch64 is absent.
. $HERE/lib.sh
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed (scripts/install-deps.sh)"
    exit 0
fi
cmake -S $F/a/driver -B $TMP/ba -DCMAKE_TOOLCHAIN_FILE=$F/a/driver/toolchain-aarch64.cmake \
    > /dev/null
cmake --build $TMP/ba > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
file $TMP/ba/kiln-infer | grep -q aarch64
serve $F/a $TMP/s.sock
/usr/bin/time -f '%e s wall' qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/ba/kiln-infer \
    sim:$TMP/s.sock -m $F/a $F/in.npy -o $TMP/oa --frames 2 > $TMP/run.out 2> $TMP/time.out
unserve
cat $TMP/run.out $TMP/time.out
cmp $TMP/oa/out0.npy $F/ox/out0.npy
cmp $TMP/oa/out1.npy $F/ox/out1.npy
cmp $TMP/oa/out0.npy $F/r0.npy
cmp $TMP/oa/detections.json $F/ox/detections.json
