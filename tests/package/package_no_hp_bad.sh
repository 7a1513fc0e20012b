#!/usr/bin/env bash
# package_no_hp_bad.sh: a board with no HP port for the AXI4 masters: the
# package cannot be written, so compile exits 2 with one line saying why and
# leaves no output folder (nor a half-written temporary one).
#   package_no_hp_bad.sh KILN MODEL.onnx BOARD.xml WORKDIR
set -uo pipefail
kiln=$1 model=$2 board=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$kiln" quantize "$model" --calib-random 2 -o m.gir >/dev/null || exit 1
err=$("$kiln" compile m.gir --board "$board" -o out 2>&1 >/dev/null)
rc=$?
want="kiln: package: the design's 8 AXI4 masters need 1 HP port(s) (16 per SmartConnect); nohp has 0"
[ "$rc" = 2 ] || { echo "exit status $rc, expected 2"; exit 1; }
[ "$err" = "$want" ] || { printf 'stderr:   %s\nexpected: %s\n' "$err" "$want"; exit 1; }
left=$(ls -d out* 2>/dev/null)
[ -z "$left" ] || { echo "left behind: $left"; exit 1; }
echo "ok: status 2, '$err'"
