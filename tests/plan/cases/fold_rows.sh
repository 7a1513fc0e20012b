# RUN: KILN PYTHON
# The shared engine's line buffer of twice the rows (kiln_conv LBROWS 5:
# R = 8 for 3x3 layers, hls_fold_rows): three 3x3 convs on 13x13 maps
# (32 -> 1024 -> 128 -> 128 channels), the last two folded.  On ZCU104 the
# 16x16 PP 8 engine's pixel groups run across the 13-pixel rows and wait
# for input rows at R = 4: the plan takes LBROWS 5, fold.why says so, the
# replay gives the same figures and the generated top passes it to the
# engine; the same plan replayed at R = 4 (LBROWS 0, the tiles R = 4
# takes) has a longer engine frame and fewer frames/s, so R = 8 pays.  On
# a ZCU104 of 50 RAMB36E2 (budget 45; its URAM as it is) the R = 4 plan
# fits and the R = 8 one does not (its banks twice as deep): the plan
# keeps LBROWS 0, and the R = 8 replay of it exceeds BRAM.  A LBROWS
# other than 0 or 5: one exact diagnostic.
$PYTHON $HERE/gen_fold3.py $TMP/m.onnx rows
$KILN quantize $TMP/m.onnx --calib-random 1 -o $TMP/q.gir > /dev/null
sed 's/bram36="312"/bram36="50"/; s/name="zcu104"/name="zcu104_bram50"/' \
    $SRC/boards/zynq-ultrascale/zcu104.xml > $TMP/short.xml
$KILN compile $TMP/q.gir --board zcu104 --fold conv1,conv2 --plan-only -o $TMP/a > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --plan $TMP/a/plan.json --plan-only -o $TMP/b > /dev/null
$HERE/check_plan.py same $TMP/a $TMP/b
$KILN compile $TMP/q.gir --board $TMP/short.xml --fold conv1,conv2 --plan-only -o $TMP/s > /dev/null
# rows: the plan.json with fold.hw.LBROWS set, each layer's tog as the
# replay asks (a tile size follows from the engine); the replay's output
rows() {
  $PYTHON $HERE/replay_hw.py "$1" LBROWS "$2" "$3" "$4" "$5" "$6"
}
rows $TMP/a/plan.json 0 zcu104 $TMP/r4 $KILN $TMP/q.gir
if rows $TMP/s/plan.json 5 $TMP/short.xml $TMP/s8 $KILN $TMP/q.gir > $TMP/s8.err; then exit 1; fi
grep -q "s8.json: the plan does not fit zcu104_bram50: it exceeds BRAM 90% (" $TMP/s8.err
$PYTHON - $TMP <<'PY'
import json, sys
t = sys.argv[1]
a, r4, s = (json.load(open("%s/%s/plan.json" % (t, v))) for v in ("a", "r4", "s"))
f, f4 = a["fold"], r4["fold"]
assert f["hw"]["LBROWS"] == 5 and f["hw"]["KMAX"] == 3, f["hw"]
assert "line buffer of twice the rows (LBROWS)" in f["why"], f["why"]
assert f4["hw"]["LBROWS"] == 0, f4["hw"]
print("engine frame %d cycles at R = 8, %d at R = 4; %.1f / %.1f frames/s; BRAM36 %.1f / %.1f"
      % (f["cycles"], f4["cycles"], a["figures"]["fps"], r4["figures"]["fps"],
         a["figures"]["used"]["bram36"], r4["figures"]["used"]["bram36"]))
assert f["cycles"] < f4["cycles"] and a["figures"]["fps"] > r4["figures"]["fps"], (f, f4)
assert f["resources"]["bram36"] > f4["resources"]["bram36"], (f["resources"], f4["resources"])
assert s["fold"]["hw"]["LBROWS"] == 0 and s["fold"]["layers"], s["fold"]
assert s["figures"]["used"]["bram36"] <= s["figures"]["budget"]["bram36"], s["figures"]
PY
# the generated top: LBROWS into the engine; report.md says the rows
$KILN compile $TMP/q.gir --board zcu104 --plan $TMP/a/plan.json -o $TMP/g > /dev/null
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/g/rtl/kiln_top.v | grep -q '^        .LBROWS(5),\?$'
grep -q "^Its line buffer holds 8 rows (kiln_conv LBROWS 5)" $TMP/g/report.md
$PYTHON -c "import json, sys; p = json.load(open(sys.argv[1])); p['fold']['hw']['LBROWS'] = 7; json.dump(p, open(sys.argv[2], 'w'))" $TMP/a/plan.json $TMP/bad.json
$SRC/tests/cli/expect.sh 2 "kiln: $TMP/bad.json: \$.fold.hw.LBROWS: 7, the engine takes 0 or 5 (twice the line-buffer rows of KMAX 3)" -- $KILN compile $TMP/q.gir --board zcu104 --plan-only --plan $TMP/bad.json -o $TMP/d
