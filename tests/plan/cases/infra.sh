# RUN: KILN
# The design around the engines (DMA channels, register file, PERF counters;
# hls/infra.c) is in the plan's totals, checked against the generated top.
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir
for b in ultra96v2 zcu104; do
    $KILN compile $TMP/q.gir --board $b -o $TMP/$b
done
for b in ultra96v2 zcu104; do
    $HERE/check_plan.py infra $TMP/$b
done
grep -q '^| - | infrastructure (DMA, control) |' $TMP/ultra96v2/report.md
