# RUN: KILN
# kiln lower of NonZero, Compress and NonMaxSuppression, outputs of
# data-dependent extent (cases/select-obj.gir from gen_select.py): each
# such output gets a buffer for the most it can hold and its extent in an
# int64_t after the outputs (the header's SELECT_COUNTS and
# SELECT_OUTPUT_UNIT_BYTES); linked with aot_harness.c, run for x86-64 here
# and for aarch64 under qemu-aarch64 (where installed), every output byte
# for byte the interpreter's.  A value of data-dependent extent that a node
# reads is refused (cases/select.gir: Shape of an NMS result).
. $HERE/aot_lib.sh
g=$HERE/cases/select-obj.gir
ins=() r=() o=()
for v in x v xi y boxes scores maxo iou; do ins+=($HERE/cases/select-$v.npy); done
for k in $(seq 0 7); do r+=(-o $TMP/ref$k.npy) o+=(-o $TMP/obj$k.raw); done
$KILN run $g $(printf -- '-i %s ' "${ins[@]}") "${r[@]}" > /dev/null
$KILN lower $g --triple x86_64-linux-gnu -o $TMP/select.o
grep -q '^#define SELECT_COUNTS 8$' $TMP/select.h
grep -q '^#define SELECT_OUTPUT_UNIT_BYTES {24, 24, 8, 24, 4, 16, 24, 24}$' $TMP/select.h
aot_link cc $TMP/select
check() {
    local k
    for k in $(seq 0 7); do
        as_npy $TMP/obj$k.raw $TMP/ref$k.npy $TMP/obj$k.npy
        cmp $TMP/obj$k.npy $TMP/ref$k.npy
    done
    echo "$1: 8 outputs of data-dependent extent byte for byte the interpreter's"
}
$TMP/select "${ins[@]}" "${o[@]}"
check x86-64
if command -v aarch64-linux-gnu-gcc > /dev/null && command -v qemu-aarch64 > /dev/null; then
    mkdir -p $TMP/a64
    $KILN lower $g --triple aarch64-linux-gnu --cpu cortex-a53 -o $TMP/a64/select.o
    aot_link aarch64-linux-gnu-gcc $TMP/a64/select
    qemu-aarch64 -L /usr/aarch64-linux-gnu $TMP/a64/select "${ins[@]}" "${o[@]}"
    check aarch64
else
    echo "aarch64 skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed"
fi
lower_bad "kiln: lower: an object needs static shapes: value 'k' is i64[?,3]" \
    $TMP/bad.o $HERE/cases/select.gir --triple x86_64-linux-gnu
