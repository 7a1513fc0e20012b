# RUN: KILN VERILATOR PYTHON
# FIXTURES_REQUIRED: sim_tiny_dir
# --threads 2 on the tiny top: a Verilator build of its own beside the
# single-threaded one, bit-exact, and result.json equal to the tiny case's
# last run (same input, frames and DDR latency) in every field but the
# host's timing.  The same on a whole network is bench/sim_small_variants.sh.
cp -r $WORK/tiny/a $TMP/a
$KILN simulate $TMP/a -i $WORK/tiny/in.npy --frames 2 --latency 7 --threads 2 > $TMP/out 2> $TMP/err
grep -q 'building the Verilator model' $TMP/err
test "$(ls -d $TMP/a/sim/obj-* | wc -l)" = 2
grep -q '^segment 0: .* 2 frames .*; bit-exact$' $TMP/out
$PYTHON $HERE/same_result.py $WORK/tiny/a/sim/result.json $TMP/a/sim/result.json
