# Helpers of the driver cases (sourced).  F: the fixture's folder (case
# yolo): F/a the compiled model, F/bx/kiln-infer its x86-64 driver,
# F/in.npy the input, F/r0.npy, F/r1.npy the int8 interpreter's outputs.
# serve DIR SOCK: kiln simulate DIR --serve SOCK in the background (pid in
# SERVER), waiting for the socket (up to 1000 s: the first serve builds the
# Verilator model, minutes on a loaded machine); unserve: stop it.
F=$WORK/yolo
ANCHORS=81,82,135,169,344,319,10,14,23,27,37,58
IMAGES=/opt/kiln-deps/darknet/usr/share/darknet/data
# serve and unserve: tests/runtime/lib.sh's, waiting longer.
. $SRC/tests/runtime/lib.sh
SERVE_TICKS=5000
# expect_fail WANT CMD...: CMD exits non-zero with one stderr line holding WANT.
expect_fail() {
    want=$1
    shift
    if "$@" > $TMP/out 2> $TMP/err; then
        echo "expected a failure: $*"
        exit 1
    fi
    cat $TMP/err
    [ "$(wc -l < $TMP/err)" -eq 1 ] || { echo "expected one error line"; exit 1; }
    grep -qF -- "$want" $TMP/err
}
