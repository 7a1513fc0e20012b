# RUN: KILN
# TIMEOUT: 180
# The int8 kernels in their corner cases (cases/int8-ops.gir from
# gen_int8_ops.py: Conv with 5 and 20 input channels, a partial output
# block, padding, stride, dilation; Gemm with transA, transB, each bias
# broadcast and none, the clamp; MatMul with a constant and a computed B):
# kiln run --target cpu compiles every node and gives every output byte
# for byte --target int8, and so does --target gpu-host.
g=$HERE/cases/int8-ops.gir
ins="-i $HERE/cases/int8-ops-x.npy -i $HERE/cases/int8-ops-z.npy"
c=() r=()
for k in 0 1 2 3 4 5 6 7; do
    c+=(-o $TMP/cpu$k.npy) r+=(-o $TMP/int8_$k.npy)
done
$KILN run $g $ins --target cpu "${c[@]}" > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 15 of 15 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $g $ins --target int8 "${r[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do
    cmp $TMP/cpu$k.npy $TMP/int8_$k.npy
done
echo "8 outputs: --target cpu byte for byte --target int8"
# the same kernels as PTX with their launch plan, run on this CPU
h=()
for k in 0 1 2 3 4 5 6 7; do h+=(-o $TMP/host$k.npy); done
$KILN run $g $ins --target gpu-host "${h[@]}" > /dev/null
for k in 0 1 2 3 4 5 6 7; do
    cmp $TMP/host$k.npy $TMP/int8_$k.npy
done
echo "8 outputs: --target gpu-host byte for byte --target int8"
# The same graph as x86-64 objects (kiln lower), run here: the int8 Conv
# takes vpdpbusd where the target has VNNI (AVX512-VNNI: zmm; AVX-VNNI: the
# VEX-encoded ymm form) and the int16 multiplies where it has not; every
# object's outputs byte for byte --target int8.  An object is run only
# where this CPU has what it was compiled for.
. $HERE/aot_lib.sh
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
objs=()
lower() {   # STEM WANT_VPDPBUSD(0: none, 1: some) CPU [FEATURES]
    local stem=$TMP/$1 want=$2 cpu=$3 n
    $KILN lower $g --triple x86_64-linux-gnu --cpu $cpu ${4:+--features $4} --symbol $1 \
        -o $stem.o > /dev/null
    n=$(objdump -d $stem.o | grep -c vpdpbusd || true)
    echo "$1 ($cpu${4:+ $4}): $n vpdpbusd"
    if [ $want = 1 ]; then [ "$n" -gt 0 ]; else [ "$n" = 0 ]; fi
    objs+=($1)
}
lower v4_vnni 1 x86-64-v4 +avx512vnni
lower v4 0 x86-64-v4
lower v3_avxvnni 1 x86-64-v3 +avxvnni
for o in "${objs[@]}"; do
    case $o in
        v4*) has avx512f && has avx512bw || { echo "$o: not run (no AVX-512 here)"; continue; } ;;
        v3*) has avx2 || { echo "$o: not run (no AVX2 here)"; continue; } ;;
    esac
    case $o in
        *_vnni) has avx512_vnni || { echo "$o: not run (no AVX512-VNNI here)"; continue; } ;;
        *_avxvnni) has avx_vnni || { echo "$o: not run (no AVX-VNNI here)"; continue; } ;;
    esac
    aot_link cc $TMP/$o
    out=()
    for k in 0 1 2 3 4 5 6 7; do out+=(-o $TMP/${o}_$k.raw); done
    $TMP/$o $HERE/cases/int8-ops-x.npy $HERE/cases/int8-ops-z.npy "${out[@]}"
    for k in 0 1 2 3 4 5 6 7; do
        as_npy $TMP/${o}_$k.raw $TMP/int8_$k.npy $TMP/${o}_$k.npy
        cmp $TMP/${o}_$k.npy $TMP/int8_$k.npy
    done
    echo "$o: 8 outputs byte for byte --target int8"
done
# And for aarch64 (NEON, no VNNI), run under qemu-aarch64 where installed.
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "aarch64 part skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed"
    exit 0
fi
$KILN lower $g --triple aarch64-linux-gnu --cpu cortex-a53 --symbol a53 -o $TMP/a53.o > /dev/null 2>&1
aot_link aarch64-linux-gnu-gcc $TMP/a53
out=()
for k in 0 1 2 3 4 5 6 7; do out+=(-o $TMP/a53_$k.raw); done
qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/a53 $HERE/cases/int8-ops-x.npy $HERE/cases/int8-ops-z.npy "${out[@]}"
for k in 0 1 2 3 4 5 6 7; do
    as_npy $TMP/a53_$k.raw $TMP/int8_$k.npy $TMP/a53_$k.npy
    cmp $TMP/a53_$k.npy $TMP/int8_$k.npy
done
echo "a53 (aarch64, qemu): 8 outputs byte for byte --target int8"
