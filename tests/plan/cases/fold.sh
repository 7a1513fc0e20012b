# RUN: KILN
# --fold: the named convs of the scaled-down YOLOv3-tiny leave the dataflow
# for one kiln_tsconv (plan.json and report.md list them, each with its
# cycles; the engine's cycles are the sum of its layers'); auto folds the
# full model's 13x13 tail and the 26x26 convs on Ultra96-V2, faster than
# without and than the tail alone; a layer that
# is not a conv and an unknown layer are errors naming the cause; without
# --plan-only the folded plan's rtl/ holds kiln_tsconv and regmap.json its
# table (tests/sim/cases/yolov3_tiny_small_fold.sh simulates one).  A
# folded plan.json replays to the same plan (hw.PP included)
# (only the `why` texts differ); a hand-edited tile is an error.  On
# Ultra96-V2 (--pp-max 2) the engine's line buffer is banked by pixel
# (fold.hw.LBBANK): its replay is the same plan, and without the field (a
# plan.json from before it) the PP copies, which do not fit there.  The
# engine's parts run beside the dataflow (frames in flight, every segment
# and the engine on a run unit of its own); under --max-latency-ms the way
# of running them that meets the bound (one frame in flight, or a gate);
# --fold auto under a bound that the plan without a fold misses still
# searches the folds.  All on the fabric clock (--clk2x off;
# plan_fold_clk2x: the engine on clk2x), which also keeps the fold
# searches to one clock each.
M=$MODELS/yolov3-tiny-small.onnx
$KILN compile $M --calib-random 1 --clk2x off --board kv260 --pp-max 4 --fold conv12,conv13,conv14 --plan-only -o $TMP/a > /dev/null
/usr/bin/python3 - $TMP/a/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = p["fold"]
names = [l["node"] for l in f["layers"]]
assert names == ["conv12", "conv13", "conv14"], names
assert f["cycles"] == sum(l["cycles"] for l in f["layers"]), f
assert not any(s["node"] in names for s in p["stages"])
assert f["hw"]["PE_IC"] == f["hw"]["PE_OC"] >= 16 and f["hw"]["PP"] in (1, 2, 3, 4, 5, 6, 8), f["hw"]
# the engine's parts beside the dataflow's segments (host-runtime/kiln_sched.h):
# a frame's runs, one per segment_order entry, the parts' their cycles; the
# interval no longer than the runs one after the other, no shorter than the
# engine's frame (its runs one after the other on its unit) or the longest
# dataflow segment's run (each segment on a unit of its own, so with frames
# in flight the segments of different frames overlap: shorter than the
# dataflow's runs one after the other); the runs one after the other
# (sequential_cycles: one frame in flight, where a part after its
# segments' idle starts on the engine's run-end prefetch) no longer than
# the runs' sum (each run alone, its first layer fetched)
runs, order = f["runs"], f["segment_order"]
assert len(runs) == len(order) and sum(runs) >= f["sequential_cycles"], f
nseg = min(x["segment"] for x in f["parts"])
assert [runs[order.index(x["segment"])] for x in f["parts"]] == [x["cycles"] for x in f["parts"]], f
iv = p["figures"]["interval_cycles"]
df = [r for r, s in zip(runs, order) if s < nseg]
assert max(f["cycles"], max(df)) <= iv <= f["sequential_cycles"], (iv, f)
if len(df) > 1 and f["frames_in_flight"] > 1 and f["cycles"] < sum(df):
    assert iv < sum(df), (iv, df, f)
assert 1 <= f["frames_in_flight"] <= 8, f
PY
# here the segments and the engine each have a unit and none waits for
# another: two frames in flight halve the interval against the runs' sum,
# at a frame's latency
/usr/bin/python3 - $TMP/a/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f, g = p["fold"], p["figures"]
assert f["frames_in_flight"] > 1 and g["interval_cycles"] < 0.6 * sum(f["runs"]), (g, f)
assert g["latency_cycles"] <= 1.01 * f["sequential_cycles"], (g, f)
PY
grep -Eq '^\| conv13 \| 2x2x128 -> 32, k1 s1 \| [0-9]+ \|' $TMP/a/report.md
# each folded layer's floors in report.md (hls_tsconv_floors): the array's
# issue cycles (pixel groups of PP, across row ends with SPAN, x K*K*ICG x
# OCG) and the weight channel's (OCG x PE_OC x (3 + K*K*ICG) beats of PE_IC
# bytes, DATA_W/8 bytes a cycle), recomputed here from fold.hw and the
# shapes (same padding, as these layers have); a layer takes no fewer
# cycles than its array issues, and the note sums the layers the weight
# channel binds
/usr/bin/python3 - $TMP/a/plan.json $TMP/a/report.md <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1]))
hw = p["fold"]["hw"]
rep = open(sys.argv[2]).read()
pe_ic, pe_oc, pp, bus = hw["PE_IC"], hw["PE_OC"], max(1, hw["PP"]), hw["DATA_W"] // 8
row = re.compile(r"^\| (\w+) \| (\d+)x(\d+)x(\d+) -> (\d+), k(\d+) s(\d+) \| \d+ \| (\d+) \| "
                 r"(\d+) \| (\d+) \| (weights|MACs) \| \d+ \|$", re.M)
