# RUN: KILN
# --fold: the named convs of the scaled-down YOLOv3-tiny leave the dataflow
# for one kiln_tsconv (plan.json and report.md list them, each with its
# cycles; the engine's cycles are the sum of its layers'); auto folds the
# full model's 13x13 tail on Ultra96-V2, faster than without; a layer that
# is not a conv, an unknown layer and a folded plan without --plan-only are
# errors naming the cause.
M=$MODELS/yolov3-tiny-small.onnx
$KILN compile $M --calib-random 1 --board kv260 --fold conv12,conv13,conv14 --plan-only -o $TMP/a > /dev/null
/usr/bin/python3 - $TMP/a/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = p["fold"]
names = [l["node"] for l in f["layers"]]
assert names == ["conv12", "conv13", "conv14"], names
assert f["cycles"] == sum(l["cycles"] for l in f["layers"]), f
assert not any(s["node"] in names for s in p["stages"])
assert f["hw"]["PE_IC"] == f["hw"]["PE_OC"] >= 16
PY
grep -q '^| conv13 | 2x2x128 -> 32, k1 s1 | 1 |' $TMP/a/report.md
$KILN compile $MODELS/yolov3-tiny.onnx --board ultra96v2 --fold auto --plan-only -o $TMP/b > /dev/null
grep -Eq 'time-shared engine \| --fold auto: 6 conv layers on a [0-9]+x[0-9]+ array, [0-9.]+ frames/s against 10.0 without' $TMP/b/report.md
if $KILN compile $M --calib-random 1 --board kv260 --fold conv12,maxpool11 --plan-only -o $TMP/c 2> $TMP/err; then exit 1; fi
grep -qx "kiln: --fold conv12,maxpool11: layer 'maxpool11' is a kiln_maxpool, not a conv the shared engine takes (K <= 7, stride 1 or 2)" $TMP/err
if $KILN compile $M --calib-random 1 --board kv260 --fold conv99 --plan-only -o $TMP/d 2> $TMP/err; then exit 1; fi
grep -qx "kiln: --fold conv99: no layer 'conv99' in the FPGA part of 'yolov3_tiny'" $TMP/err
if $KILN compile $M --calib-random 1 --board kv260 --fold conv12 -o $TMP/e 2> $TMP/err; then exit 1; fi
grep -q "add --plan-only" $TMP/err
test ! -e $TMP/e/plan.json
