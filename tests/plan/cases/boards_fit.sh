# RUN: KILN
# YOLOv3-tiny 416 on the four boards: every plan within its budgets, fps
# rising with the DSP budget.  On Ultra96-V2 most layers' weights stream
# from DDR in tiles and the DMA channels those need (tile re-reads, maps
# through DDR) leave little of the 75% LUT budget: the design is LUT-bound.
# KV260 has fewer BRAM36 (144) than Ultra96-V2 (216): block RAM binds there
# before DSP, so its fps is checked against ZCU104 only (check_plan.py fits).
for b in ultra96v2 kv260 zcu104 zcu102; do
    $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board $b --plan-only -o $TMP/$b
done
$HERE/check_plan.py fits $TMP/ultra96v2 $TMP/kv260 $TMP/zcu104 $TMP/zcu102
$HERE/check_plan.py weights $TMP/ultra96v2 6 12
grep -q 'exceeds LUT 75%' $TMP/ultra96v2/plan.json
test -s $TMP/zcu104/report.md
test -s $TMP/zcu104/dataflow.dot
