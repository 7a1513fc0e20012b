#!/usr/bin/env bash
# Compiles the comparison set with two kiln binaries and diffs what they
# write: plan.json, report.md, dataflow.dot and every file of rtl/.  The set
# is six models, three of them also int8-quantized (weights.bin), (YOLOv3-tiny 416 and 64, resdw, cpumid, big from the test
# generators, Darknet's yolov3-tiny.cfg) on the four bundled boards, big
# with three pins, and a --plan replay.  A refactoring keeps them byte-
# identical; the script prints one line per case and a total.
#   bench/plan_compare.sh OLD_KILN NEW_KILN MODELS_DIR [CFG_DIR] [OUT_DIR]
# MODELS_DIR: a build's models/ (cmake --build BUILD --target models).
# CFG_DIR: Darknet's cfg folder (default /opt/kiln-deps/darknet/usr/share/darknet/cfg).
# Exit status 0 when every case is identical, 1 when one differs.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 OLD_KILN NEW_KILN MODELS_DIR [CFG_DIR] [OUT_DIR]" >&2; exit 2; }
old=$1 new=$2 models=$3
cfg=${4:-/opt/kiln-deps/darknet/usr/share/darknet/cfg}
out=${5:-$(mktemp -d)}
keep=${5:+1}
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT
for f in "$old" "$new"; do [ -x "$f" ] || { echo "$0: $f: not an executable" >&2; exit 2; }; done

cases=()
for b in ultra96v2 kv260 zcu104 zcu102; do
  for m in yolov3-tiny yolov3-tiny-small resdw cpumid big; do
    cases+=("$m-$b|$models/$m.onnx --board $b")
  done
  cases+=("y3cfg-$b|$cfg/yolov3-tiny.cfg --board $b")
done
# int8 graphs (quantized once, by the old binary) also get weights.bin
mkdir -p "$out/q"
for m in yolov3-tiny-small resdw cpumid; do
  "$old" quantize "$models/$m.onnx" --calib-random 2 -o "$out/q/$m.gir" > /dev/null
  for b in ultra96v2 zcu104; do cases+=("$m-int8-$b|$out/q/$m.gir --board $b"); done
done
cases+=("big-pins|$models/big.onnx --board zcu104 --pin conv0=8x8x1 --pin conv2=16x8x2 --pin conv4=4x4x1")

same=0 differ=0
run() { # run NAME KILN ARGS...: compile into $out/NAME/{old,new}; the status in .rc
  local dir=$1 kiln=$2; shift 2
  rm -rf "$dir"; mkdir -p "$dir"
  # shellcheck disable=SC2086
  "$kiln" compile "$@" -o "$dir/o" > "$dir/stdout" 2> "$dir/stderr"; echo $? > "$dir/rc"
  # compile time varies from run to run; the output folder differs by name
  sed -i "/compile time/d; s#$dir/o#OUT#g" "$dir/stdout" "$dir/stderr"
  [ ! -f "$dir/o/report.md" ] || sed -i '/compile time/d' "$dir/o/report.md"
}
compare() { # compare NAME
  local name=$1 a=$out/$1/old b=$out/$1/new
  if diff -r "$a" "$b" > "$out/$name.diff" 2>&1; then
    same=$((same + 1)); printf '%-26s identical (exit %s)\n' "$name" "$(cat "$a/rc")"
  else
    differ=$((differ + 1)); printf '%-26s DIFFERS: %s\n' "$name" "$(head -n 1 "$out/$name.diff")"
  fi
}
for c in "${cases[@]}"; do
  name=${c%%|*} args=${c#*|}
  # shellcheck disable=SC2086
  run "$out/$name/old" "$old" $args
  # shellcheck disable=SC2086
  run "$out/$name/new" "$new" $args
  compare "$name"
done
# Replay: the old binary's ZCU104 YOLOv3-tiny plan through each binary.
plan=$out/yolov3-tiny-zcu104/old/o/plan.json
if [ -f "$plan" ]; then
  run "$out/replay/old" "$old" "$models/yolov3-tiny.onnx" --board zcu104 --plan "$plan"
  run "$out/replay/new" "$new" "$models/yolov3-tiny.onnx" --board zcu104 --plan "$plan"
  compare replay
fi
echo "plan_compare: $same identical, $differ differ"
[ "$differ" = 0 ]
