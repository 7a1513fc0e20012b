# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 600
# FIXTURES_SETUP: sim_tiny_dir
# The hand-written top tiny/ (in0 -> 2x2 max pooling -> out0, with the
# templates it instantiates): bit-exact over 3 frames (random inputs) and
# over 2 frames of an .npy input; figures in result.json and one "Measured"
# section in report.md; the second run reuses the Verilator build.  Its
# folder (with the build) is the fixture of the tiny_* cases.
mkdir -p $TMP/a/rtl
cp $HERE/tiny/model.gir $HERE/tiny/plan.json $HERE/tiny/report.md $TMP/a/
cp $HERE/tiny/rtl/* $TMP/a/rtl/
for v in kiln_axi_rd kiln_axi_wr kiln_fifo kiln_maxpool kiln_regfile; do
    cp $SRC/rtl-templates/$v.v $TMP/a/rtl/
done
$KILN simulate $TMP/a --frames 3 > $TMP/out 2> $TMP/err
grep -q '^segment 0: .* 3 frames .*; bit-exact$' $TMP/out
grep -q 'building the Verilator model' $TMP/err
grep -Eq '"bit_exact":[[:space:]]*true' $TMP/a/sim/result.json
grep -Eq '"measured_t_done":[[:space:]]*[1-9]' $TMP/a/sim/result.json
$PYTHON -c 'import numpy as n; n.save("'$TMP'/in.npy", n.random.default_rng(5).random((1,16,8,8), dtype=n.float32))'
$KILN simulate $TMP/a -i $TMP/in.npy --frames 2 --latency 7 > $TMP/out2 2> $TMP/err2
grep -q 'reusing the Verilator build' $TMP/err2
grep -q '^segment 0: .* 2 frames .*; bit-exact$' $TMP/out2
test "$(grep -c '^## Measured' $TMP/a/report.md)" = 1
grep -q '^# tiny' $TMP/a/report.md
