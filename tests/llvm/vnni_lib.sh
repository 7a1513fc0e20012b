# Shared by the VNNI cases (sourced).
# vnni_same GIR REF NOUT FILE...: GIR on the input FILEs through --target
# REF (ref: the interpreter, int8: the int8 interpreter), through --target
# cpu (vpdpbusd where this CPU has VNNI) and through --target cpu under
# KILN_VNNI=0 (the kernels without VNNI): every node compiled, and each of
# the NOUT outputs of both cpu runs byte for byte REF's.
vnni_same() {
    local g=$1 ref=$2 n=$3 f k ins=""
    shift 3
    for f in "$@"; do ins="$ins -i $f"; done
    vnni_outs() { local k; for k in $(seq 0 $((n - 1))); do echo "-o $TMP/$1$k.npy"; done; }
    $KILN run $g $ins --target $ref $(vnni_outs ref) > /dev/null
    $KILN run $g $ins --target cpu $(vnni_outs cpu) > /dev/null 2> $TMP/run.err
    cat $TMP/run.err
    grep -Eq ': ([0-9]+) of \1 nodes compiled, 0 in the interpreter;' $TMP/run.err
    KILN_VNNI=0 $KILN run $g $ins --target cpu $(vnni_outs novnni) > /dev/null 2>&1
    for k in $(seq 0 $((n - 1))); do
        cmp $TMP/cpu$k.npy $TMP/ref$k.npy
        cmp $TMP/novnni$k.npy $TMP/ref$k.npy
    done
    echo "$n outputs: --target cpu, with and without KILN_VNNI=0, byte for byte --target $ref"
}
