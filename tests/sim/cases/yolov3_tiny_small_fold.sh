# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: yolov3-tiny-small compiled with --fold
# conv10,conv12,conv13,conv14,conv15,conv18 (the set --fold auto takes on
# the full model for Ultra96-V2) for Ultra96-V2 at pixel parallelism 1 (a
# Verilator build about half of zcu104's), simulated over 2 frames.
# maxpool11 stays in the dataflow between conv10 and conv12, so the shared
# engine runs in two parts: SEGMENT = 3 runs conv10 (table entry 0), 4 runs
# conv12 .. conv18 (entries 1-5); the frame's order is segment 0 (conv0 ..
# maxpool9), part 0, segment 1 (maxpool11), part 1, segment 2 (upsample19
# .. conv22, conv8's map from DDR).  Every segment and part bit-exact
# against the int8 interpreter; each part's frame, the interval, the
# latency and every stage's t_done within 2% of the plan, segment 2's join
# of two DDR readers included (conv21 waits for route20's first two rows
# at the concat's pace, docs/plan.md).  The parts run on kiln_regfile's
# unit 3 beside the dataflow's segments, each on a unit of its own (segment
# k on unit k; host-runtime/kiln_sched.h, two frames in flight): both frames run so in one harness job, bit-exact, its
# cycles and the steady state of the runs it measured (the interval and
# latency) within 2% of the plan.  Then the generated driver (x86-64) runs
# 8 frames of two inputs against kiln simulate --serve of the same build
# the same way (kd_model_run_frames, libkiln-rt's krt_run_frames: the parts
# on unit 3 beside the segments on units 0 to 2, two frames in flight, a map
# region and a table each), every output byte-identical to kiln run
# --target int8 of its input, and the server's cycles between frame
# completions in the steady state within 2% of the plan's interval.  With
# segment 2's output channel answered SLVERR the driver fails naming the
# frame, the segment and the channel.  A start with SEGMENT = 5 (past the
# last part) is the ERROR bit 31; a regmap.json segment order that repeats
# a part is refused by libkiln-rt on load.
. $SRC/tests/runtime/lib.sh
. $HERE/fold_lib.sh
fold_quantize
$KILN compile $TMP/q.gir --board ultra96v2 --pp-max 1 --fold conv10,conv12,conv13,conv14,conv15,conv18 -o $TMP/a > $TMP/compile.out 2>&1
if grep -q 'driver/ not written' $TMP/compile.out; then cat $TMP/compile.out; exit 1; fi
grep -q '^    kiln_tsconv #($' $TMP/a/rtl/kiln_top.v
grep -q 'X(ts2, 128)' $TMP/a/rtl/kiln_ports.h
$PYTHON - $TMP/a/plan.json $TMP/a/rtl/regmap.json <<'PY'
import json, sys
p, r = (json.load(open(x)) for x in sys.argv[1:3])
t = r["tsconv"]
n = len(r["segments"])
assert [l["node"] for l in p["fold"]["layers"]] == ["conv10", "conv12", "conv13", "conv14", "conv15", "conv18"], p["fold"]
assert n == 3 and t["layers"] == 6 and t["segment"] == n, t
assert t["cycles"] == p["fold"]["cycles"], (t["cycles"], p["fold"]["cycles"])
assert [(x["segment"], x["first"], x["count"]) for x in t["parts"]] == [(3, 0, 1), (4, 1, 5)], t["parts"]
assert t["parts"] == p["fold"]["parts"] and t["segment_order"] == p["fold"]["segment_order"] == [0, 3, 1, 4, 2]
f = p["fold"]
assert p["figures"]["interval_cycles"] < f["sequential_cycles"], (p["figures"], f)
assert t["unit"] == n and t["frames_in_flight"] == f["frames_in_flight"] == 2, (t, f)
# conv10 reads maxpool9 and writes maxpool11's input; part 1 reads
# maxpool11, keeps conv12 .. conv14 in its region, writes conv15 (a graph
# output) and conv18 (upsample19's input)
assert [(m["value"], m["role"], m["segment"]) for m in t["maps"]] == [
    ("maxpool9", "input", 3), ("conv10_leaky", "output", 3), ("maxpool11", "input", 4),
    ("conv12_leaky", "scratch", 4), ("conv13_leaky", "scratch", 4), ("conv14_leaky", "scratch", 4),
    ("conv15", "output", 4), ("conv18_leaky", "output", 4)], t["maps"]
