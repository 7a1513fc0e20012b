# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# krt_run cross-compiled with aarch64-linux-gnu-gcc, run under qemu-aarch64
# against the server: the same output bytes as the x86-64 build.  Skipped
# (passes, saying so) when the cross compiler or qemu-aarch64 is absent.
. $HERE/lib.sh
A=$WORK/resdw/a
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed (scripts/install-deps.sh)"
    exit 0
fi
krt_build $TMP/krt_run_a64 aarch64-linux-gnu-gcc
serve $A $TMP/s.sock
qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/krt_run_a64 sim:$TMP/s.sock $A \
    -i $A/sim/seg0/in0.bin -o $TMP/out0.bin > $TMP/run.out
unserve
cat $TMP/run.out
cmp $TMP/out0.bin $A/sim/seg0/out0-want.bin
