# Helpers of the aot_* cases (sourced).
# aot_link CC STEM: the program STEM from STEM.o and STEM.h (kiln lower's
# default entry point, named after STEM's file name) and aot_harness.c.
aot_link() {
    local cc=$1 stem=$2 sym up
    sym=$(basename "$stem")
    up=$(echo "$sym" | tr a-z A-Z)
    $cc -std=c11 -O1 -Wall -Wextra -Werror -include "$stem.h" -DENTRY="$sym" \
        -DIN_BYTES="${up}_INPUT_BYTES" -DOUT_BYTES="${up}_OUTPUT_BYTES" \
        -DCOUNTS="${up}_COUNTS" -DUNIT_BYTES="${up}_OUTPUT_UNIT_BYTES" \
        "$HERE/aot_harness.c" "$stem.o" -lm -o "$stem"
}
# aot_outputs STEM: the output count its header declares.
aot_outputs() {
    local up
    up=$(basename "$1" | tr a-z A-Z)
    sed -n "s/^#define ${up}_OUTPUTS //p" "$1.h"
}
# as_npy RAW LIKE OUT: RAW's bytes under the header of LIKE (a version 1
# .npy of the same type) as OUT; fails when LIKE's data is another size.
as_npy() {
    local hl
    hl=$(od -An -tu2 -j8 -N2 "$2" | tr -d ' ')
    if [ $(($(stat -c%s "$2") - 10 - hl)) != "$(stat -c%s "$1")" ]; then
        echo "$1: $(stat -c%s "$1") bytes, $2 holds $(($(stat -c%s "$2") - 10 - hl))"
        return 1
    fi
    head -c $((10 + hl)) "$2" > "$3"
    cat "$1" >> "$3"
}
# lower_bad WANT_STDERR OUT.o KILN_LOWER_ARGS...: kiln lower exits 2 with
# exactly that message and leaves neither OUT.o nor OUT.h nor a temporary
# file beside them.
lower_bad() {
    local want=$1 out=$2 left
    shift 2
    "$SRC/tests/cli/expect.sh" 2 "$want" -- "$KILN" lower "$@" -o "$out"
    left=$(ls -d "${out%.o}".h "${out%.o}".h.tmp* "$out".tmp* 2> /dev/null || true)
    if [ -n "$left" ] || { [ -e "$out" ] && [ ! -d "$out" ]; }; then
        echo "left behind: $left $out"
        return 1
    fi
}
