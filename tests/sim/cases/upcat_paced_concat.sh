# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 900
# A concat paced by a narrower producer: upcat on Ultra96-V2, its second
# segment the upsample and the concat alone (YOLOv3-tiny's route20 beside
# the shared engine, both inputs read from DDR), replayed with the upsample
# at 2 lanes and the concat at 4.  kiln_width packs two upsample beats into
# each concat beat, so the concat takes a pixel's 16 upsampled channels in
# 6 cycles (8 beats less the two kiln_width holds) and then the kept map's
# 32 in 8: 14 cycles a pixel against the 12 its descriptor counts (a model
# without the pace said an interval of 14,930 cycles; 16,774 are
# measured).  The upsample waits behind the join FIFO for the concat.
# Every stage's t_done, the interval and the latency within 2%, bit-exact.
$KILN quantize $MODELS/upcat.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off --plan-only -o $TMP/p > /dev/null
$PYTHON - $TMP/p/plan.json $TMP/narrow.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
kinds = {s["node"]: s["engine"] for s in p["stages"]}
assert [kinds[n] for n in ("upsample4", "concat5")] == ["kiln_upsample", "kiln_concat"], kinds
for s in p["stages"]:
    if s["node"] == "upsample4":
        s["lanes"] = 2
    if s["node"] == "concat5":
        s["lanes"] = 4
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $TMP/q.gir --board ultra96v2 --plan $TMP/narrow.json -o $TMP/a > /dev/null
$PYTHON - $TMP/a/plan.json <<'PY'
import json, sys
s = {x["node"]: x for x in json.load(open(sys.argv[1]))["stages"]}["concat5"]
# 1024 pixels of 4 + 8 beats (the descriptor), of 6 + 8 cycles at the pace
assert s["cycles"] == 1024 * 12 + 1 and s["occupancy"] >= 1024 * 14 + 1, s
PY
$KILN simulate $TMP/a -i $MODELS/upcat-input.npy --frames 4 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