rows = row.findall(rep)
assert [r[0] for r in rows] == [l["node"] for l in p["fold"]["layers"]], rows
wsum = msum = n = 0
for node, h, w, cin, cout, k, s, cyc, mac, wport, binds in rows:
    h, w, cin, cout, k, s, cyc, mac, wport = map(int, (h, w, cin, cout, k, s, cyc, mac, wport))
    ho, wo = (h + 2 * (k // 2) - k) // s + 1, (w + 2 * (k // 2) - k) // s + 1
    icg, ocg = -(-cin // pe_ic), -(-cout // pe_oc)
    kki = k * k * icg
    span = pp > 1 and hw["SPAN"] and not (hw["LBBANK"] > 0 and wo != w)
    groups = -(-ho * wo // pp) if span else ho * -(-wo // pp)
    assert mac == groups * kki * ocg, (node, mac, groups, kki, ocg)
    assert wport == ocg * pe_oc * (3 + kki) * -(-pe_ic // bus), (node, wport)
    assert binds == ("weights" if wport > mac else "MACs"), (node, binds)
    assert cyc >= mac, (node, cyc, mac)
    if wport > mac:
        wsum, msum, n = wsum + wport, msum + mac, n + 1
if n:
    assert ("binds %d of its %d layers: their weight beats take %d cycles of the engine's %d a frame, their MACs %d"
            % (n, len(rows), wsum, p["fold"]["cycles"], msum)) in rep, rep
else:
    assert "binds none of its layers" in rep, rep
PY
grep -Eq "^\| interval II \| [0-9]+ cycles: the shared engine's parts beside the dataflow's segments, [1-8] frames in flight(, in steps)? \(host-runtime/kiln_sched.h\), each run a start of one frame: segment 0 [0-9]+, part 0 [0-9]+(, (segment|part) [0-9]+ [0-9]+)* \(one after the other [0-9]+\)" $TMP/a/report.md
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board ultra96v2 --pp-max 2 --fold auto --plan-only -o $TMP/b > /dev/null
grep -Eq 'time-shared engine \| --fold auto: [0-9]+ conv layers on a [0-9]+x[0-9]+ array, PP [0-9](, line buffers in URAM)?(, line buffer banked by pixel \(LBBANK\))?(, two weight banks)?, [0-9.]+ frames/s against [0-9.]+ without a shared engine \([0-9]+ sets, [0-9]+ set x size searches\)' $TMP/b/report.md
# the sets: six nested from the 13x13 convs up, and the 13x13 set with
# each of the three 26x26 convs (conv8, conv21, conv22) beside it
grep -Eq 'without a shared engine \(9 sets, [0-9]+ set x size searches\)' $TMP/b/report.md
# the sets grow from the smallest map upward: the 13x13 tail and the 26x26
# convs beside it fold together (faster than the tail alone, 16.8)
/usr/bin/python3 - $TMP/b/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
names = [l["node"] for l in p["fold"]["layers"]]
assert {"conv10", "conv12", "conv13", "conv14", "conv15", "conv18", "conv21", "conv22"} <= set(names), names
assert p["figures"]["fps"] > 16.8, p["figures"]["fps"]
# the engine is the longest unit here, and frames in flight keep it busy:
# the interval is its frame (hls_fold_finish)
f = p["fold"]
assert f["frames_in_flight"] > 1 and p["figures"]["interval_cycles"] <= 1.01 * f["cycles"], f
# PP 2, every folded conv stride 1: the line buffer in two banks of a
# power of two words (the largest layer's ceil(4 * W / 2) << ceil(log2
# ICG): 2,048 with conv4's 104-wide map or conv13's 64 input groups)
assert f["hw"]["PP"] == 2 and f["hw"]["LBURAM"] == 0, f["hw"]
assert f["hw"]["LBBANK"] >= 1024 and f["hw"]["LBBANK"] & (f["hw"]["LBBANK"] - 1) == 0, f["hw"]
PY
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board ultra96v2 --plan $TMP/b/plan.json --plan-only -o $TMP/bk > /dev/null
/usr/bin/python3 - $TMP/b/plan.json $TMP/bk/plan.json $TMP/copies.json <<'PY'
import json, sys
b, k = (json.load(open(x)) for x in sys.argv[1:3])
assert k["fold"]["hw"] == b["fold"]["hw"] and k["fold"]["resources"] == b["fold"]["resources"], (k["fold"], b["fold"])
del b["fold"]["hw"]["LBBANK"]
json.dump(b, open(sys.argv[3], "w"))
PY
if $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board ultra96v2 --plan $TMP/copies.json --plan-only -o $TMP/cp 2> $TMP/err; then exit 1; fi
grep -q 'copies.json: the plan does not fit ultra96v2: it exceeds BRAM' $TMP/err
# there more frames in flight lengthen a frame's latency under load: a
# bound below that plan's latency (above its frame alone) keeps a way that
# meets it (--pp-max 2: that plan's engine is PP 2, and the search stays
# short): one frame in flight, or a gate (host-runtime/kiln_sched.h: a
# frame enters once the one before it has ended run g - 1, timed under a
# bound) that keeps a frame's parts from waiting, at a shorter interval
# than a frame at a time
BOUND=$(/usr/bin/python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); f = p["fold"]; assert f["frames_in_flight"] > 1 and f["hw"]["PP"] == 2 and p["figures"]["latency_cycles"] > 1.05 * f["sequential_cycles"], f; print((f["sequential_cycles"] * 1.02) / (p["clock_mhz"] * 1e3))' $TMP/b/plan.json)
SET=$(/usr/bin/python3 -c 'import json, sys; print(",".join(l["node"] for l in json.load(open(sys.argv[1]))["fold"]["layers"]))' $TMP/b/plan.json)
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --clk2x off --board ultra96v2 --pp-max 2 --fold $SET --plan-only --max-latency-ms $BOUND -o $TMP/lat > /dev/null
/usr/bin/python3 - $TMP/lat/plan.json $BOUND <<'PY'
import json, sys
p, bound = json.load(open(sys.argv[1])), float(sys.argv[2])
f, g = p["fold"], p["figures"]
assert g["latency_cycles"] <= bound * p["clock_mhz"] * 1e3, (g, bound)
assert f["frames_in_flight"] == 1 or 0 < f["gate"] < len(f["runs"]), f
if f["gate"]:
    assert f["frames_in_flight"] > 1 and g["interval_cycles"] < 0.95 * f["sequential_cycles"], (g, f)
PY
# its plan.json (figures.max_latency_ms: the way of running the frames it
# kept, its cuts in fold.parts) replays to the same plan; a bound that is
# not a positive number is an error naming the field
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board ultra96v2 --plan $TMP/lat/plan.json --plan-only -o $TMP/latr > /dev/null
/usr/bin/python3 - $TMP/lat/plan.json $TMP/latr/plan.json $TMP/latbad.json <<'PY'
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
for q in (a, b):
    for s in q["stages"]:
        s.pop("why")
    q["figures"].pop("limit", None)
    q["fold"].pop("why")
    q.pop("clk2x_why", None)
assert a == b
a["figures"]["max_latency_ms"] = -1
json.dump(a, open(sys.argv[3], "w"))
PY
if $KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board ultra96v2 --plan $TMP/latbad.json --plan-only -o $TMP/lb 2> $TMP/err; then exit 1; fi
grep -q 'latbad.json: \$.figures.max_latency_ms: expected a number of ms above 0' $TMP/err
if $KILN compile $M --calib-random 1 --clk2x off --board kv260 --fold conv12,maxpool11 --plan-only -o $TMP/c 2> $TMP/err; then exit 1; fi
grep -qx "kiln: --fold conv12,maxpool11: layer 'maxpool11' is a kiln_maxpool, not a conv the shared engine takes (K <= 7, stride 1 or 2)" $TMP/err
if $KILN compile $M --calib-random 1 --clk2x off --board kv260 --fold conv99 --plan-only -o $TMP/d 2> $TMP/err; then exit 1; fi
grep -qx "kiln: --fold conv99: no layer 'conv99' in the FPGA part of 'yolov3_tiny'" $TMP/err
# (--pp-max 4 here and below: what they check does not depend on PP, and
# the search up to PP 8 takes three times as long)
$KILN compile $M --calib-random 1 --clk2x off --board kv260 --pp-max 4 --fold conv12 -o $TMP/e > /dev/null
grep -q '^    kiln_tsconv #($' $TMP/e/rtl/kiln_top.v
grep -Eq '"tsconv": \{"segment": ([0-9]+), "unit": \1, "frames_in_flight": [1-3], "steps": (true|false), "gate": 0, "layers": 1,' $TMP/e/rtl/regmap.json
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/a/plan.json --plan-only -o $TMP/f > /dev/null
/usr/bin/python3 - $TMP/a/plan.json $TMP/f/plan.json $TMP/bad.json <<'PY'
import json, sys
a, f = (json.load(open(x)) for x in sys.argv[1:3])
def strip(p):
    for s in p["stages"]:
        s.pop("why")
    p["figures"].pop("limit", None)
    p["fold"].pop("why")
    return p
assert "replayed from" in f["fold"]["why"], f["fold"]["why"]
assert strip(a) == strip(f)
a["fold"]["layers"][1]["tog"] += 1
json.dump(a, open(sys.argv[3], "w"))
a["fold"]["layers"][1]["node"] = "conv99"
json.dump(a, open(sys.argv[3] + ".node", "w"))
PY
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/bad.json.node --plan-only -o $TMP/i 2> $TMP/err; then exit 1; fi
grep -q "bad.json.node: \$.fold.layers: --fold conv12,conv99,conv14: no layer 'conv99'" $TMP/err
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/bad.json --plan-only -o $TMP/g 2> $TMP/err; then exit 1; fi
grep -q "bad.json: \$.fold.layers\[1\].tog: .*output groups a tile of 'conv13'" $TMP/err
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/a/plan.json -o $TMP/h > /dev/null
test -e $TMP/h/rtl/kiln_tsconv.v
# Parts: conv10, then maxpool11 in the dataflow, then conv12 and conv13:
# the engine runs in two parts (segments nsegment and nsegment + 1, ranges
# of the table), the frame's order puts each after what it reads, each
# part's cycles are its layers' and the engine's the parts' sum.  A replay
# gives the same parts; a hand-edited part or order is an error naming it.
$KILN compile $M --calib-random 1 --clk2x off --board kv260 --pp-max 4 --fold conv10,conv12,conv13 --plan-only -o $TMP/p > /dev/null
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/p/plan.json --plan-only -o $TMP/q > /dev/null
/usr/bin/python3 - $TMP/p/plan.json $TMP/q/plan.json $TMP/badp.json <<'PY'
import json, sys
p, q = (json.load(open(x)) for x in sys.argv[1:3])
f = p["fold"]
n = p["figures"]["segments"]
assert [l["node"] for l in f["layers"]] == ["conv10", "conv12", "conv13"], f["layers"]
assert [(x["segment"], x["first"], x["count"]) for x in f["parts"]] == [(n, 0, 1), (n + 1, 1, 2)], f["parts"]
assert f["cycles"] == sum(x["cycles"] for x in f["parts"]), f
assert sorted(f["segment_order"]) == list(range(n + 2)), f["segment_order"]
seg = {s["node"]: s["segment"] for s in p["stages"]}
o = f["segment_order"]
assert o.index(seg["maxpool9"]) < o.index(n) < o.index(seg["maxpool11"]) < o.index(n + 1) < o.index(seg["conv14"]), (o, seg)
# conv8 feeds route20 through DDR: a later segment than conv8's
assert seg["route20"] != seg["conv8"], seg
assert q["fold"]["parts"] == f["parts"] and q["fold"]["segment_order"] == o
p["fold"]["parts"][1]["first"] = 0
json.dump(p, open(sys.argv[3], "w"))
p["fold"]["parts"][1]["first"] = 1
p["fold"]["segment_order"] = list(range(n + 2))
json.dump(p, open(sys.argv[3] + ".order", "w"))
PY
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/badp.json --plan-only -o $TMP/r 2> $TMP/err; then exit 1; fi
grep -q 'badp.json: \$.fold.parts\[1\]: segment [0-9]*, layers 0..1 is not a part of a valid frame order' $TMP/err
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/badp.json.order --plan-only -o $TMP/r 2> $TMP/err; then exit 1; fi
grep -q 'badp.json.order: \$.fold.segment_order\[1\]: expected segment' $TMP/err
# A cut (hls_fold_cut): part 1 (conv12, conv13) as two parts, conv13 on
# segment n + 2 right after it in the frame's order (a gate may let the
# next frame in between them).  The replay of a plan.json with the cut
# makes it: three parts, one more run, conv13 with a start's fill, the
# engine's frame their sum; its own plan.json replays to the same plan.
/usr/bin/python3 - $TMP/p/plan.json $TMP/cut.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f, n = p["fold"], p["figures"]["segments"]
f["parts"] = [f["parts"][0], {"segment": n + 1, "first": 1, "count": 1}, {"segment": n + 2, "first": 2, "count": 1}]
o = f["segment_order"]
f["segment_order"] = o[:o.index(n + 1) + 1] + [n + 2] + o[o.index(n + 1) + 1:]
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/cut.json --plan-only -o $TMP/cut > /dev/null
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/cut/plan.json --plan-only -o $TMP/cut2 > /dev/null
/usr/bin/python3 - $TMP/p/plan.json $TMP/cut/plan.json $TMP/cut2/plan.json <<'PY'
import json, sys
p, c, c2 = (json.load(open(x)) for x in sys.argv[1:4])
f, g, n = p["fold"], c["fold"], p["figures"]["segments"]
assert [(x["segment"], x["first"], x["count"]) for x in g["parts"]] == [(n, 0, 1), (n + 1, 1, 1), (n + 2, 2, 1)], g["parts"]
o = g["segment_order"]
assert o.index(n + 2) == o.index(n + 1) + 1 and len(g["runs"]) == len(f["runs"]) + 1, g
assert [x["cycles"] for x in g["parts"]] == [l["cycles"] for l in g["layers"]], g
assert g["cycles"] == sum(x["cycles"] for x in g["parts"]) > f["cycles"], (g, f)
assert g["layers"][2]["cycles"] > f["layers"][2]["cycles"], (g["layers"], f["layers"])
for q in (c, c2):
    for s in q["stages"]:
        s.pop("why")
    q["fold"].pop("why")
assert c == c2
PY
# fold.hw.PP reads back every PP the search offers (6 here: it is the fit
# that refuses this engine beside the dataflow, not the reader); 7 is not
# one of kiln_tsconv's verified values
for pp in 6 7; do
  /usr/bin/python3 -c "import json, sys; p = json.load(open(sys.argv[1])); p['fold']['hw']['PP'] = $pp; json.dump(p, open(sys.argv[2], 'w'))" $TMP/a/plan.json $TMP/pp$pp.json
done
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/pp6.json --plan-only -o $TMP/g 2> $TMP/err; then :; fi
if grep -q 'fold.hw.PP' $TMP/err; then exit 1; fi
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/pp7.json --plan-only -o $TMP/h 2> $TMP/err; then exit 1; fi
grep -q "pp7.json: \$.fold.hw.PP: 7 is not one of the shared engine's verified PP values (1 to 6, 8)" $TMP/err
# fold.hw.WBANKS: 1 or 2
/usr/bin/python3 -c "import json, sys; p = json.load(open(sys.argv[1])); p['fold']['hw']['WBANKS'] = 3; json.dump(p, open(sys.argv[2], 'w'))" $TMP/a/plan.json $TMP/wb3.json
if $KILN compile $M --calib-random 1 --board kv260 --plan $TMP/wb3.json --plan-only -o $TMP/w 2> $TMP/err; then exit 1; fi
grep -q 'wb3.json: \$.fold.hw.WBANKS' $TMP/err
# --fold auto under a bound no plan meets: the plan without a fold misses
# it, every fold is tried, and the message says how close both came
if $KILN compile $MODELS/yolov3-tiny-small.onnx --calib-random 1 --clk2x off --board ultra96v2 --pp-max 1 --fold auto \
    --max-latency-ms 0.001 --plan-only -o $TMP/nb 2> $TMP/err; then exit 1; fi
grep -Eqx "kiln: plan: yolov3_tiny on ultra96v2 cannot meet --max-latency-ms 0.001: the shortest latency the planner reaches is [0-9.]+ ms .*; with a shared engine \(--fold auto\) the shortest is [0-9.]+ ms" $TMP/err
if [ -e $TMP/nb/plan.json ]; then exit 1; fi
