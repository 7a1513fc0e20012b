# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: sim_tiny_dir
# A reference that differs from the hardware (3x3 windows in model.gir, 2x2
# in the top): exit 1, the first mismatches named by value, y, x, c.
cp -r $WORK/tiny/a $TMP/a
sed -i 's/kernel_shape=\[2,2\], pads=\[0,0,0,0\]/kernel_shape=[3,3], pads=[0,0,1,1]/' $TMP/a/model.gir
set +e; $KILN simulate $TMP/a > /dev/null 2> $TMP/err; rc=$?; set -e
test $rc = 1
grep -q '^  mismatch cold out0 frame 0: value pool y [0-9]* x [0-9]* c [0-9]*: got -*[0-9]*, want -*[0-9]*$' $TMP/err
grep -q '^kiln: simulate: [1-9][0-9]* output bytes differ from the int8 interpreter$' $TMP/err
