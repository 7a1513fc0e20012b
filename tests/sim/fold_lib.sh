# Shared steps of the sim cases yolov3_tiny_small_fold*.sh: yolov3-tiny-small
# with the time-shared conv engine (sourced; $KILN, $PYTHON, $MODELS, $TMP,
# $HERE set by tests/run_case.sh).
#
# fold_quantize: the model quantized on 4 random inputs into $TMP/q.gir.
fold_quantize() {
    $KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
}

# fold_ultra96_plan: $TMP/q.gir planned (--plan-only) into $TMP/u on
# Ultra96-V2 at PP up to 4 with conv8, conv10, conv12 .. conv18, conv21 and
# conv22 on the engine (four parts), the plan the cut and split cases edit.
fold_ultra96_plan() {
    $KILN compile $TMP/q.gir --board ultra96v2 --pp-max 4 \
        --fold conv8,conv10,conv12,conv13,conv14,conv15,conv18,conv21,conv22 --plan-only -o $TMP/u > /dev/null
}

# fold_simulate DIR: the compiled folder DIR simulated over 2 frames
# (output in $TMP/out): every output byte the int8 interpreter's; a line
# per part of the engine (plan.json fold.parts: its segment, layer count
# and predicted cycles) ending bit-exact; the frames beside the dataflow
# run as the plan's way (frames in flight, steps, gate) in the output line
# and in result.json; then every figure within 2% of the plan
# (check_cycles.py: each stage's t_done, each part's frame, the interval,
# the latency and the frames' whole run beside the dataflow).
fold_simulate() {
    $KILN simulate $1 --frames 2 | tee $TMP/out
    grep -q 'every output byte matches the int8 interpreter' $TMP/out
    $PYTHON - $1/plan.json $1/sim/result.json $TMP/out <<'PY'
import json, re, sys
p, r = (json.load(open(x)) for x in sys.argv[1:3])
out = open(sys.argv[3]).read()
f, n = p["fold"], p["figures"]["segments"]
for i, q in enumerate(f["parts"]):
    head = ("segment %d (the shared engine's part %d, %d layers, a start a frame): "
            % (q["segment"], i, q["count"]))
    assert re.search("^%s.*, predicted %d \\([-+][0-9.]+%%\\); bit-exact$" % (re.escape(head), q["cycles"]),
                     out, re.M), (head, q)
way = "%d frames in flight%s%s" % (f["frames_in_flight"], ", in steps" if f["steps"] else "",
                                  ", a frame entering once the one before ended run %d" % (f["gate"] - 1)
                                  if f["gate"] else "")
head = "beside the dataflow (the engine's parts on unit %d, %s): 2 frames took " % (n, way)
assert re.search("^%s[0-9]+ cycles .*; bit-exact;" % re.escape(head), out, re.M), head
b = r["beside"]
assert r["bit_exact"] and (b["frames_in_flight"], b["steps"], b["gate"]) == (
    f["frames_in_flight"], f["steps"], f["gate"]), (b, f)
PY
    $PYTHON $HERE/check_cycles.py $1/sim/result.json 0.02
}
