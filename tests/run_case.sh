#!/usr/bin/env bash
# RUN: run_case.sh CASE.sh WORK NAME=VALUE...
# Runs one shell test case (tests/AREA/cases/*.sh, added by kiln_case_tests
# in tests/CMakeLists.txt).  Each NAME=VALUE is set for the case: the tools
# (KILN, PYTHON, VERILATOR, IVERILOG, VVP: "none" when not found) and the
# folders (SRC the source tree, MODELS the generated models, DARKNET_CFG).
# The case also gets HERE, its area's folder (tests/AREA), WORK, the area's
# build folder, and TMP=WORK/CASE, a fresh folder of its own that later
# cases may read (a fixture's output).
#
# A case's first line is "# RUN: NAME...": the tools it runs, each one that
# must be set and found; CMake leaves out a case whose tool was not found.
# Further "# PROPERTY: value" lines of its opening comment (TIMEOUT,
# FIXTURES_SETUP, FIXTURES_REQUIRED, RESOURCE_LOCK, SKIP_RETURN_CODE) are ctest
# properties; a case that exits with its SKIP_RETURN_CODE is reported skipped.
# The body is plain shell, run under `set -eu`: the first command that fails
# fails the test, so an assertion is a command of its own, never the left
# side of && or ||.
set -eu
case_file=$1 WORK=$2
shift 2
for kv in "$@"; do
    export "${kv%%=*}=${kv#*=}"
done
first=$(head -n 1 "$case_file")
case $first in
  "# RUN: "*) needs=${first#"# RUN: "} ;;
  *) echo "$case_file: first line must be '# RUN: NAME...'"; exit 1 ;;
esac
for v in $needs; do
    if [ -z "${!v:-}" ] || [ "${!v}" = none ]; then
        echo "$case_file: $v is not set"
        exit 1
    fi
done
HERE=$(cd "$(dirname "$case_file")/.." && pwd)
TMP=$WORK/$(basename "$case_file" .sh)
export HERE WORK TMP
rm -rf "$TMP" && mkdir -p "$TMP"
# shellcheck disable=SC1090
. "$case_file"
