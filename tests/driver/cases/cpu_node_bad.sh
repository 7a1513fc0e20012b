# RUN: KILN
# cpumid (a dilated conv the CPU runs between two FPGA segments): kiln
# compile writes rtl/ but not driver/, with a note naming the CPU node; and
# --anchors that do not fit the outputs, or --std with --scale, are errors.
. $HERE/lib.sh
$KILN quantize $MODELS/cpumid.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err
cat $TMP/err
grep -q "note: driver/ not written: .*node '.*' (Conv) runs on the CPU" $TMP/err
test -d $TMP/a/rtl
test ! -e $TMP/a/driver
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 2 -o $TMP/y.gir > /dev/null
expect_fail "do not split evenly" $KILN compile $TMP/y.gir --board zcu104 -o $TMP/b \
    --detect yolov3 --anchors 10,14,23,27,37,58 --classes 80
test ! -e $TMP/b
expect_fail "give one of --std and --scale" $KILN compile $TMP/y.gir --board zcu104 -o $TMP/b \
    --std 1,1,1 --scale 0.5
