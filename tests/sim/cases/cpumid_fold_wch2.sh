# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# The shared engine's weights on two read masters (kiln_tsconv WCH 2):
# cpumid's conv2 and conv4 (conv3 between them on the CPU) on one
# kiln_tsconv of 16x16 lanes, PP 2, for ZCU104, replayed with WCH 2:
# kiln_top wires master 3 to m_axi_ts3, weights.bin holds each layer's
# weights as two halves (hls_tsconv_wsplit: lanes 0-7 of every beat, then
# lanes 8-15), the harness serves ts3 as its own master; over 2 frames
# every segment and the engine's part bit-exact, the part's cycles, every
# t_done, the interval and the latency within 2% of the plan.
$KILN quantize $MODELS/cpumid.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --pp-max 2 --fold conv2,conv4 --plan-only -o $TMP/p > /dev/null
$PYTHON - $TMP/p/plan.json $TMP/w2.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = p["fold"]
assert f["hw"]["PE_IC"] == 16 and "WCH" not in f["hw"], f["hw"]
assert [l["node"] for l in f["layers"]] == ["conv2", "conv4"], f["layers"]
f["hw"]["WCH"] = 2
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $TMP/q.gir --board zcu104 --plan $TMP/w2.json -o $TMP/a > /dev/null
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/a/rtl/kiln_top.v | grep -q '^        .WCH(2)$'
grep -q '^        .m3_axi_rdata(m_axi_ts3_rdata),$' $TMP/a/rtl/kiln_top.v
grep -q 'X(ts3, 128)' $TMP/a/rtl/kiln_ports.h
$PYTHON - $TMP/a/plan.json <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["fold"]["hw"]["WCH"] == 2
PY
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
grep -Eq "^segment [0-9]+ \(the shared engine's part 0, 2 layers, a start a frame\): .*; bit-exact" $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
