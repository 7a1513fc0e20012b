# RUN: KILN
# A latency step that breaks a budget may come with another stage a step
# down that makes room at the same interval (hls/plan_latency.c shorten_latency): on
# KV260 at --pp-max 2 the reasons name such a trade; with the step down
# undone the plan exceeds a budget, and with both undone it keeps the
# interval and has a longer latency.  --interval-first keeps that plan (the
# shortest interval); without it the search on ZCU102 at --pp-max 2 keeps
# one of an interval 5.6% longer for a latency 36% shorter
# (hls/plan_search.c latency_choice), which its limit says.  All on the
# fabric clock (--clk2x off), the plans these figures are of.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board kv260 --pp-max 2 --interval-first -o $TMP/a
$HERE/check_plan.py trade $TMP/a $TMP/both.json $TMP/trim.json
if $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board kv260 --plan $TMP/trim.json -o $TMP/t 2> $TMP/t.err; then echo 'the plan with the trim undone fits'; exit 1; fi
grep 'does not fit kv260: it exceeds' $TMP/t.err
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board kv260 --plan $TMP/both.json -o $TMP/b
$HERE/check_plan.py longer $TMP/a $TMP/b
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu102 --pp-max 2 --interval-first --plan-only -o $TMP/z
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu102 --pp-max 2 --plan-only -o $TMP/c
$HERE/check_plan.py for_latency $TMP/z $TMP/c
