# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# The PP-OCRv4 detector on zcu104, simulated bit-exact in Verilator at a
# reduced size (docs/ocr.md, "Simulated in CI"): quantized whole at 1,3,32,32
# (one seeded random calibration input), then cut (bench/gir_cut.py) from
# its quantized input to p2o.Add.247: the stem and the backbone's first
# three blocks (convs, depthwise convs, HardSwish tables) and the neck's
# branch on their 8x8 output (two convs, a squeeze-and-excite with its
# HardSigmoid table, its pool and channel Mul on the CPU, and the residual
# Add): 19 FPGA layers in 3 segments.  The cut compiles end to end with the
# default search (rtl/, vivado/, driver/), and kiln simulate runs 2 frames
# back to back: every output byte of every segment against the int8
# interpreter, every stage's t_done, the interval and the latency within 2%
# of the plan.  Nearly all of the case's time is the Verilator build of
# the 19 engines (bench/ocr_det_sim.sh builds the whole top, 117 layers, in
# 17 minutes).  The cut tool refuses a node the graph does not have.
. $HERE/lib.sh
ocr_need
CUT=$SRC/bench/gir_cut.py
$KILN quantize $DET --input-shape 1,3,32,32 --calib-random 1 -o $TMP/q.gir > /dev/null
set +e
$PYTHON $CUT cut $TMP/q.gir x_q p2o.Add.9999 $TMP/bad.gir 2> $TMP/bad.err
rc=$?
set -e
cat $TMP/bad.err
test $rc = 2
test "$(cat $TMP/bad.err)" = "gir_cut: $TMP/q.gir: no node defines %p2o.Add.9999"
test ! -e $TMP/bad.gir
$PYTHON $CUT cut $TMP/q.gir x_q p2o.Add.247 $TMP/s.gir
test "$(grep -c '= GlobalAveragePool(' $TMP/s.gir)" = 1
$KILN compile $TMP/s.gir --board zcu104 -o $TMP/a | tee $TMP/plan
grep -q ' 19 FPGA layers, 7 CPU nodes, 3 segment(s)$' $TMP/plan
test -f $TMP/a/vivado/build.tcl
test -f $TMP/a/driver/model.c
# every engine kind of the detector's FPGA part but the upsample
for e in kiln_conv=8 kiln_dwconv=3 kiln_lut=7 kiln_add=1; do
    test "$(grep -c "^    ${e%=*} #" $TMP/a/rtl/kiln_top.v)" = "${e#*=}"
done
grep -q '^- p2o.GlobalAveragePool.[0-9]* (GlobalAveragePool): no FPGA engine' $TMP/a/report.md
grep -q '^- p2o.Mul.[0-9]* (Mul): no FPGA engine for Mul$' $TMP/a/report.md
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
test "$(grep -c '^segment [0-2]: .*; bit-exact$' $TMP/out)" = 3
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $SRC/tests/sim/check_cycles.py $TMP/a/sim/result.json 0.02
