# RUN: KILN
# resdw: a residual Add and depthwise convs in one segment, planned on two
# boards within their budgets, with the engines listed.
$KILN quantize $MODELS/resdw.onnx --calib-random 4 -o $TMP/q.gir
for b in zcu104 ultra96v2; do
    $KILN compile $TMP/q.gir --board $b -o $TMP/$b
done
$HERE/check_plan.py fits $TMP/ultra96v2 $TMP/zcu104
for b in zcu104 ultra96v2; do
    $HERE/check_plan.py engines $TMP/$b 1 kiln_dwconv=2 kiln_add=1 kiln_conv=4 kiln_maxpool=1
done
