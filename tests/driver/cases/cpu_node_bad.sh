# RUN: KILN
# cpumid (a dilated conv the CPU runs between two FPGA segments): kiln
# compile writes driver/ with the conv as CPU partition 0 (its objects and
# header; model.c names the node); --anchors that do not fit the outputs,
# or --std with --scale, are errors.
. $HERE/lib.sh
$KILN quantize $MODELS/cpumid.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err
cat $TMP/err
if grep -q "note: driver/ not written" $TMP/err; then exit 1; fi
test -s $TMP/a/driver/cpu0-x86_64.o
grep -q "CPU partition 0 (cpu0.h): Conv 'conv3'" $TMP/a/driver/model.c
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 2 -o $TMP/y.gir > /dev/null
expect_fail "do not split evenly" $KILN compile $TMP/y.gir --board zcu104 -o $TMP/b \
    --detect yolov3 --anchors 10,14,23,27,37,58 --classes 80
test ! -e $TMP/b
expect_fail "give one of --std and --scale" $KILN compile $TMP/y.gir --board zcu104 -o $TMP/b \
    --std 1,1,1 --scale 0.5
