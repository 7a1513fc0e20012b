#!/usr/bin/env bash
# RUN: run.sh KILN SRC TMP STEP...: shell steps of the kiln simulate tests
# (tests/sim/CMakeLists.txt); each step is evaluated with $KILN, $SRC (the
# source tree), $TMP set and `tiny DIR` defined: it makes DIR a compiled
# folder of the hand-written top tests/sim/tiny/ (rtl/ plus the templates it
# instantiates).
set -eu
KILN=$1 SRC=$2 TMP=$3
shift 3
tiny() {
    mkdir -p "$1/rtl"
    cp "$SRC"/tests/sim/tiny/model.gir "$SRC"/tests/sim/tiny/plan.json "$SRC"/tests/sim/tiny/report.md "$1"/
    cp "$SRC"/tests/sim/tiny/rtl/* "$1"/rtl/
    for v in kiln_axi_rd kiln_axi_wr kiln_fifo kiln_maxpool kiln_regfile; do
        cp "$SRC/rtl-templates/$v.v" "$1"/rtl/
    done
}
rm -rf "$TMP" && mkdir -p "$TMP"
for step in "$@"; do eval "$step"; done
