# RUN: KILN
# TIMEOUT: 60
# FIXTURES_REQUIRED: face_ref
# kiln compile plans the int8 detector for zcu104: one FPGA segment holding
# all 18 layers (conv0, the five depthwise convs on kiln_dwconv, the five
# pointwise convs and the head on kiln_conv, six maxpools); only the int8
# conversions at the boundary stay on the CPU.
. $HERE/lib.sh
face_need_npm
$KILN quantize $REF/face320.onnx --calib $REF/calib -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/c > $TMP/compile.out
cat $TMP/compile.out
grep -q '; 18 FPGA layers, 2 CPU nodes, 1 segment(s)$' $TMP/compile.out
test "$(grep -c '^| [0-9]* | conv[1-5]_dw[^|]*| kiln_dwconv |' $TMP/c/report.md)" = 5
test "$(grep -c '^- [a-z0-9_]* (\(Quantize\|Dequantize\)Linear)' $TMP/c/report.md)" = 2
