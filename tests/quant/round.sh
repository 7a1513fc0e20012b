#!/usr/bin/env bash
# RUN: round.sh KILN MODELS_DIR WORKDIR  -> quant_round
# Learned rounding (kiln quantize --round learned, docs/quant.md "Learned
# rounding"): calibrated on one input and evaluated on that same input,
# each conv's int8 weights rounded down or up to its least output error
# must give every layer a lower error than nearest rounding: the
# quantizer's own figure per conv (the "rounding" lines: layer MSE before
# the activation on the sampled positions, learned <= nearest, and lower
# somewhere), and, measured apart by the int8 interpreter against fp32,
# every value's SQNR in the report higher (1 to 3 dB on these models).
# Only the int8 weights and the biases change (the scales, multipliers and
# shifts stay); the graph is the same on a second run (deterministic),
# round-trips through the text form byte for byte, and the CPU back end
# gives the int8 interpreter's output byte for byte.  --round checked
# (below) keeps some channels nearest where other inputs do not confirm
# the fit.  --sensitivity prints
# one line per int8 conv, most sensitive first; --fp32 auto:2 keeps the
# first two (ranked on the calibration inputs) in fp32.
set -euo pipefail
kiln=$1 models=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
for m in mbrelu6 resdw cpumid; do
  mkdir -p "$work/$m-calib"
  cp "$models/$m-input.npy" "$work/$m-calib/"
  for r in nearest learned; do
    "$kiln" quantize "$models/$m.onnx" --calib "$work/$m-calib" --calib-backend ref --round "$r" \
      --report -i "$models/$m-input.npy" -o "$work/$m-$r.gir" > "$work/$m-$r.txt" 2> "$work/$m-$r.err"
  done
  grep -q '^kiln: quantize: learned rounding of [1-9][0-9]* layers on 1 inputs: ' "$work/$m-learned.err" ||
    { cat "$work/$m-learned.err"; exit 1; }
  ! grep -q '^rounding' "$work/$m-nearest.txt"
  # the quantizer's figure: learned <= nearest on every layer, lower on one
  awk -v m="$m" '/^rounding / { n++; a = $5 + 0; b = $7 + 0
        if (b > a) { print m ": " $0; bad = 1 } if (b < a) lower++ }
      END { if (!n || !lower || bad) { print m ": learned rounding did not lower a layer error"; exit 1 }
            print m ": " n " layers, " lower " with a lower error" }' "$work/$m-learned.txt"
  # the interpreter's: every value's SQNR against fp32 higher
  paste <(awk 'NF >= 4 && $3 + 0 == $3 && $1 != "method" { print $1, $3 }' "$work/$m-nearest.txt") \
        <(awk 'NF >= 4 && $3 + 0 == $3 && $1 != "method" { print $1, $3 }' "$work/$m-learned.txt") |
    awk -v m="$m" '{ n++; if ($1 != $3 || !($4 > $2)) { print m ": " $1 " SQNR " $2 " dB nearest, " $4 " learned"; bad = 1 } }
        END { if (!n || bad) exit 1; print m ": " n " values, each SQNR higher" }'
  # weights and biases only
  if ! diff <(grep -v 'i8\[\|i32\[' "$work/$m-nearest.gir") \
            <(grep -v 'i8\[\|i32\[' "$work/$m-learned.gir") > /dev/null; then
    echo "$m: --round learned changed more than weights and biases"; exit 1
  fi
done
m=resdw
"$kiln" quantize "$models/$m.onnx" --calib "$work/$m-calib" --calib-backend ref --round learned \
  -o "$work/$m-again.gir" 2> /dev/null
cmp "$work/$m-learned.gir" "$work/$m-again.gir"
"$kiln" ir "$work/$m-learned.gir" -o "$work/$m-rt.gir"
cmp "$work/$m-learned.gir" "$work/$m-rt.gir"
"$kiln" run "$work/$m-learned.gir" -i "$models/$m-input.npy" --target int8 -o "$work/int8.npy" > /dev/null
"$kiln" run "$work/$m-learned.gir" -i "$models/$m-input.npy" --target cpu -o "$work/cpu.npy" \
  > /dev/null 2> "$work/cpu.err"
cmp "$work/int8.npy" "$work/cpu.npy"
echo "deterministic, text round trip, --target cpu byte for byte --target int8"
# --round checked on four seeded inputs: each channel fitted on inputs 0
# and 2 and kept nearest unless that lowers its error on inputs 1 and 3,
# then fitted on all four.  The line counts the channels kept nearest
# (some, not all); fewer weights move than with learned; every layer's
# error on all four inputs is still at most nearest's; only weights and
# biases change; a second run gives the same graph.
for r in nearest learned checked; do
  "$kiln" quantize "$models/$m.onnx" --calib-random 4 --calib-backend ref --round "$r" --report \
    -o "$work/rand-$r.gir" > "$work/rand-$r.txt" 2> "$work/rand-$r.err"
