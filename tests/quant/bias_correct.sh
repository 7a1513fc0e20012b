#!/usr/bin/env bash
# RUN: bias_correct.sh KILN MODELS_DIR WORKDIR
# --bias-correct: calibrated on the very input it is then evaluated on, every
# conv's bias absorbs the mean error of its int8 weights, so the int8
# output's mean error per channel against fp32 must shrink (each model) and
# the int8 graph must differ only in biases (and a bias given to a conv
# without one).  Without the option the graph stays the one it was.
set -eu
kiln=$1 models=$2 work=$3
py=/usr/bin/python3
rm -rf "$work"
mkdir -p "$work"
for m in mbrelu6 cpumid resdw; do
  mkdir -p "$work/$m-calib"
  cp "$models/$m-input.npy" "$work/$m-calib/"
  "$kiln" run "$models/$m.onnx" -i "$models/$m-input.npy" -o "$work/$m-f.npy" > /dev/null
  for v in plain bc; do
    flag=; [ $v = bc ] && flag=--bias-correct
    "$kiln" quantize "$models/$m.onnx" --calib "$work/$m-calib" $flag -o "$work/$m-$v.gir" 2> /dev/null
    "$kiln" run "$work/$m-$v.gir" --target int8 -i "$models/$m-input.npy" -o "$work/$m-$v.npy" > /dev/null
  done
  # the correction moves biases only: weights, scales and multipliers equal
  if diff <(grep -v 'i32\[' "$work/$m-plain.gir") <(grep -v 'i32\[' "$work/$m-bc.gir") > /dev/null; then :; else
    echo "$m: --bias-correct changed more than the biases:"
    diff <(grep -v 'i32\[' "$work/$m-plain.gir") <(grep -v 'i32\[' "$work/$m-bc.gir") | head -5
    exit 1
  fi
  if cmp -s "$work/$m-plain.gir" "$work/$m-bc.gir"; then
    echo "$m: --bias-correct changed no bias"; exit 1
  fi
  "$py" - "$m" "$work/$m-f.npy" "$work/$m-plain.npy" "$work/$m-bc.npy" <<'PY'
import sys
import numpy as np
name, f, p, b = sys.argv[1], *(np.load(a).astype(np.float64) for a in sys.argv[2:])
def chmean(q):
    return float(np.abs((q - f).mean(axis=(0, 2, 3))).mean())
ep, eb = chmean(p), chmean(b)
print(f"{name}: mean |per-channel mean error| {ep:.5f} plain, {eb:.5f} with --bias-correct")
if not eb < ep:
    sys.exit(f"{name}: bias correction did not reduce the mean error")
PY
done
