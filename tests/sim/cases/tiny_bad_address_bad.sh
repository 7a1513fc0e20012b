# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: sim_tiny_dir
# The DDR model refuses a burst outside every buffer (harness job run alone).
set +e; $WORK/tiny/a/sim/obj-*/kiln_sim $HERE/bad_address.job $TMP/res; rc=$?; set -e
test $rc = 1
grep -qx 'error channel in0: read of 128 bytes at 0x10000200 outside every buffer' $TMP/res
