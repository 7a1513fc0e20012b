# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# Allocation-failure injection (host-runtime/tests/alloc_fail.c) under
# AddressSanitizer: the Nth allocation fails for every N until the run
# succeeds; each failure returns an out-of-memory error and frees
# everything.
. $HERE/lib.sh
A=$WORK/resdw/a
cc -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-omit-frame-pointer \
    -I$RT $RT/rt.c $RT/json.c $RT/transport/sim.c $RT/transport/uio.c $RT/tests/alloc_fail.c \
    -o $TMP/alloc_fail
serve $A $TMP/s.sock
set +e
$TMP/alloc_fail sim:$TMP/s.sock $A $A/sim/seg0/in0.bin > $TMP/out 2> $TMP/err
rc=$?
set -e
unserve
cat $TMP/out $TMP/err
test $rc = 0
grep -Eq '^alloc_fail: [0-9]+ runs, each failure clean$' $TMP/out
