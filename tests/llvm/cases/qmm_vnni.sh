# RUN: KILN
# MatMulInteger and QLinearMatMul through vpdpbusd (cases/qmm-vnni.gir
# from gen_qmm_vnni.py: u8 and i8 a times u8 and i8 b, zero points absent,
# per tensor, per row and per column, constant or inputs, a constant and a
# computed batched b; M = 5, K = 19, N = 21, and K = 2, N = 37):
# --target cpu (vpdpbusd where this CPU has VNNI) and the same with
# KILN_VNNI=0 (the row kernel) give the interpreter's bytes; the x86-64
# object for x86-64-v4 +avx512vnni holds vpdpbusd and, where this CPU has
# AVX512-VNNI, runs byte for byte.
g=$HERE/cases/qmm-vnni.gir
x=$(for v in au ai bu a2 z; do echo $HERE/cases/qmm-vnni-$v.npy; done)
. $HERE/vnni_lib.sh
vnni_same $g ref 11 $x
. $HERE/aot_lib.sh
o=$TMP/qmm
$KILN lower $g --triple x86_64-linux-gnu --cpu x86-64-v4 --features +avx512vnni --symbol qmm \
    -o $o.o > /dev/null 2>&1
n=$(objdump -d $o.o | grep -c vpdpbusd || true)
echo "x86-64-v4 +avx512vnni: $n vpdpbusd"
[ "$n" -gt 0 ]
flags=$(grep -m1 '^flags' /proc/cpuinfo)
case " $flags " in
*" avx512_vnni "*)
    aot_link cc $o
    out=()
    for k in $(seq 0 10); do out+=(-o $TMP/qmm_$k.raw); done
    $o $x "${out[@]}"
    for k in $(seq 0 10); do
        as_npy $TMP/qmm_$k.raw $TMP/ref$k.npy $TMP/qmm_$k.npy
        cmp $TMP/qmm_$k.npy $TMP/ref$k.npy
    done
    echo "the object: 11 outputs byte for byte the interpreter" ;;
*) echo "the object: not run (no AVX512-VNNI here)" ;;
esac
