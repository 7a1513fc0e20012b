# RUN: KILN
# hls_fold_splits: a dataflow segment split in two where that shortens the
# interval.  yolov3-tiny-small on ZCU104 with conv12 .. conv14 folded under
# 0.2 ms: the first segment (conv0 .. the pools before the engine) runs
# one frame a start on its run unit, so its fill is in the interval; split
# in two, each half on a unit of its own, the next frame enters the first
# half while this one is in the second.  The search takes a split: the
# reason names the interval and latency before and after, the stage heads
# a segment right after the one its producer is in (frame order), the
# latency stays within the bound, and the plan replays to itself.  The
# same plan without its split has a longer interval; without a bound no
# split is taken (the latency may not grow).  A replay's split that names
# no stage, or a segment's first stage, is an error naming the JSON path.
M=$MODELS/yolov3-tiny-small.onnx
ARGS="--calib-random 1 --board zcu104 --clk2x on --pp-max 2"
SET=conv12,conv13,conv14
$KILN compile $M $ARGS --fold $SET --max-latency-ms 0.2 --plan-only -o $TMP/a > /dev/null
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/a/plan.json --max-latency-ms 0.2 --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $M $ARGS --fold $SET --plan-only -o $TMP/n > /dev/null
/usr/bin/python3 - $TMP $KILN $M <<'PY'
import json, re, subprocess, sys
t, kiln, m = sys.argv[1:4]
args = ["--calib-random", "1", "--board", "zcu104"]
a = json.load(open(t + "/a/plan.json"))
g, f = a["figures"], a["fold"]
bound = 0.2 * a["clock_mhz"] * 1e3
assert g["latency_cycles"] <= bound, g
assert f.get("splits"), f
names = [s["node"] for s in a["stages"]]
seg = {s["node"]: s["segment"] for s in a["stages"]}
last = None
for x in f["splits"]:
    s = a["stages"][names.index(x)]
    w = re.search(r"starts dataflow segment (\d+), split from the one before it \(a run unit "
                  r"each\): interval (\d+) -> (\d+) cycles, latency (\d+) -> (\d+)", s["why"])
    assert w and int(w.group(1)) == s["segment"], s["why"]
    assert int(w.group(3)) < int(w.group(2)) and int(w.group(5)) <= bound, s["why"]
    prev = names[names.index(x) - 1]
    o = f["segment_order"]
    assert seg[prev] + 1 == s["segment"] and o.index(s["segment"]) == o.index(seg[prev]) + 1, (
        x, prev, seg, o)
    last = int(w.group(3))
assert g["interval_cycles"] <= last, (g, last)
n = json.load(open(t + "/n/plan.json"))
assert "splits" not in n["fold"], n["fold"]
def replay(p, name):
    json.dump(p, open(t + "/" + name + ".json", "w"))
    return subprocess.run([kiln, "compile", m] + args + ["--plan", t + "/" + name + ".json",
                          "--max-latency-ms", "0.2", "--plan-only", "-o", t + "/" + name],
                          capture_output=True, text=True)
# the plan without its splits (parts and segment_order left out: the
# replay makes them again)
u = json.loads(json.dumps(a))
del u["fold"]["splits"], u["fold"]["parts"], u["fold"]["segment_order"]
r = replay(u, "u")
assert r.returncode == 0, r.stderr
h = json.load(open(t + "/u/plan.json"))["figures"]
print("splits %s: interval %d -> %d cycles, latency %d -> %d"
      % (f["splits"], h["interval_cycles"], g["interval_cycles"], h["latency_cycles"],
         g["latency_cycles"]))
assert g["interval_cycles"] < h["interval_cycles"], (g, h)
for bad, msg in ((["nosuch"], "$.fold.splits[0]: expected the name of a stage in the dataflow"),
                 ([names[0]], "$.fold.splits[0]: plan: no split at '%s': it is the first stage "
                              "of its segment" % names[0])):
    u = json.loads(json.dumps(a))
    u["fold"]["splits"] = bad
    r = replay(u, "bad")
    assert r.returncode == 2 and msg in r.stderr and r.stderr.count("\n") == 1, (r.returncode, r.stderr)
PY
