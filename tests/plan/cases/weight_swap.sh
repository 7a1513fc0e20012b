# RUN: KILN
# After the search a layer whose weights stream from DDR may trade places
# with one on chip whose frame barrier costs less latency (hls/plan_latency.c
# reclaim_weights): on ZCU104 at --pp-max 2 the reasons name such a swap,
# and the plan with it undone, replayed on a copy of the board with room for
# it, keeps the interval and has a longer latency (the plan of the shortest
# interval, --interval-first: the plan kept for its latency has no swap).
# On the fabric clock (--clk2x off): the clk2x plan auto takes has no swap.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board zcu104 --pp-max 2 --interval-first -o $TMP/a
$HERE/check_plan.py swap $TMP/a $TMP/undo.json
sed 's/bram36="312"/bram36="4000"/; s/uram="96"/uram="4000"/; s/name="zcu104"/name="zcu104-roomy"/' $SRC/boards/zynq-ultrascale/zcu104.xml > $TMP/roomy.xml
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board $TMP/roomy.xml --plan $TMP/undo.json -o $TMP/b
$HERE/check_plan.py longer $TMP/a $TMP/b
