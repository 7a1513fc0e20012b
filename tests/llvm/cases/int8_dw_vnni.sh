# RUN: KILN
# The int8 depthwise Conv (cases/dw-int8.gir from gen_dw_int8.py: 20
# channels; 3x3, 5x5, 7x7 and 1x3 kernels, strides (2,1), (1,2), (2,2) and
# (1,3), dilation 2, asymmetric pads, no bias, the clamp; the strides along
# x above 1 take the row kernel, as KILN_VNNI=0 does; and a MatMul and a
# Gemm (transB, a bias) of a constant B with M = 21, K = 19, N = 13 for the
# blocked VNNI kernel of llvm/gemm_i8.c): --target cpu
# (vpdpbusd where this CPU has VNNI) and the same with KILN_VNNI=0 (the
# widening multiplies) give --target int8's bytes; the x86-64 objects hold
# vpdpbusd for x86-64-v4 +avx512vnni and x86-64-v3 +avxvnni and none for
# x86-64-v4, and the VNNI ones run byte for byte where this CPU has their
# features.  Without VNNI (KILN_VNNI=0, x86-64-v4, aarch64) the node takes
# the row kernel that llvm_int8_ops also runs in objects and under qemu.
g=$HERE/cases/dw-int8.gir
x="$HERE/cases/dw-int8-x.npy $HERE/cases/dw-int8-a.npy $HERE/cases/dw-int8-a2.npy"
. $HERE/vnni_lib.sh
vnni_same $g int8 9 $x
. $HERE/aot_lib.sh
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
check_obj() {   # STEM: link and run it, its outputs against --target int8's
    local o=$1 k out=()
    aot_link cc $TMP/$o
    for k in 0 1 2 3 4 5 6 7 8; do out+=(-o $TMP/${o}_$k.raw); done
    $TMP/$o $x "${out[@]}"
    for k in 0 1 2 3 4 5 6 7 8; do
        as_npy $TMP/${o}_$k.raw $TMP/ref$k.npy $TMP/${o}_$k.npy
        cmp $TMP/${o}_$k.npy $TMP/ref$k.npy
    done
    echo "$o: 9 outputs byte for byte --target int8"
}
lower() {   # STEM WANT_VPDPBUSD(0: none, 1: some) CPU [FEATURES]
    local stem=$TMP/$1 n
    $KILN lower $g --triple x86_64-linux-gnu --cpu $3 ${4:+--features $4} --symbol $1 \
        -o $stem.o > /dev/null 2>&1
    n=$(objdump -d $stem.o | grep -c vpdpbusd || true)
    echo "$1 ($3${4:+ $4}): $n vpdpbusd"
    if [ $2 = 1 ]; then [ "$n" -gt 0 ]; else [ "$n" = 0 ]; fi
}
lower v4_vnni 1 x86-64-v4 +avx512vnni
lower v4 0 x86-64-v4
lower v3_avxvnni 1 x86-64-v3 +avxvnni
if has avx512f && has avx512bw && has avx512_vnni; then check_obj v4_vnni; else echo "v4_vnni: not run (no AVX512-VNNI here)"; fi
if has avx2 && has avx_vnni; then check_obj v3_avxvnni; else echo "v3_avxvnni: not run (no AVX-VNNI here)"; fi
