#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors
# and AddressSanitizer + UndefinedBehaviorSanitizer, runs the libFuzzer
# targets for a bounded time, then runs every test with ctest and prints the
# serial time per test area against its budget (scripts/test_times.sh,
# tests/budgets.txt): fails when a test fails or an area is over budget.
#   Usage: scripts/test.sh [BUILD_DIR]   (FUZZ_SECONDS=N to change the fuzz time)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-test}
bash "$top/scripts/install-deps.sh"
# ccache for the C/C++ of the build and of every Verilator model the tests
# build (Verilator's OBJCACHE): the Verilator runtime (verilated.cpp ...) is
# compiled once instead of once per engine bench and per simulated design,
# and tests that simulate the same design share its objects.  The cache lives
# in the build directory.
if command -v ccache >/dev/null; then
    mkdir -p "$build"
    export CCACHE_DIR=${CCACHE_DIR:-$(cd "$build" && pwd)/ccache}
    export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache OBJCACHE=ccache
fi
cmake -S "$top" -B "$build" -DKILN_WERROR=ON -DKILN_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j2
bash "$top/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"
rc=0
ctest --test-dir "$build" --output-on-failure -j2 || rc=$?
echo "== serial time per test area (tests/budgets.txt)"
times_rc=0
bash "$top/scripts/test_times.sh" "$build" --top 10 || times_rc=$?
if [ "$rc" = 0 ]; then
    rc=$times_rc
fi
exit "$rc"
