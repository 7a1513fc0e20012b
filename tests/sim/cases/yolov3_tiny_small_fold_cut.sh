# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# End to end: a part of the shared engine's frame cut in two (hls_fold_cut,
# docs/plan.md "Cut parts") with a gate at the cut, in Verilator.
# yolov3-tiny-small on Ultra96-V2 at PP up to 4 with --fold conv8, conv10,
# conv12 .. conv18, conv21, conv22: the engine (four parts) is the longest
# unit, and with two frames in flight a frame's parts wait on the engine
# for the frame before (its latency above its runs one after the other).
# That plan.json with part 2 (conv12 .. conv18) cut at conv13 and a
# latency bound of 1.02 x a frame's runs one after the other
# (figures.max_latency_ms: what a compile under --max-latency-ms writes,
# its cuts in fold.parts) is replayed (--plan): five parts, conv12 alone
# then conv13 .. conv18 right after it in the frame's order, and a gate at
# the cut (the next frame enters once conv12's part has ended), so a frame
# no longer waits: its latency is its runs one after the other.  The case
# fails when the replay drops the cut or the gate.  Then 2 frames in
# Verilator: every segment and part bit-exact, each part's frame, every
# stage's t_done, the interval, the latency and the two frames beside the
# dataflow (run as the gate says) within 2% of the plan.
. $HERE/fold_lib.sh
fold_quantize
fold_ultra96_plan
$PYTHON - $TMP/u/plan.json $TMP/cut.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f, g, n = p["fold"], p["figures"], p["figures"]["segments"]
nodes = [l["node"] for l in f["layers"]]
assert [(x["segment"], x["first"], x["count"]) for x in f["parts"]] == [
    (n, 0, 1), (n + 1, 1, 1), (n + 2, 2, 5), (n + 3, 7, 2)], f["parts"]
assert g["latency_cycles"] > f["sequential_cycles"] and f["frames_in_flight"] > 1, (g, f)
# part 2 cut at conv13: segment n + 3 right after n + 2, the later parts one up
at = nodes.index("conv13")
q = f["parts"]
f["parts"] = q[:2] + [{"segment": n + 2, "first": 2, "count": at - 2},
                      {"segment": n + 3, "first": at, "count": 7 - at},
                      {"segment": n + 4, "first": 7, "count": 2}]
f["segment_order"] = [s + (s > n + 2) for s in f["segment_order"]]
i = f["segment_order"].index(n + 2)
f["segment_order"].insert(i + 1, n + 3)
g["max_latency_ms"] = 1.02 * f["sequential_cycles"] / (p["clock_mhz"] * 1e3)
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/cut.json -o $TMP/a > /dev/null
grep -q '^    kiln_tsconv #($' $TMP/a/rtl/kiln_top.v
$PYTHON - $TMP/u/plan.json $TMP/a/plan.json $TMP/a/rtl/regmap.json <<'PY'
import json, sys
u, p, r = (json.load(open(x)) for x in sys.argv[1:4])
f, g, t, n = p["fold"], p["figures"], r["tsconv"], p["figures"]["segments"]
nodes = [l["node"] for l in f["layers"]]
# the cut: conv12 a part alone, conv13 .. conv18 the next part, nothing of
# the dataflow between them in the frame's order
assert [(x["segment"], x["first"], x["count"]) for x in f["parts"]] == [
    (n, 0, 1), (n + 1, 1, 1), (n + 2, 2, 1), (n + 3, 3, 4), (n + 4, 7, 2)], f["parts"]
assert nodes[2:7] == ["conv12", "conv13", "conv14", "conv15", "conv18"], nodes
o = f["segment_order"]
assert o.index(n + 3) == o.index(n + 2) + 1 and len(f["runs"]) == len(u["fold"]["runs"]) + 1, f
# the gate at the cut: a frame enters once the frame before has ended conv12's part
assert f["gate"] == o.index(n + 3) and f["frames_in_flight"] > 1, f
assert g["max_latency_ms"] > 0 and g["latency_cycles"] <= g["max_latency_ms"] * p["clock_mhz"] * 1e3, g
assert g["latency_cycles"] == f["sequential_cycles"] < u["figures"]["latency_cycles"], (g, f, u["figures"])
assert [x["cycles"] for x in f["parts"][2:4]] == [l["cycles"] for l in f["layers"][2:3]] + [
    sum(l["cycles"] for l in f["layers"][3:7])], f
assert t["parts"] == f["parts"] and t["segment_order"] == o and t["gate"] == f["gate"], (t, f)
print("cut at conv13: parts %s cycles, gate %d, interval %d, latency %d cycles (%d uncut)"
      % ([x["cycles"] for x in f["parts"]], f["gate"], g["interval_cycles"], g["latency_cycles"],
         u["figures"]["latency_cycles"]))
PY
fold_simulate $TMP/a
