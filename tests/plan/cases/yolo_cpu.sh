# RUN: KILN
# The Darknet cfg's YOLO heads run on the CPU, named in the report.
$KILN compile $DARKNET_CFG/yolov3-tiny.cfg --calib-random 1 --board zcu104 -o $TMP/a
$HERE/check_plan.py cpu $TMP/a YoloHead 2
grep -q 'yolo16 (YoloHead): YOLO decode' $TMP/a/report.md
