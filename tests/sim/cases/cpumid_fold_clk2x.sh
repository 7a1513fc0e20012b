# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# A scaled-down fold on clk2x: cpumid's conv2 and conv4 (conv3 between them
# runs on the CPU) on one kiln_tsconv of 16x16 lanes, PP 2, for ZCU104 with
# --clk2x on, replayed with the engine's kiln_conv at DSP2X 2 (pixel pairs
# on clk2x, the dataflow's convs on DSP2X 1; its line buffer banked by
# pixel, LBBANK 64): kiln_top wires clk2x to the
# engine, the harness drives it at twice clk with aligned edges (kiln_conv's
# clock check in simulation); over 2 frames every segment and the engine's
# part bit-exact, the part's cycles, every t_done, the interval and the
# latency within 2% of the plan.
$KILN quantize $MODELS/cpumid.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --clk2x on --pp-max 2 --fold conv2,conv4 --plan-only -o $TMP/p > /dev/null
$PYTHON - $TMP/p/plan.json $TMP/x2.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = p["fold"]
assert p["clk2x"] is True and f["hw"]["PE_IC"] == 16 and f["hw"]["PP"] == 2, f["hw"]
assert [l["node"] for l in f["layers"]] == ["conv2", "conv4"], f["layers"]
f["hw"]["DSP2X"] = 2
json.dump(p, open(sys.argv[2], "w"))
PY
$KILN compile $TMP/q.gir --board zcu104 --plan $TMP/x2.json -o $TMP/a > /dev/null
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/a/rtl/kiln_top.v | grep -q '^        .DSP2X(2),$'
# the engine's line buffer banked by pixel (the search banks it where that
# saves blocks: two banks of 64 words against two copies of 128)
sed -n '/^    kiln_tsconv #($/,/u_tsconv (/p' $TMP/a/rtl/kiln_top.v | grep -q '^        .LBBANK(64)$'
grep -A2 '^    ) u_tsconv ($' $TMP/a/rtl/kiln_top.v | grep -q '^        .clk2x(clk2x),$'
grep -q 'KILN_TOP_CLK2X 1' $TMP/a/rtl/kiln_ports.h
$KILN simulate $TMP/a --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
grep -Eq "^segment [0-9]+ \(the shared engine's part 0, 2 layers, a start a frame\): .*; bit-exact" $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
