# RUN: KILN PYTHON
# The shared engine's weights on two read masters (kiln_tsconv WCH 2,
# hls_fold_wch, the engine sizes tried with it): three 3x3 convs on 13x13
# maps (32 -> 1024 -> 128 -> 128 channels), the last two folded.  On
# ZCU102 the 32x32 engine's 32-byte weight beats come every 2 cycles over
# one 16-byte master, so its weight channel binds; the board has HP ports
# beyond the design's masters: the plan takes WCH 2, fold.why and
# report.md say so, the replay gives the same figures; the same plan
# replayed with WCH 1 (the tiles it takes) has a longer engine frame and
# fewer frames/s.  The engine is sized with WCH 2 in the size loop: its PP
# 4 beats PP 3, the size a search at WCH 1 takes (the same plan replayed
# at PP 3 has fewer frames/s).  On ZCU104 the 16x16 engine's
# beat is one bus beat: no WCH in its plan.json.  A WCH other than 1 or 2,
# and WCH 2 on a board whose HP ports the masters take: exact diagnostics.
$PYTHON $HERE/gen_fold3.py $TMP/m.onnx wch
$KILN quantize $TMP/m.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu102 --fold conv1,conv2 -o $TMP/a > /dev/null
$KILN compile $TMP/q.gir --board zcu102 --plan $TMP/a/plan.json --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $TMP/q.gir --board zcu104 --fold conv1,conv2 --plan-only -o $TMP/c > /dev/null
# the plan with fold.hw.WCH set (1: the key removed), each layer's tog as
# the replay asks (a tile size follows from the engine)
$PYTHON $HERE/replay_hw.py $TMP/a/plan.json WCH - zcu102 $TMP/w1 $KILN $TMP/q.gir
$PYTHON $HERE/replay_hw.py $TMP/a/plan.json PP 3 zcu102 $TMP/p3 $KILN $TMP/q.gir
$PYTHON - $TMP <<'PY'
import json, sys
t = sys.argv[1]
a, w1, c, p3 = (json.load(open("%s/%s/plan.json" % (t, v))) for v in ("a", "w1", "c", "p3"))
f, f1 = a["fold"], w1["fold"]
assert f["hw"]["PE_IC"] == 32 and f["hw"]["WCH"] == 2, f["hw"]
print("PP %d: %.1f frames/s; PP 3: %.1f" % (f["hw"]["PP"], a["figures"]["fps"], p3["figures"]["fps"]))
assert p3["fold"]["hw"]["PP"] == 3 and a["figures"]["fps"] > p3["figures"]["fps"], (f["hw"], p3["fold"]["hw"])
assert "weights on two masters (WCH 2)" in f["why"], f["why"]
assert "WCH" not in f1["hw"] and "WCH" not in c["fold"]["hw"], (f1["hw"], c["fold"]["hw"])
print("engine frame %d cycles at WCH 2, %d at WCH 1; %.1f / %.1f frames/s; LUT %d / %d"
      % (f["cycles"], f1["cycles"], a["figures"]["fps"], w1["figures"]["fps"],
         f["resources"]["lut"], f1["resources"]["lut"]))
assert f["cycles"] < f1["cycles"] and a["figures"]["fps"] > w1["figures"]["fps"], (f, f1)
assert f["resources"]["lut"] > f1["resources"]["lut"], (f["resources"], f1["resources"])
PY
grep -q "^Its weights come over two read masters, each on an HP port of its own (kiln_tsconv WCH 2)" $TMP/a/report.md
grep -q "^Its weight channel (32 bytes a cycle) " $TMP/a/report.md
grep -q "^Its weight channel (16 bytes a cycle) binds 2 of its 2 layers" $TMP/w1/report.md
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/a/rtl/kiln_top.v | grep -q '^        .WCH(2)$'
$PYTHON -c "import json, sys; p = json.load(open(sys.argv[1])); p['fold']['hw']['WCH'] = 3; json.dump(p, open(sys.argv[2], 'w'))" $TMP/a/plan.json $TMP/bad.json
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/bad.json: \$.fold.hw.WCH: expected an integer in 1..2" -- $KILN compile $TMP/q.gir --board zcu102 --plan-only --plan $TMP/bad.json -o $TMP/d
sed '/S_AXI_HP[123]_FPD/d; s/name="zcu102"/name="zcu102_hp1"/' \
    $SRC/boards/zynq-ultrascale/zcu102.xml > $TMP/hp1.xml
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/a/plan.json: \$.fold.hw.WCH: 2 needs an HP port of zcu102_hp1 beyond the design's masters for the weights' second master" -- $KILN compile $TMP/q.gir --board $TMP/hp1.xml --plan-only --plan $TMP/a/plan.json -o $TMP/e
