# RUN: KILN
# cpumid: a dilated conv on the CPU between two FPGA segments.
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir
for b in zcu104 ultra96v2; do
    $KILN compile $TMP/q.gir --board $b -o $TMP/$b
done
$HERE/check_plan.py fits $TMP/ultra96v2 $TMP/zcu104
for b in zcu104 ultra96v2; do
    $HERE/check_plan.py engines $TMP/$b 2 kiln_conv=4 kiln_maxpool=2
    $HERE/check_plan.py cpu $TMP/$b Conv 1
    grep -q '^- conv3 (Conv): dilated conv has no engine' $TMP/$b/report.md
done
# two segments run one after the other (one start at a time): the interval
# is the sum of theirs (or the plan's DDR cycles, the longer), and
# report.md says so
for b in zcu104 ultra96v2; do
    /usr/bin/python3 - $TMP/$b/plan.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["figures"]
si = f["segment_interval_cycles"]
assert f["segments"] == len(si) == 2, f
assert f["interval_cycles"] >= sum(si) > max(si), f
PY
    grep -q '^| interval II | [0-9]* cycles: one start at a time, the segments. [0-9]* + [0-9]*;' $TMP/$b/report.md
done
