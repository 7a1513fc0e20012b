# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# The server killed while krt_run runs frames: one error line and exit 1
# within the timeout (10 s), never a hang.
. $HERE/lib.sh
A=$WORK/resdw/a
krt_build $TMP/krt_run
serve $A $TMP/s.sock
$TMP/krt_run sim:$TMP/s.sock $A -i $A/sim/seg0/in0.bin -o $TMP/out.bin --frames 100000 \
    > $TMP/out 2> $TMP/err &
client=$!
sleep 2
kill $SERVER
t0=$(date +%s)
set +e
wait $client
rc=$?
set -e
t1=$(date +%s)
cat $TMP/err
test $rc = 1
test $((t1 - t0)) -le 10
test "$(wc -l < $TMP/err)" = 1
grep -Eq '^krt_run: frame [0-9]+: sim:.*: connection lost' $TMP/err