assert {x["name"] for x in r["registers"]} >= {"TS0_BASE_LO", "TS0_BASE_HI"}
PY
fold_simulate $TMP/a
# CTRL bit4 starts part 0 on unit 3, bit2 segment 1 on unit 1
grep -q '^go go.e1.f0 16$' $TMP/a/sim/beside/job.txt
grep -q '^go go.e2.f0 4$' $TMP/a/sim/beside/job.txt
# part 1's first frame with SEGMENT = 5, a value the design does not have:
# done at once, ERROR bit 31
sed -n '1,/^read f0.error/p' $TMP/a/sim/tsconv1/job.txt | sed 's/^write 0x40 4$/write 0x40 5/' > $TMP/bad.txt
grep -qx 'write 0x40 5' $TMP/bad.txt
$TMP/a/sim/obj-*/kiln_sim $TMP/bad.txt $TMP/bad.res > /dev/null
grep -qx 'f0.error 2147483648' $TMP/bad.res
grep -q "FPGA segment 4: the shared conv engine's part 1, 5 layers" $TMP/a/driver/model.c
# the steps in the frame's order: part 0 before maxpool11's segment before part 1
$PYTHON - $TMP/a/driver/model.c <<'PY'
import re, sys
steps = [int(x) for x in re.findall(r"kd_run_segment\(r, (\d+),", open(sys.argv[1]).read())]
assert steps == [0, 3, 1, 4, 2], steps
PY
if grep -q 'kiln_cpu0' $TMP/a/driver/model.c; then exit 1; fi
grep -q '^const char kd_model_frames_why\[\] = "";$' $TMP/a/driver/model.c
$KILN run --target int8 $TMP/a/model.gir -i $MODELS/yolov3-tiny-small-input.npy \
    -o $TMP/r0.npy -o $TMP/r1.npy > /dev/null
$PYTHON -c "import numpy as n, sys; x = n.load(sys.argv[1]); n.save(sys.argv[2], (0.7 * x[..., ::-1]).astype(n.float32))" \
    $MODELS/yolov3-tiny-small-input.npy $TMP/in1.npy
$KILN run --target int8 $TMP/a/model.gir -i $TMP/in1.npy -o $TMP/s0.npy -o $TMP/s1.npy > /dev/null
if cmp -s $TMP/r0.npy $TMP/s0.npy; then exit 1; fi
cmake -S $TMP/a/driver -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
SERVE_TICKS=5000
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/yolov3-tiny-small-input.npy $TMP/in1.npy \
    -o $TMP/ox --frames 8 > $TMP/run.out
cat $TMP/run.out
# the steady state: the gaps between completions after the frames in flight
# filled up, the last frame (nothing newer beside it) left out
$PYTHON - $TMP/run.out $TMP/a/plan.json <<'PY'
import json, re, sys
m = re.search(r"8 frames, (\d) in flight, done at \(cycles\): ([\d ]+)", open(sys.argv[1]).read())
fl, done = int(m.group(1)), [int(x) for x in m.group(2).split()]
plan = json.load(open(sys.argv[2]))["figures"]["interval_cycles"]
assert fl == 2 and len(done) == 8, (fl, done)
got = (done[-2] - done[fl]) / (len(done) - 2 - fl)
print("krt_run_frames: %.0f cycles between frame completions, the plan's interval %d (%+.2f%%)"
      % (got, plan, 100.0 * (got - plan) / plan))
assert abs(got - plan) <= 0.02 * plan
PY
# a regmap.json whose segment order runs part 0 twice is refused on load
mkdir -p $TMP/c/rtl
cp $TMP/a/rtl/weights.bin $TMP/c/rtl/
$PYTHON - $TMP/a/rtl/regmap.json $TMP/c/rtl/regmap.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["tsconv"]["segment_order"] = [0, 3, 1, 3, 2]
json.dump(r, open(sys.argv[2], "w"))
PY
if $TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/c $MODELS/yolov3-tiny-small-input.npy -o $TMP/oc \
    2> $TMP/err; then exit 1; fi
grep -qx "kiln-infer: $TMP/c/rtl/regmap.json: tsconv.segment_order\[3\]: expected each of the 5 segments once" $TMP/err
unserve
grep -q '8 frame(s)' $TMP/run.out
cmp $TMP/ox/out0-0.npy $TMP/r0.npy
cmp $TMP/ox/out1-0.npy $TMP/r1.npy
cmp $TMP/ox/out0-1.npy $TMP/s0.npy
cmp $TMP/ox/out1-1.npy $TMP/s1.npy
# segment 2's output channel answered SLVERR: the run fails naming it
export KILN_SIM_AXI_ERROR=out3
serve $TMP/a $TMP/s.sock
unset KILN_SIM_AXI_ERROR
if $TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/yolov3-tiny-small-input.npy -o $TMP/oe \
    --frames 3 2> $TMP/err; then exit 1; fi
unserve
# (a run another unit still has going is waited for first: libkiln-rt's drain)
cat $TMP/err
grep -Eqx "kiln-infer: frame 0, segment 2: ERROR register 0x00004000 \(an AXI error response on out3\)(; unit [0-9]'s run of frame [0-9]+, segment [0-9]+ ended)*" $TMP/err
