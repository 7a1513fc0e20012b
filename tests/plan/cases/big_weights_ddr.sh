# RUN: KILN
# Weights larger than a board's on-chip memory (big: 1.33 MB int8; Ultra96-V2
# has 972 KB of BRAM and no URAM) stream from DDR there; ZCU104 could hold them
# all, so streaming there is a choice (block RAM for wider arrays), not checked.
# A model that does not fit even so is plan_yolov3_ultra96_bad.
for b in zcu104 ultra96v2; do
    $KILN compile $MODELS/big.onnx --calib-random 1 --board $b -o $TMP/$b
done
$HERE/check_plan.py fits $TMP/ultra96v2 $TMP/zcu104
$HERE/check_plan.py weights $TMP/ultra96v2 1 5
$HERE/check_plan.py weights $TMP/zcu104 0 5
