# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: sim_tiny_dir
# A start that never finishes within the cycle cap: exit 1 naming the
# channel still waiting.
cp -r $WORK/tiny/a $TMP/a
set +e; $KILN simulate $TMP/a --cap 100 > /dev/null 2> $TMP/err; rc=$?; set -e
test $rc = 1
grep -q '^kiln: simulate: segment 0: cold: no done after 100 cycles; busy channels: in0 ([0-9]* bursts, [0-9]* beats done, [0-9]* bursts* waiting for R)$' $TMP/err
