# Helpers of the runtime cases (sourced).  krt_build OUT [CC FLAGS...]:
# krt_run from host-runtime/'s sources.  serve DIR SOCK: start kiln simulate
# DIR --serve SOCK in the background (its pid in SERVER) and wait for the
# socket (SERVE_TICKS x 0.2 s at most, default 1500).  unserve: stop it.
RT=$SRC/host-runtime
krt_build() {
    out=$1; shift
    cc=${1:-cc}; [ $# -gt 0 ] && shift
    $cc -std=c11 -O1 -g -Wall -Wextra -Werror "$@" -I$RT $RT/rt.c $RT/json.c \
        $RT/transport/sim.c $RT/transport/uio.c $RT/tools/krt_run.c -o $out
}
serve() {
    rm -f $2
    $KILN simulate $1 --serve $2 > $TMP/serve.log 2>&1 &
    SERVER=$!
    n=0
    while [ ! -S $2 ]; do
        sleep 0.2
        n=$((n + 1))
        if [ $n -gt ${SERVE_TICKS:-1500} ] || ! kill -0 $SERVER 2> /dev/null; then
            cat $TMP/serve.log
            return 1
        fi
    done
}
unserve() {
    kill $SERVER 2> /dev/null || true
    wait $SERVER 2> /dev/null || true
}
