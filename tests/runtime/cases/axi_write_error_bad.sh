# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# An AXI error response on a DMA write: every write burst of channel out0
# is answered DECERR (KILN_SIM_AXI_ERROR=out0:decerr).  The accelerator's
# ERROR register holds out0's bit and krt_run fails the frame naming out0:
# one line, exit 1, no output written.
. $HERE/lib.sh
A=$WORK/resdw/a
SERVER=
trap unserve EXIT
krt_build $TMP/krt_run
export KILN_SIM_AXI_ERROR=out0:decerr
serve $A $TMP/s.sock
unset KILN_SIM_AXI_ERROR
set +e
timeout 60 $TMP/krt_run sim:$TMP/s.sock $A -i $A/sim/seg0/in0.bin -o $TMP/out.bin \
    > $TMP/out 2> $TMP/err
rc=$?
set -e
unserve
cat $TMP/err
grep -q 'KILN_SIM_AXI_ERROR: every burst of channel out0 answered DECERR' $TMP/serve.log
test $rc = 1
test "$(wc -l < $TMP/err)" = 1
test "$(cat $TMP/err)" = "krt_run: frame 0: segment 0: ERROR register 0x00000080 (an AXI error response on out0)"
test ! -e $TMP/out.bin
