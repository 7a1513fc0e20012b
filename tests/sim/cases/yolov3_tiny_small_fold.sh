# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: yolov3-tiny-small compiled for zcu104 with --fold conv14,conv15
# (the first head's 3x3 and 1x1 convs leave the dataflow for one kiln_tsconv
# that runs them one after the other from its descriptor table), simulated
# over 2 frames: the dataflow and the shared engine (SEGMENT = 1, its maps
# and relocated table placed by kiln simulate) bit-exact against the int8
# interpreter, every stage's t_done, the interval, the latency and the
# engine's frame within 2% of the plan.
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --fold conv14,conv15 -o $TMP/a > /dev/null
grep -q '^    kiln_tsconv #($' $TMP/a/rtl/kiln_top.v
grep -q 'X(ts2, 128)' $TMP/a/rtl/kiln_ports.h
$PYTHON - $TMP/a/plan.json $TMP/a/rtl/regmap.json <<'PY'
import json, sys
p, r = (json.load(open(x)) for x in sys.argv[1:3])
t = r["tsconv"]
assert [l["node"] for l in p["fold"]["layers"]] == ["conv14", "conv15"], p["fold"]
assert t["layers"] == 2 and t["segment"] == len(r["segments"]), t
assert t["cycles"] == p["fold"]["cycles"], (t["cycles"], p["fold"]["cycles"])
# conv14 reads the dataflow's map, writes conv15's input (scratch); conv15
# writes a graph output
assert [m["role"] for m in t["maps"]] == ["input", "scratch", "output"], t["maps"]
assert {x["name"] for x in r["registers"]} >= {"TS0_BASE_LO", "TS0_BASE_HI"}
PY
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
grep -Eq '^segment 1 \(the shared engine, 2 layers, a start a frame\): .*; bit-exact' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
