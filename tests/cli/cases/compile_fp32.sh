# RUN: KILN
# kiln compile on an fp32 model quantizes it itself and says so on stderr
# (the default: 8 seeded random calibration inputs; --calib DIR with real
# inputs), and writes rtl/ with weights.bin: the folder is byte for byte
# the one `kiln quantize` (same default) then `kiln compile` of its output
# writes, but for the compile time in report.md.  (kiln simulate on such a
# folder is checked bit-exact by runtime_resdw, which reuses its Verilator
# build.)
$KILN compile $MODELS/resdw.onnx --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err
cat $TMP/out $TMP/err
test "$(cat $TMP/err)" = "kiln compile: quantized $MODELS/resdw.onnx to int8: minmax thresholds from 8 seeded random inputs (the default; --calib DIR calibrates on real inputs)"
grep -q "^wrote $TMP/a/{plan.json,report.md,dataflow.dot.*,rtl/,vivado/,driver/}$" $TMP/out
test -s $TMP/a/rtl/weights.bin
test -s $TMP/a/vivado/component.xml
grep -q ': i8\[' $TMP/a/model.gir
$KILN quantize $MODELS/resdw.onnx -o $TMP/q.gir
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/b > /dev/null 2> $TMP/err2
test ! -s $TMP/err2
sed -i '/compile time/d' $TMP/a/report.md $TMP/b/report.md
diff -r $TMP/a $TMP/b
# --calib DIR: the calibration inputs named on the line
mkdir -p $TMP/calib
cp $MODELS/resdw-input.npy $TMP/calib/
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib $TMP/calib --method percentile \
    -o $TMP/c > /dev/null 2> $TMP/err3
test "$(cat $TMP/err3)" = "kiln compile: quantized $MODELS/resdw.onnx to int8: percentile thresholds from 1 calibration input of $TMP/calib"
test -s $TMP/c/rtl/weights.bin
