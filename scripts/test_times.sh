#!/usr/bin/env bash
# The serial time of the last ctest run per test area, against the area's
# budget in tests/budgets.txt; fails (exit 1) when an area is over its
# budget, or when a test of the run has no area.
#   Usage: scripts/test_times.sh [BUILD_DIR] [--top N]
# Reads BUILD_DIR/Testing/Temporary/LastTest.log (each test's own time; with
# ctest -j2 the tests ran two at a time, so a sum is the serial time, not the
# wall time) and each test's area from BUILD_DIR/test_areas.txt (written at
# configure time, as the tests are labelled).
# --top N also lists the N longest tests.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
ntop=0
while [ $# -gt 0 ]; do
    case $1 in
      --top) ntop=$2; shift 2 ;;
      *) build=$1; shift ;;
    esac
done
log=$build/Testing/Temporary/LastTest.log
[ -s "$log" ] || { echo "test_times.sh: $log: no ctest run to read" >&2; exit 2; }
/usr/bin/python3 - "$log" "$build/test_areas.txt" "$top/tests/budgets.txt" "$ntop" <<'EOF'
import re, sys

log, areas_path, budgets_path, ntop = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
area = dict(line.split() for line in open(areas_path) if line.strip())
budget = {}
for line in open(budgets_path):
    w = line.split("#", 1)[0].split()
    if w:
        budget[w[0]] = float(w[1])

# LastTest.log: "N/M Testing: NAME" opens a test's block, "Test time = S sec"
# closes it.
times = {}
name = None
for line in open(log, errors="replace"):
    m = re.match(r"\d+/\d+ Testing: (\S+)", line)
    if m:
        name = m.group(1)
        continue
    m = re.match(r"Test time =\s*([0-9.]+) sec", line)
    if m and name:
        times[name] = float(m.group(1))
        name = None
if not times:
    sys.exit("test_times.sh: no test times in " + log)

per = {}
unlabelled = []
for t, s in times.items():
    a = area.get(t)
    if a is None:
        unlabelled.append(t)
        continue
    n, tot = per.get(a, (0, 0.0))
    per[a] = (n + 1, tot + s)
total = sum(times.values())
over = []
print("%-10s %6s %9s %9s %6s" % ("area", "tests", "serial s", "budget s", "share"))
for a in sorted(per, key=lambda a: -per[a][1]):
    n, tot = per[a]
    b = budget.get(a)
    flag = ""
    if b is None or tot > b:
        over.append(a)
        flag = "  OVER BUDGET" if b is not None else "  NO BUDGET"
    print("%-10s %6d %9.1f %9s %5.1f%%%s" % (a, n, tot, "%.0f" % b if b is not None else "-",
                                             100.0 * tot / total, flag))
print("%-10s %6d %9.1f" % ("all", len(times), total))
if ntop:
    print("\nlongest tests:")
    for t, s in sorted(times.items(), key=lambda x: -x[1])[:ntop]:
        print("  %8.1f s  %s" % (s, t))
for t in unlabelled:
    print("test_times.sh: %s has no area label" % t)
if over or unlabelled:
    sys.exit(1)
EOF
