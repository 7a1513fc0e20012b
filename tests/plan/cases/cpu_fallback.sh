# RUN: KILN PYTHON
# Layers moved to the CPU where the smallest design breaks a budget
# (hls/plan_fit.c, docs/plan.md "Partitioning").  resdw's smallest design
# takes 13,283 LUT; lut_cut.xml (ZCU104 with 13,400 LUT) allows 10,050.  The
# planner moves the two layers of fewest MACs per LUT freed, conv8 (the
# network's last conv, a tail of its segment) and then dw7 (now the tail),
# one line each in the compile output and report.md naming the layer and the
# budget, and the plan fits; its CPU nodes say why, plan.json keeps the
# moves and a replay of it partitions and figures the same.  Where nothing
# fits, and under --cpu-fallback off, the refusal of before (exit 2).  A
# model that fits (resdw on zcu104) plans exactly as with the fallback off.
$KILN quantize $MODELS/resdw.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board $HERE/lut_cut.xml --clk2x off --plan-only -o $TMP/cut | tee $TMP/cut.out
grep -q '; 6 FPGA layers, 4 CPU nodes, 1 segment(s)$' $TMP/cut.out
grep -q '^moved to the CPU: 2 layers moved in 2 moves; the FPGA keeps ' $TMP/cut.out
grep -qF 'moved to the CPU (move 1): conv8 (kiln_conv), 0.02 M MACs a frame: the smallest design exceeded LUT 75% (13283 > 10050); without them LUT 13283 -> ' $TMP/cut.out
grep -qF 'moved to the CPU (move 2): dw7 (kiln_dwconv), 0.02 M MACs a frame: the smallest design exceeded LUT 75% (' $TMP/cut.out
grep -q 'without them the smallest design fits (LUT [0-9]*)$' $TMP/cut.out
test "$(grep -c '^moved to the CPU (move' $TMP/cut.out)" = 2
grep -q '^## Moved to the CPU$' $TMP/cut/report.md
test "$(grep -c '^- move [12]: ' $TMP/cut/report.md)" = 2
grep -qF -- '- conv8 (Conv): moved to the CPU so the design fits (move 1 of 2): the smallest design exceeded LUT 75% (13283 > 10050)' $TMP/cut/report.md
grep -qF -- '- dw7 (Conv): moved to the CPU so the design fits (move 2 of 2): the smallest design exceeded LUT 75% (' $TMP/cut/report.md
$HERE/check_plan.py fits $TMP/cut
$PYTHON - $TMP/cut/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
moves = p["cpu_fit"]["moves"]
assert [m["nodes"] for m in moves] == [["conv8"], ["dw7"]], moves
assert moves[0]["budget"] == "LUT 75% (13283 > 10050)", moves[0]
stages = [s["node"] for s in p["stages"]]
assert "conv8" not in stages and "dw7" not in stages, stages
assert p["cpu_fit"]["macs_all"] > p["figures"]["macs"] > 0, p["figures"]
PY
# the replay partitions the same way
$KILN compile $TMP/q.gir --board $HERE/lut_cut.xml --plan $TMP/cut/plan.json --plan-only \
  -o $TMP/replay > /dev/null
$HERE/check_plan.py same $TMP/cut $TMP/replay
diff <(grep -E '^- (move [0-9]+:|[^ :]+ \()' $TMP/cut/report.md) <(grep -E '^- (move [0-9]+:|[^ :]+ \()' $TMP/replay/report.md)
# the refusal of before: with the fallback off, and where no move makes it fit
set +e
$KILN compile $TMP/q.gir --board $HERE/lut_cut.xml --cpu-fallback off --plan-only -o $TMP/off 2> $TMP/off.err
rc=$?
sed 's/lut="13400"/lut="3000"/' $HERE/lut_cut.xml > $TMP/lut3000.xml
$KILN compile $TMP/q.gir --board $TMP/lut3000.xml --plan-only -o $TMP/none 2> $TMP/none.err
rc2=$?
set -e
test $rc = 2
test $rc2 = 2
grep -qx 'kiln: plan: resdw does not fit lutcut: the smallest design (weights from DDR where on-chip memory is short) exceeds LUT 75% (13283 > 10050)' $TMP/off.err
grep -qx 'kiln: plan: resdw does not fit lutcut: the smallest design (weights from DDR where on-chip memory is short) exceeds LUT 75% (13283 > 2250)' $TMP/none.err
test ! -e $TMP/off/plan.json
# a model that fits: the same plan with the fallback on and off, no move
$KILN compile $TMP/q.gir --board zcu104 --clk2x off --plan-only -o $TMP/on104 > $TMP/on104.out
$KILN compile $TMP/q.gir --board zcu104 --clk2x off --cpu-fallback off --plan-only -o $TMP/off104 > /dev/null
cmp $TMP/on104/plan.json $TMP/off104/plan.json
if grep -q 'moved to the CPU' $TMP/on104.out; then exit 1; fi
if grep -q 'cpu_fit' $TMP/on104/plan.json; then exit 1; fi
