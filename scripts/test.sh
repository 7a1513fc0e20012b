#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors
# and AddressSanitizer + UndefinedBehaviorSanitizer, runs the libFuzzer
# targets for a bounded time, then runs every test with ctest.
#   Usage: scripts/test.sh [BUILD_DIR]   (FUZZ_SECONDS=N to change the fuzz time)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-test}
bash "$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DKILN_WERROR=ON -DKILN_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j2
bash "$top/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"
ctest --test-dir "$build" --output-on-failure -j2
