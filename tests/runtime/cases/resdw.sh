# RUN: KILN VERILATOR
# TIMEOUT: 1200
# FIXTURES_SETUP: runtime_resdw_dir
# The fp32 resdw compiled for zcu104 in one command (kiln compile quantizes
# it: 2 random calibration inputs), kiln simulate --frames 1 bit-exact on
# that folder; then its Verilator model served by kiln simulate --serve;
# krt_run (libkiln-rt, sim transport) loads the weights, runs 2 frames of
# the input kiln simulate made (done seen by the irq pin: IER set, the
# server's wait follows the pin), and the output image equals kiln
# simulate's expected dump (the int8 interpreter's) byte for byte.  Its
# folder a/ (Verilator build included) is the fixture of the other runtime
# cases.
. $HERE/lib.sh
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib-random 2 -o $TMP/a > /dev/null \
    2> $TMP/compile.err
cat $TMP/compile.err
grep -q "^kiln compile: quantized $MODELS/resdw.onnx to int8: minmax thresholds from 2 seeded random inputs$" $TMP/compile.err
test -s $TMP/a/rtl/weights.bin
$KILN simulate $TMP/a --frames 1 > $TMP/sim.out 2> $TMP/sim.err
grep -q 'every output byte matches the int8 interpreter' $TMP/sim.out
krt_build $TMP/krt_run
serve $TMP/a $TMP/s.sock
$TMP/krt_run sim:$TMP/s.sock $TMP/a -i $TMP/a/sim/seg0/in0.bin -o $TMP/out0.bin --frames 2 \
    > $TMP/run.out
unserve
cat $TMP/run.out
grep -q '^krt_run: 2 frames, [1-9][0-9]* cycles the last, done seen by the interrupt$' $TMP/run.out
cmp $TMP/out0.bin $TMP/a/sim/seg0/out0-want.bin
