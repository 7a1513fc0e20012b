# RUN: KILN
# The shared engine on clk2x: with --clk2x on (ZCU104 at 300 MHz, its DSPs
# at 600 MHz within the xczu7ev-2's DSP48E2 FMAX) the fold search also
# tries kiln_tsconv with kiln_conv DSP2X 1 (input-lane pairs) and, at an
# even PP, DSP2X 2 (pixel pairs); plan.json records fold.hw.DSP2X.  A
# replay takes DSP2X as written: 1 and 2 halve the engine's multiplier
# DSPs (PACK 2: PP*PE*PE/2 -> PP*PE*PE/4), each layer's cycles grow by
# kiln_conv's 2 more cycles of latency at most a few cycles, the report
# says so, and kiln_top wires clk2x to the engine (tied off without
# DSP2X).  DSP2X 2 at an odd PP, DSP2X 1 in a plan without clk2x and
# DSP2X 3 are errors naming the field.  (--pp-max 2: what this checks does
# not depend on a larger PP; the replays put the dataflow's convs at PP 1,
# their clk2x mode on input-lane pairs.)
M=$MODELS/yolov3-tiny-small.onnx
F=conv12,conv13,conv14
$KILN compile $M --calib-random 1 --board zcu104 --clk2x on --pp-max 2 --fold $F --plan-only -o $TMP/a > /dev/null
/usr/bin/python3 - $TMP/a/plan.json $TMP <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
t = sys.argv[2]
assert p["clk2x"] is True, p.get("clk2x")
f = p["fold"]
assert f["hw"]["DSP2X"] in (0, 1, 2), f["hw"]
# the dataflow's arrays at one pixel an op and half the input lanes (from 8),
# so the engine at PP 2 fits beside it
for s in p["stages"]:
    if s["engine"] == "kiln_conv":
        s["pp"] = 1
        if s["pe_ic"] >= 8:
            s["pe_ic"] //= 2
        if "dsp2x_pairs" in s:
            s["dsp2x_pairs"] = "inputs"
for x2, pp in ((0, 2), (1, 2), (2, 2), (1, 1), (2, 1), (3, 2)):
    f["hw"]["DSP2X"], f["hw"]["PP"] = x2, pp
    json.dump(p, open("%s/x%d_pp%d.json" % (t, x2, pp), "w"))
p.pop("clk2x")
f["hw"]["DSP2X"], f["hw"]["PP"] = 1, 1
json.dump(p, open(t + "/noclk.json", "w"))
PY
for v in x0_pp2 x1_pp2 x2_pp2 x1_pp1; do
  $KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/$v.json --plan-only -o $TMP/$v > /dev/null
done
/usr/bin/python3 - $TMP <<'PY'
import json, sys
t = sys.argv[1]
p = {v: json.load(open("%s/%s/plan.json" % (t, v))) for v in ("x0_pp2", "x1_pp2", "x2_pp2", "x1_pp1")}
f0 = p["x0_pp2"]["fold"]
pe = f0["hw"]["PE_IC"]
for v, x2, pp in (("x1_pp2", 1, 2), ("x2_pp2", 2, 2), ("x1_pp1", 1, 1)):
    f = p[v]["fold"]
    assert f["hw"]["DSP2X"] == x2 and f["hw"]["PP"] == pp, (v, f["hw"])
    assert "DSPs on clk2x" in f["why"], (v, f["why"])
# half the multiplier DSPs (the requant's stay)
d = f0["resources"]["dsp"] - p["x1_pp2"]["fold"]["resources"]["dsp"]
assert d == 2 * pe * pe // 4, (d, pe)
assert p["x2_pp2"]["fold"]["resources"]["dsp"] == p["x1_pp2"]["fold"]["resources"]["dsp"]
# the same cycles but for kiln_conv's latency, 2 more (a layer's output
# write may end a few cycles later still); a layer the engine prefetched
# during the one before may take a cycle or two fewer (that one's later
# end leaves its tiles more time), the frame more
for v in ("x1_pp2", "x2_pp2"):
    for a, b in zip(f0["layers"], p[v]["fold"]["layers"]):
        assert a["node"] == b["node"] and -8 <= b["cycles"] - a["cycles"] <= 8, (v, a, b)
    d = sum(b["cycles"] for b in p[v]["fold"]["layers"]) - sum(a["cycles"] for a in f0["layers"])
    assert 0 < d <= 8 * len(f0["layers"]), (v, d)
PY
# report.md's DSP use: the engine's row and the losses summing up
$HERE/check_plan.py dsp_use $TMP/x2_pp2 > /dev/null
grep -q '^One 16x16 array (PACK 2, PP 2, DSP2X 2: its multipliers on clk2x, two pixels a DSP48E2 a fabric cycle)' $TMP/x2_pp2/report.md
grep -q 'time-shared engine | replayed from .*x1_pp2.json: 3 conv layers on a 16x16 array, DSPs on clk2x (input-lane pairs, DSP2X 1)' $TMP/x1_pp2/report.md
for v in x2_pp1 x3_pp2 noclk; do
  if $KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/$v.json --plan-only -o $TMP/bad 2> $TMP/err_$v; then exit 1; fi
done
grep -q 'x2_pp1.json: \$.fold.hw.DSP2X: 2 (pixel pairs) needs an even PP, not 1' $TMP/err_x2_pp1
grep -q 'x3_pp2.json: \$.fold.hw.DSP2X' $TMP/err_x3_pp2
grep -q "noclk.json: \$.fold.hw.DSP2X: 1 needs the plan's clk2x domain (\$.clk2x true)" $TMP/err_noclk
# the generated top: clk2x into the engine with DSP2X, tied off without
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/x2_pp2.json -o $TMP/r2 > /dev/null
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/r2/rtl/kiln_top.v | grep -q '^        .DSP2X(2),\?$'
grep -A2 '^    ) u_tsconv ($' $TMP/r2/rtl/kiln_top.v | grep -q '^        .clk2x(clk2x),$'
$KILN compile $M --calib-random 1 --board zcu104 --plan $TMP/x0_pp2.json -o $TMP/r0 > /dev/null
grep -A2 '^    ) u_tsconv ($' $TMP/r0/rtl/kiln_top.v | grep -q "^        .clk2x(1'b0),$"
