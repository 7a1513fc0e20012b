# RUN: KILN PYTHON
# TIMEOUT: 150
# Per-channel tables of the PP-OCRv4 detector on the FPGA (docs/ocr.md,
# "Per-channel tables on the FPGA").  Quantized at 1,3,64,64 with
# --channel-scales auto (random calibration: 15 LutI8s get a table per
# channel): on zcu102 kiln compile --plan-only keeps all on kiln_lut (117
# FPGA layers, 60 CPU nodes, no LutI8 among them); on zcu104 the smallest
# design with them does not fit, so the plan is made again with the 15 on
# the CPU, each with the line naming what overflowed.  Its plan.json says
# so (lut_cpu), and a replay of it (--plan) partitions the same way, with
# the same reasons and figures.  The plans are on
# the fabric clock (--clk2x off: auto plans twice, and takes clk2x on
# zcu102).
. $HERE/lib.sh
ocr_need
$KILN quantize $DET --input-shape 1,3,64,64 --calib-random 1 --channel-scales auto \
  -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu102 --clk2x off --plan-only -o $TMP/c102 | tee $TMP/c102.out
grep -q '; 117 FPGA layers, 60 CPU nodes, 22 segment(s)$' $TMP/c102.out
! grep -q '(LutI8):' $TMP/c102/report.md
$KILN compile $TMP/q.gir --board zcu104 --clk2x off --plan-only -o $TMP/c104 | tee $TMP/c104.out
grep -q ' FPGA layers, 75 CPU nodes, ' $TMP/c104.out
test "$(grep -cE '\(LutI8\): a LutI8 table per channel: with these tables on kiln_lut the smallest design exceeds [A-Z]+[0-9]* [0-9]+% \([0-9]+ > [0-9]+\)$' \
        $TMP/c104/report.md)" = 15
grep -q '"lut_cpu":[[:space:]]*"a LutI8 table per channel: ' $TMP/c104/plan.json
$KILN compile $TMP/q.gir --board zcu104 --plan $TMP/c104/plan.json --plan-only -o $TMP/r104 |
  tee $TMP/r104.out
grep -q ' FPGA layers, 75 CPU nodes, ' $TMP/r104.out
diff <(grep '(LutI8):' $TMP/c104/report.md) <(grep '(LutI8):' $TMP/r104/report.md)
$PYTHON - $TMP/c104/plan.json $TMP/r104/plan.json <<'PY'
import json, sys
a, b = (json.load(open(f))["figures"] for f in sys.argv[1:])
for k in ("interval_cycles", "latency_cycles"):
    assert a[k] == b[k], (k, a[k], b[k])
PY
