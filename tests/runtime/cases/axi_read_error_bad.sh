# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# An AXI error response on a DMA read: the server's DDR model answers every
# read burst holding 0x1_0000_0000 (the start of the sim transport's DMA
# buffer: weights.bin's first bytes, channel w0) with SLVERR
# (KILN_SIM_AXI_ERROR, docs/simulate.md).  The accelerator still finishes,
# its sticky ERROR register holds w0's bit, and krt_run reports the frame as
# failed naming the channel: one line, exit 1, no output written.
. $HERE/lib.sh
A=$WORK/resdw/a
SERVER=
trap unserve EXIT
krt_build $TMP/krt_run
export KILN_SIM_AXI_ERROR=read@0x100000000
serve $A $TMP/s.sock
unset KILN_SIM_AXI_ERROR
set +e
timeout 60 $TMP/krt_run sim:$TMP/s.sock $A -i $A/sim/seg0/in0.bin -o $TMP/out.bin \
    > $TMP/out 2> $TMP/err
rc=$?
set -e
unserve
cat $TMP/err
grep -q 'KILN_SIM_AXI_ERROR: every read burst holding 0x100000000 answered SLVERR' $TMP/serve.log
test $rc = 1
test "$(wc -l < $TMP/err)" = 1
test "$(cat $TMP/err)" = "krt_run: frame 0: segment 0: ERROR register 0x00000002 (an AXI error response on w0)"
test ! -e $TMP/out.bin