done
kept=$(sed -n 's/.*, \([0-9]*\) of \([0-9]*\) channels kept nearest by the check inputs, .*/\1 \2/p' \
       "$work/rand-checked.err")
moved() { sed -n 's/^kiln: quantize: learned rounding of .* inputs: \([0-9]*\) of .*/\1/p' "$1"; }
read -r k n <<< "$kept"
echo "checked: $k of $n channels kept nearest; weights moved $(moved "$work/rand-checked.err")" \
     "checked, $(moved "$work/rand-learned.err") learned"
test "$k" -gt 0 && test "$k" -lt "$n"
test "$(moved "$work/rand-checked.err")" -lt "$(moved "$work/rand-learned.err")"
awk '/^rounding / { n++; if ($7 + 0 > $5 + 0) { print; bad = 1 } } END { exit !n || bad }' \
  "$work/rand-checked.txt"
diff <(grep -v 'i8\[\|i32\[' "$work/rand-nearest.gir") <(grep -v 'i8\[\|i32\[' "$work/rand-checked.gir")
"$kiln" quantize "$models/$m.onnx" --calib-random 4 --calib-backend ref --round checked \
  -o "$work/rand-again.gir" 2> /dev/null
cmp "$work/rand-checked.gir" "$work/rand-again.gir"
# --sensitivity: one line per int8 conv with it alone in fp32, most
# sensitive (highest cosine) first, after the all-int8 figure, which is the
# report's output cosine.
"$kiln" quantize "$models/$m.onnx" --calib "$work/$m-calib" --calib-backend ref --report \
  -i "$models/$m-input.npy" --sensitivity > "$work/sens.txt" 2> /dev/null
grep '^sensitivity' "$work/sens.txt"
test "$(grep -c '^sensitivity .* (Conv): output cosine ' "$work/sens.txt")" = 6
test "$(sed -n 's/^output conv8: cosine \([0-9.]*\) .*/\1/p' "$work/sens.txt")" = \
     "$(sed -n 's/^sensitivity: output cosine \([0-9.]*\) with every layer int8.*/\1/p' "$work/sens.txt")"
sed -n 's/^sensitivity .*: output cosine \([0-9.]*\) with it in fp32.*/\1/p' "$work/sens.txt" |
  sort -g -r -c
# --fp32 auto:2: the two convs ranked first on the calibration input stay
# fp32, each with a report line, named in the quantizer's line.
"$kiln" quantize "$models/$m.onnx" --calib "$work/$m-calib" --calib-backend ref --report \
  -i "$models/$m-input.npy" --fp32 auto:2 > "$work/auto.txt" 2> "$work/auto.err"
test "$(grep -c '^fp32 node .* (Conv): kept in fp32 as asked (--fp32)$' "$work/auto.txt")" = 2
grep '^kiln: quantize: --fp32 auto:2: [a-z0-9]*,[a-z0-9]* in fp32 ' "$work/auto.err"
# --fp32 auto:N ranks by the least output cosine over all the calibration
# inputs: with two (the input and its mirror image, scaled), its all-int8
# figure is the lower of the two reports' output cosines, not the first's.
mkdir -p "$work/two"
/usr/bin/python3 -c '
import sys, numpy as np
x = np.load(sys.argv[1])
np.save(sys.argv[2], x)
np.save(sys.argv[3], np.ascontiguousarray(x[..., ::-1] * 1.5, dtype=x.dtype))' \
  "$models/$m-input.npy" "$work/two/b.npy" "$work/two/a.npy"
for x in a b; do
  "$kiln" quantize "$models/$m.onnx" --calib "$work/two" --calib-backend ref --report \
    -i "$work/two/$x.npy" > "$work/two-$x.txt" 2> /dev/null
done
"$kiln" quantize "$models/$m.onnx" --calib "$work/two" --calib-backend ref --fp32 auto:1 \
  -o "$work/two.gir" 2> "$work/two.err"
ca=$(sed -n 's/^output conv8: cosine \([0-9.]*\) .*/\1/p' "$work/two-a.txt")
cb=$(sed -n 's/^output conv8: cosine \([0-9.]*\) .*/\1/p' "$work/two-b.txt")
all=$(sed -n 's/^kiln: quantize: --fp32 auto:1: .* over the 2 calibration inputs \([0-9.]*\) all int8.*/\1/p' \
      "$work/two.err")
echo "auto:1 on two inputs: $all all int8 (reports: $ca, $cb)"
test "$ca" != "$cb"
test "$all" = "$(printf '%s\n%s\n' "$ca" "$cb" | sort -g | head -n 1)"
