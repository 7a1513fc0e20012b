# RUN: KILN
# GridSample's opset-20 mode names: "linear" samples as "bilinear" and
# "cubic" as "bicubic", in the interpreter and through --target cpu (the
# grid of cases/qonnx.gir, points up to 1.4 outside [-1, 1]); any other name
# is refused by shape inference with the names it takes.
g=$TMP/gs.gir
{
    echo 'graph "gs20" opset 20'
    echo 'input %x : f32[2,4,5,6]'
    grep '^const %grid ' $HERE/cases/qonnx.gir
    echo '%a = GridSample(%x, %grid) {mode="linear", padding_mode="border"} : f32[2,4,3,4]'
    echo '%b = GridSample(%x, %grid) {mode="bilinear", padding_mode="border"} : f32[2,4,3,4]'
    echo '%c = GridSample(%x, %grid) {mode="cubic"} : f32[2,4,3,4]'
    echo '%d = GridSample(%x, %grid) {mode="bicubic"} : f32[2,4,3,4]'
    echo 'output %a'; echo 'output %b'; echo 'output %c'; echo 'output %d'
} > $g
for t in ref cpu; do
    $KILN run $g -i $HERE/cases/qonnx-x.npy --target $t -o $TMP/$t-a.npy -o $TMP/$t-b.npy \
        -o $TMP/$t-c.npy -o $TMP/$t-d.npy > /dev/null 2> $TMP/$t.err
    cmp $TMP/$t-a.npy $TMP/$t-b.npy
    cmp $TMP/$t-c.npy $TMP/$t-d.npy
    # bilinear and bicubic differ: the two pairs are not one mode twice
    if cmp -s $TMP/$t-a.npy $TMP/$t-c.npy; then exit 1; fi
done
grep -q ': 4 of 4 nodes compiled, 0 in the interpreter;' $TMP/cpu.err
cmp $TMP/cpu-a.npy $TMP/ref-a.npy
cmp $TMP/cpu-c.npy $TMP/ref-c.npy
sed 's/mode="cubic"/mode="quadratic"/' $g > $TMP/bad.gir
if $KILN run $TMP/bad.gir -i $HERE/cases/qonnx-x.npy > /dev/null 2> $TMP/bad.err; then exit 1; fi
cat $TMP/bad.err
grep -q 'mode must be bilinear, nearest or bicubic (opset 20: linear, nearest or cubic)' $TMP/bad.err
echo "linear = bilinear, cubic = bicubic, in the interpreter and compiled"
