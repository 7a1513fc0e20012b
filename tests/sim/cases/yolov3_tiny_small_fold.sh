# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: yolov3-tiny-small compiled with --fold conv14,conv15 (the
# first head's 3x3 and 1x1 convs leave the dataflow for one kiln_tsconv
# that runs them one after the other from its descriptor table) for
# Ultra96-V2 at pixel parallelism 1 (a Verilator build about half of
# zcu104's: 64 s of CPU against 120 s), simulated over 2 frames: the
# dataflow and the shared engine (SEGMENT = 1, its maps and relocated table
# placed by kiln simulate) bit-exact against the int8 interpreter, every
# stage's t_done, the interval, the latency and the engine's frame within 2%
# of the plan.  One start runs at a time, so the plan's interval is the
# dataflow segment's plus the engine's frame, and the measured one the sum
# of the segment's and the engine's.  Then the generated driver (x86-64)
# runs 2 frames against kiln simulate --serve of the same build: segment 0, then the engine as
# segment 1 (libkiln-rt relocates its table), both outputs byte-identical
# to kiln run --target int8.
. $SRC/tests/runtime/lib.sh
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --pp-max 1 --fold conv14,conv15 -o $TMP/a > /dev/null
grep -q '^    kiln_tsconv #($' $TMP/a/rtl/kiln_top.v
grep -q 'X(ts2, 128)' $TMP/a/rtl/kiln_ports.h
$PYTHON - $TMP/a/plan.json $TMP/a/rtl/regmap.json <<'PY'
import json, sys
p, r = (json.load(open(x)) for x in sys.argv[1:3])
t = r["tsconv"]
assert [l["node"] for l in p["fold"]["layers"]] == ["conv14", "conv15"], p["fold"]
assert t["layers"] == 2 and t["segment"] == len(r["segments"]), t
assert t["cycles"] == p["fold"]["cycles"], (t["cycles"], p["fold"]["cycles"])
f = p["fold"]
assert p["figures"]["interval_cycles"] == f["dataflow_cycles"] + f["cycles"], (p["figures"], f)
# conv14 reads the dataflow's map, writes conv15's input (scratch); conv15
# writes a graph output
assert [m["role"] for m in t["maps"]] == ["input", "scratch", "output"], t["maps"]
assert {x["name"] for x in r["registers"]} >= {"TS0_BASE_LO", "TS0_BASE_HI"}
PY
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
grep -Eq '^segment 1 \(the shared engine, 2 layers, a start a frame\): .*; bit-exact' $TMP/out
grep -q '^one start at a time: the 2 segments' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
grep -q 'kd_run_segment(r, 1, ' $TMP/a/driver/model.c
grep -q 'FPGA segment 1: the shared conv engine, 2 layers' $TMP/a/driver/model.c
if grep -q 'kiln_cpu0' $TMP/a/driver/model.c; then exit 1; fi
$KILN run --target int8 $TMP/a/model.gir -i $MODELS/yolov3-tiny-small-input.npy \
    -o $TMP/r0.npy -o $TMP/r1.npy > /dev/null
cmake -S $TMP/a/driver -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
SERVE_TICKS=5000
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/yolov3-tiny-small-input.npy -o $TMP/ox \
    --frames 2 > $TMP/run.out
unserve
grep -q '2 frame(s)' $TMP/run.out
cmp $TMP/ox/out0.npy $TMP/r0.npy
cmp $TMP/ox/out1.npy $TMP/r1.npy
