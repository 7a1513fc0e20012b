# RUN: KILN
# VNNI in the int8 MatMul of a computed B and the int8 Gemm of transA and
# a computed B (cases/vnni-pack.gir, K = 72: one 64-byte vector and 8
# products): a _pre kernel packs B (with its -128 * sum correction) and A
# at run time, so the vpdpbusd loop of a constant B applies.  --target cpu
# gives --target int8's bytes, and the x86-64 object for x86-64-v4
# +avx512vnni holds vpdpbusd (none without the packing).
g=$HERE/cases/vnni-pack.gir
ins="-i $HERE/cases/vnni-pack-a.npy -i $HERE/cases/vnni-pack-z.npy"
$KILN run $g $ins --target cpu -o $TMP/cpu0.npy -o $TMP/cpu1.npy > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 5 of 5 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $ins --target int8 -o $TMP/ref0.npy -o $TMP/ref1.npy > /dev/null
cmp $TMP/cpu0.npy $TMP/ref0.npy
cmp $TMP/cpu1.npy $TMP/ref1.npy
echo "2 outputs: --target cpu byte for byte --target int8"
$KILN lower $g --triple x86_64-linux-gnu --cpu x86-64-v4 --features +avx512vnni -o $TMP/vp.o > /dev/null
n=$(objdump -d $TMP/vp.o | grep -c vpdpbusd || true)
echo "x86-64-v4 +avx512vnni: $n vpdpbusd"
[ "$n" -gt 0 ]
