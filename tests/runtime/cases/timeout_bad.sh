# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# An accelerator not done within the timeout: with --timeout 5 (5 ms; the
# server lets the model run 5000 cycles, a resdw frame takes about 10000)
# krt_run gives one line naming STATUS (still busy) and exits 1.
. $HERE/lib.sh
A=$WORK/resdw/a
krt_build $TMP/krt_run
serve $A $TMP/s.sock
set +e
$TMP/krt_run sim:$TMP/s.sock $A -i $A/sim/seg0/in0.bin -o $TMP/out.bin --timeout 5 \
    > $TMP/out 2> $TMP/err
rc=$?
set -e
unserve
cat $TMP/err
test $rc = 1
test "$(wc -l < $TMP/err)" = 1
grep -q '^krt_run: frame 0: segment 0: no done within 5 ms (STATUS 0x1, ERROR 0x0)$' $TMP/err
