# RUN: KILN
# A Concat whose parts are contiguous slabs of its output (every dimension
# before the axis 1) runs nothing: its parts' producers write into the
# slabs.  cases/concat_alias.gir: two such Concats (axis 1; axis 2 after
# two leading 1s) and four that keep their copy (a part that is an aliased
# Concat's output or already another Concat's part, a part given twice, a
# graph input, a batch of 4 before the axis).  KILN_CPU_PROFILE lists the
# nodes that run; with --exact every output is the interpreter's bit for bit.
g=$HERE/cases/concat_alias.gir x=$HERE/cases/concat-alias-x.npy
c=() r=()
for k in 0 1 2 3 4; do
    c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/ref$k.npy)
done
KILN_CPU_PROFILE=1 $KILN run $g -i $x --target cpu --exact "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q '^kiln: cpu: 2 Concat nodes written in place by the nodes before them$' $TMP/run.err
test "$(grep -Eo '^ +[0-9]+ Concat +[a-z]+' $TMP/run.err | awk '{print $3}' | tr '\n' ' ')" = "e g h k "
$KILN run $g -i $x "${r[@]}" > /dev/null
for k in 0 1 2 3 4; do
    cmp $TMP/cpu$k.npy $TMP/ref$k.npy
done
echo "5 outputs: --target cpu --exact bit for bit the interpreter"
