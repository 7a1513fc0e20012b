# RUN: KILN
# After the search, grow steps that keep the interval shorten the latency
# (hls/plan_latency.c shorten_latency): undoing the one of the largest saving keeps
# the interval and lengthens the latency in the replayed plan.  On the fabric
# clock (--clk2x off): the clk2x plan auto takes there has no stage grown
# for its latency.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --clk2x off -o $TMP/a
$HERE/check_plan.py undo_latency $TMP/a $TMP/undo.json
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --plan $TMP/undo.json -o $TMP/b
$HERE/check_plan.py longer $TMP/a $TMP/b
