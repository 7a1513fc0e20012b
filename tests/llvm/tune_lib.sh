# Helpers of the tune_* cases (sourced).
# records_bad WANT_STDERR KILN_ARGS...: kiln exits 2 with exactly WANT_STDERR.
records_bad() {
    local want=$1 got rc=0
    shift
    got=$($KILN "$@" 2>&1 >/dev/null) || rc=$?
    if [ "$rc" != 2 ] || [ "$got" != "$want" ]; then
        echo "kiln $*: exit $rc, stderr:"
        echo "$got"
        echo "wanted exit 2 and:"
        echo "$want"
        return 1
    fi
}
