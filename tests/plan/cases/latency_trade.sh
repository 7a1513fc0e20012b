# RUN: KILN
# A latency step that breaks a budget may come with another stage a step
# down that makes room at the same interval (hls/plan_latency.c shorten_latency): on
# ZCU102 at --pp-max 2 (the default plan, PP up to 8, has none) the reasons
# name such a trade; with the step down undone the plan exceeds a budget,
# and with both undone it keeps the interval and has a longer latency.
# --interval-first keeps that plan (the shortest interval); without it the
# search keeps one of an interval 2.6% longer for a latency 33% shorter
# (hls/plan_search.c latency_choice), which its limit says.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu102 --pp-max 2 --interval-first -o $TMP/a
$HERE/check_plan.py trade $TMP/a $TMP/both.json $TMP/trim.json
if $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu102 --plan $TMP/trim.json -o $TMP/t 2> $TMP/t.err; then echo 'the plan with the trim undone fits'; exit 1; fi
grep 'does not fit zcu102: it exceeds' $TMP/t.err
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu102 --plan $TMP/both.json -o $TMP/b
$HERE/check_plan.py longer $TMP/a $TMP/b
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu102 --pp-max 2 --plan-only -o $TMP/c
$HERE/check_plan.py for_latency $TMP/a $TMP/c
