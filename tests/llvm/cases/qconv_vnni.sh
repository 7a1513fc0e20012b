# RUN: KILN
# ConvInteger and QLinearConv through vpdpbusd (cases/qconv-vnni.gir from
# gen_qconv_vnni.py: u8 and i8 x times constant u8 and i8 w, zero points
# absent, per tensor (constant or an input) and per output channel for w,
# pads even, uneven and absent, stride 2 and 3, dilation 2, a 1-D Conv,
# 6 and 3 input channels, 21 output channels, a bias, group 2 of 5
# channels, a depthwise Conv on the row kernel): --target cpu
# (vpdpbusd where this CPU has VNNI) and the same with KILN_VNNI=0 (the row
# kernel) give the interpreter's bytes; the x86-64 objects for x86-64-v4
# +avx512vnni (zmm) and x86-64-v3 +avxvnni (ymm) hold vpdpbusd and, where
# this CPU has AVX512-VNNI or AVX-VNNI, run byte for byte.
g=$HERE/cases/qconv-vnni.gir
x=$(for v in xu xi x1 xg z; do echo $HERE/cases/qconv-vnni-$v.npy; done)
. $HERE/vnni_lib.sh
vnni_same $g ref 13 $x
. $HERE/aot_lib.sh
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
# obj STEM CPU FEATURES CPUFLAG: the object for CPU FEATURES holds vpdpbusd
# and, where this CPU has CPUFLAG, runs byte for byte the interpreter
obj() {
    local o=$TMP/$1 n k out=()
    $KILN lower $g --triple x86_64-linux-gnu --cpu $2 --features $3 --symbol $1 -o $o.o > /dev/null 2>&1
    n=$(objdump -d $o.o | grep -c vpdpbusd || true)
    echo "$2 $3: $n vpdpbusd"
    [ "$n" -gt 0 ]
    if ! has $4; then echo "$1: not run (no $4 here)"; return 0; fi
    aot_link cc $o
    for k in $(seq 0 12); do out+=(-o $TMP/$1_$k.raw); done
    $o $x "${out[@]}"
    for k in $(seq 0 12); do
        as_npy $TMP/$1_$k.raw $TMP/ref$k.npy $TMP/$1_$k.npy
        cmp $TMP/$1_$k.npy $TMP/ref$k.npy
    done
    echo "$1: 13 outputs byte for byte the interpreter"
}
obj qconv x86-64-v4 +avx512vnni avx512_vnni
obj qconv_v3 x86-64-v3 +avxvnni avx_vnni
