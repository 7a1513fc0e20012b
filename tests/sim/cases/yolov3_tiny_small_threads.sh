# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# FIXTURES_REQUIRED: sim_y3s_dir
# The same design on a 2-thread Verilator model (its own build, beside the
# single-threaded one): every measured cycle and figure equal to the
# single-threaded run's, bit-exact.
y3s=$WORK/yolov3_tiny_small/a
mkdir $TMP/a
cp -r $y3s/plan.json $y3s/model.gir $y3s/report.md $y3s/rtl $TMP/a/
mkdir $TMP/a/sim
cp -r $y3s/sim/obj-* $TMP/a/sim/
$KILN simulate $TMP/a --frames 2 --threads 2 > $TMP/out 2> $TMP/err
grep -q 'building the Verilator model' $TMP/err
test $(ls -d $TMP/a/sim/obj-* | wc -l) = 2
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/same_result.py $y3s/sim/result.json $TMP/a/sim/result.json
