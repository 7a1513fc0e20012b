# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Two FPGA segments with CPU nodes between them (cpumid): each segment run
# alone from the interpreter's values, both bit-exact, on the model's .npy
# input over 3 frames.  --pp-max 4: at the default (8) the plan's conv0 runs
# PP 6, conv2 PP 3 and conv4 PP 7, and the interval model is 3.4% slow
# there (3,132 cycles predicted, 3,030 measured: conv2's occupancy at the
# pace of conv0's PP 6 groups through maxpool1, 1,702 against 1,633, and
# conv4 at PP 7 across row ends, 1,430 against 1,397), past this case's 2%
# (docs/plan.md, "Finer steps").
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board zcu104 --clk2x off --pp-max 4 -o $TMP/a > /dev/null
$KILN simulate $TMP/a -i $MODELS/cpumid-input.npy --frames 3 --json > $TMP/out.json
grep -q '^segment 1: .*; bit-exact' $TMP/a/report.md
grep -Eq '"bit_exact":[[:space:]]*true' $TMP/out.json
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
