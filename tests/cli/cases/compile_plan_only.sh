# RUN: KILN
# --plan-only writes the plan files alone (no rtl/, no vivado/), and the
# report and the command's output say so.
$KILN compile $MODELS/resdw.onnx --board zcu104 --calib-random 2 --plan-only -o $TMP/a \
    > $TMP/out 2> $TMP/err
cat $TMP/out $TMP/err
ls $TMP/a | grep -v '^dataflow.svg$' > $TMP/files
printf 'dataflow.dot\nmodel.gir\nplan.json\nreport.md\n' > $TMP/want
diff $TMP/want $TMP/files
grep -q '^note: --plan-only: rtl/ and vivado/ not written$' $TMP/out
grep -q '^Plan only (`kiln compile --plan-only`): rtl/ and vivado/ were not written.$' $TMP/a/report.md
test "$(ls $TMP | grep -cE "^a(\.|$)")" = 1
