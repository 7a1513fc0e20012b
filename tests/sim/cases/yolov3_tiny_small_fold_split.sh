# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: a dataflow segment split in two (hls_fold_split, docs/plan.md
# "A dataflow segment split in two"), in Verilator.  yolov3-tiny-small on
# Ultra96-V2 at PP up to 4 with --fold conv8, conv10, conv12 .. conv18,
# conv21, conv22 (the plan yolov3_tiny_small_fold_cut starts from): its
# first segment runs conv0 .. maxpool7.  That plan.json with
# fold.splits ["conv4"] (the parts one SEGMENT value up, segment 1 right
# after segment 0 in the frame's order) is replayed (--plan): conv0 ..
# maxpool3 stay segment 0, conv4 .. maxpool7 run as segment 1 on a run
# unit of their own, maxpool3's output through DDR, and each half's run is
# shorter than the whole was.  The case fails when the replay drops the
# split.  Then 2 frames in Verilator: every segment and part bit-exact,
# each part's frame, every stage's t_done, the interval, the latency and
# the two frames beside the dataflow within 2% of the plan.
. $HERE/fold_lib.sh
fold_quantize
fold_ultra96_plan
$PYTHON - $TMP/u/plan.json $TMP/split.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f, n = p["fold"], p["figures"]["segments"]
seg = {s["node"]: s["segment"] for s in p["stages"]}
assert "splits" not in f and seg["conv0"] == seg["conv4"] == seg["maxpool7"] == 0, (f, seg)
f["splits"] = ["conv4"]
for q in f["parts"]:
    q["segment"] += 1
o = [s + (s > 0) for s in f["segment_order"]]
o.insert(o.index(0) + 1, 1)
f["segment_order"] = o
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/split.json -o $TMP/a > /dev/null
$PYTHON - $TMP/u/plan.json $TMP/a/plan.json $TMP/a/rtl/regmap.json <<'PY'
import json, sys
u, p, r = (json.load(open(x)) for x in sys.argv[1:4])
f, g, n = p["fold"], p["figures"], p["figures"]["segments"]
assert n == u["figures"]["segments"] + 1 and f["splits"] == ["conv4"], (n, f)
seg = {s["node"]: s["segment"] for s in p["stages"]}
assert [seg[x] for x in ("conv0", "maxpool3", "conv4", "maxpool7", "maxpool9")] == [0, 0, 1, 1, 2], seg
o = f["segment_order"]
assert o.index(1) == o.index(0) + 1, o
# maxpool3's output crosses the split through DDR: a write and a read channel
cross = sorted((c["dir"], c["segment"], c["layer"]) for c in r["channels"] if c.get("value") == "maxpool3")
assert cross == [("rd", 1, "conv4"), ("wr", 0, "maxpool3")], cross
# each half runs shorter than the whole segment did
whole = u["fold"]["runs"][u["fold"]["segment_order"].index(0)]
halves = [f["runs"][o.index(0)], f["runs"][o.index(1)]]
assert max(halves) < whole, (halves, whole)
assert r["tsconv"]["segment_order"] == o, r["tsconv"]
print("split at conv4: segment 0 %d cycles -> %d + %d; interval %d -> %d, latency %d -> %d cycles"
      % (whole, halves[0], halves[1], u["figures"]["interval_cycles"], g["interval_cycles"],
         u["figures"]["latency_cycles"], g["latency_cycles"]))
PY
fold_simulate $TMP/a
