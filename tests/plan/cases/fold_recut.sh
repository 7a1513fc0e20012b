# RUN: KILN
# hls_fold_recut: the shared engine's parts cut again after the latency
# steps.  YOLOv3-tiny on KV260 with conv2 .. conv22 folded under 7.9 ms:
# the search's cuts (before the latency steps) take none, the steps then
# grow the pools and the plan runs two frames in flight, the next frame
# entering once the one before has ended conv12's part, its segment 0
# (conv0, 390 kcycles) longer than the tail it runs beside.  A cut in that
# part lengthens the tail, so the interval shortens within the bound; the
# pools between the engine's parts, then in the interval, grow a lane step;
# conv0, hidden behind the tail, is trimmed to fewer DSP48E2 within the
# interval the plan had before the cut; the LUTs that frees go to one
# DSP48E2 a requant lane (RQ_DSP 1) where the plan keeps its interval and
# latency.  The plan meets the bound and replays to itself; each step's
# reason is in plan.json; the same plan without the cuts and with two
# DSP48E2 a lane has a longer interval, more DSP48E2 and a lower DSP
# efficiency.
SET=conv2,conv4,conv6,conv8,conv10,conv12,conv13,conv14,conv15,conv18,conv21,conv22
M=$MODELS/yolov3-tiny.onnx
$KILN compile $M --calib-random 1 --board kv260 --clk2x on --fold $SET --max-latency-ms 7.9 --plan-only -o $TMP/a > /dev/null
$KILN compile $M --calib-random 1 --board kv260 --plan $TMP/a/plan.json --max-latency-ms 7.9 --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
/usr/bin/python3 - $TMP $KILN $M <<'PY'
import json, re, subprocess, sys
t, kiln, m = sys.argv[1:4]
a = json.load(open(t + "/a/plan.json"))
g, f = a["figures"], a["fold"]
assert g["latency_cycles"] <= 7.9 * a["clock_mhz"] * 1e3, g
assert len(f["parts"]) > 7 and f["gate"] > 0, (f["parts"], f["gate"])
assert f["hw"].get("RQ_DSP") == 1, f["hw"]
why = [s["why"] for s in a["stages"]]
assert any(re.search(r"grown to LANES \d+ after the latency steps: its segment is in the "
                     r"interval \(\d+ -> \d+ cycles\)", w) for w in why), why
assert any(re.search(r"trimmed from \d+x\d+x\d+, \d+ DSP48E2 fewer, within the interval the plan "
                     r"had before its cut", w) for w in why), why
# the plan the pass started from: no cuts (parts and segment_order left
# out: the replay makes none), two DSP48E2 a lane, each layer's tile as
# the replay asks
u = json.loads(json.dumps(a))
del u["fold"]["parts"], u["fold"]["segment_order"], u["fold"]["hw"]["RQ_DSP"]
for _ in range(4):
    json.dump(u, open(t + "/u.json", "w"))
    r = subprocess.run([kiln, "compile", m, "--calib-random", "1", "--board", "kv260", "--plan",
                        t + "/u.json", "--max-latency-ms", "7.9", "--plan-only", "-o", t + "/u"],
                       capture_output=True, text=True)
    x = re.search(r"\$\.fold\.layers\[(\d+)\]\.tog: \d+, the \d+x\d+ engine takes (\d+)", r.stderr)
    if not x:
        break
    u["fold"]["layers"][int(x.group(1))]["tog"] = int(x.group(2))
assert r.returncode == 0, r.stderr
h = json.load(open(t + "/u/plan.json"))["figures"]
print("interval %d -> %d cycles, DSP %d -> %d, DSP efficiency %.4f -> %.4f"
      % (h["interval_cycles"], g["interval_cycles"], h["used"]["dsp"], g["used"]["dsp"],
         h["dsp_efficiency"], g["dsp_efficiency"]))
assert g["interval_cycles"] < h["interval_cycles"], (g, h)
assert g["used"]["dsp"] < h["used"]["dsp"], (g["used"], h["used"])
assert g["dsp_efficiency"] > h["dsp_efficiency"], (g, h)
PY
