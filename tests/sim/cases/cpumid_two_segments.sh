# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Two FPGA segments with CPU nodes between them (cpumid): each segment run
# alone from the interpreter's values, both bit-exact, on the model's .npy
# input over 3 frames.
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a > /dev/null
$KILN simulate $TMP/a -i $MODELS/cpumid-input.npy --frames 3 --json > $TMP/out.json
grep -q '^segment 1: .*; bit-exact' $TMP/a/report.md
grep -Eq '"bit_exact":[[:space:]]*true' $TMP/out.json
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
