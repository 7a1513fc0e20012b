# RUN: KILN
# A failing compile over a complete DIR leaves it as it was, file for file,
# with no temporary folder beside it: when the RTL cannot be generated, and
# when calibration fails.  A successful compile over a DIR that kiln
# simulate added sim/ to replaces it whole, nothing left beside it.
{
    echo 'graph "fan" opset 13'
    echo 'input %x : f32[1,8,8,8]'
    echo '%c = MaxPool(%x) {kernel_shape=[1,1], strides=[1,1]} : f32[1,8,8,8]'
    for i in $(seq 1 64); do
        echo "%p$i = MaxPool(%c) {kernel_shape=[2,2], strides=[2,2]} : f32[1,8,4,4]"
    done
    for i in $(seq 1 64); do echo "output %p$i"; done
} > $TMP/fan.gir
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib-random 1 -o $TMP/a > /dev/null 2>&1
(cd $TMP/a && find . -type f | sort | xargs md5sum) > $TMP/before
set +e
$KILN compile $TMP/fan.gir --board zcu104 --calib-random 1 -o $TMP/a > /dev/null 2> $TMP/err1
rc1=$?
mkdir -p $TMP/empty
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib $TMP/empty -o $TMP/a > /dev/null 2> $TMP/err2
rc2=$?
set -e
cat $TMP/err1 $TMP/err2
test $rc1 = 2
test $rc2 = 2
grep -q '^kiln: compile: rtl/ cannot be generated for this plan: rtl: c: more than 63 consumers' $TMP/err1
test "$(cat $TMP/err2)" = "kiln: quantize: calibration folder $TMP/empty has no .npy, .jpg or .png files"
(cd $TMP/a && find . -type f | sort | xargs md5sum) > $TMP/after
diff $TMP/before $TMP/after
test "$(ls $TMP | grep -E '^a(\.|$)')" = a
mkdir -p $TMP/a/sim/seg0
echo x > $TMP/a/sim/seg0/out0.bin
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib-random 1 -o $TMP/a > /dev/null 2>&1
test ! -e $TMP/a/sim
test "$(ls $TMP | grep -E '^a(\.|$)')" = a
