# RUN: KILN
# cpumid: a dilated conv on the CPU between two FPGA segments.
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir
for b in zcu104 ultra96v2; do
    $KILN compile $TMP/q.gir --board $b -o $TMP/$b
done
$HERE/check_plan.py fits $TMP/ultra96v2 $TMP/zcu104
for b in zcu104 ultra96v2; do
    $HERE/check_plan.py engines $TMP/$b 2 kiln_conv=4 kiln_maxpool=2
    $HERE/check_plan.py cpu $TMP/$b Conv 1
    grep -q '^- conv3 (Conv): dilated conv has no engine' $TMP/$b/report.md
done
