#!/usr/bin/env bash
# RUN: check_fp32.sh KILN MODEL INPUT WORKDIR [--bound B] [RUN_OPTION...]
# --target cpu (with RUN_OPTIONs, e.g. --exact) against the fp32 interpreter on the same optimized graph
# (kiln opt -O; --target cpu runs those passes itself), every output within
# 1e-5 relative L2 (or B); with --exact, equal (relative L2 0).
set -eu
kiln=$1 model=$2 input=$3 work=$4
shift 4
bound=1e-5
if [ "${1:-}" = --bound ]; then bound=$2; shift 2; fi
for a in "$@"; do [ "$a" = --exact ] && bound=0; done
mkdir -p "$work"
"$kiln" opt "$model" -O > "$work/opt.gir"
n=$("$kiln" run "$work/opt.gir" -i "$input" | grep -c '^output')
cpu=() ref=()
for ((k = 0; k < n; k++)); do
  cpu+=(-o "$work/cpu$k.npy")
  ref+=(-o "$work/ref$k.npy")
done
"$kiln" run "$model" -i "$input" --target cpu "$@" "${cpu[@]}" > /dev/null
"$kiln" run "$work/opt.gir" -i "$input" "${ref[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
  "$kiln" compare "$work/cpu$k.npy" "$work/ref$k.npy" --max-rel-l2 "$bound"
done
