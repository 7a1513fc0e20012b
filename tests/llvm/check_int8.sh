#!/usr/bin/env bash
# RUN: check_int8.sh KILN MODEL INPUT WORKDIR
# Quantize MODEL on two random inputs, then --target cpu against the int8
# interpreter (--target int8): every output byte for byte the same.
set -eu
kiln=$1 model=$2 input=$3 work=$4
mkdir -p "$work"
"$kiln" quantize "$model" --calib-random 2 -o "$work/q.gir" > /dev/null 2>&1
n=$("$kiln" run "$work/q.gir" -i "$input" --target int8 | grep -c '^output')
cpu=() ref=()
for ((k = 0; k < n; k++)); do
  cpu+=(-o "$work/cpu$k.npy")
  ref+=(-o "$work/int8_$k.npy")
done
"$kiln" run "$work/q.gir" -i "$input" --target cpu "${cpu[@]}" > /dev/null
"$kiln" run "$work/q.gir" -i "$input" --target int8 "${ref[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
  cmp "$work/cpu$k.npy" "$work/int8_$k.npy"
  echo "output $k: bit-exact"
done
