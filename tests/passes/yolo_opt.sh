#!/usr/bin/env bash
# RUN: yolo_opt.sh KILN MODEL INPUT.npy WORKDIR
# The default pipeline on YOLOv3-tiny 416: exactly 13 Conv (11 with the
# leaky activation fused, BN folded into all 13's weights), 6 MaxPool,
# 1 Resize (upsample), 1 Concat and nothing else; both heads equal to the
# unoptimised graph's within 1e-4 relative L2 (the hw pipeline is checked by semantics_test).
set -euo pipefail
kiln=$1 model=$2 input=$3 work=$4
mkdir -p "$work"
"$kiln" opt "$model" -O --stats > "$work/stats.txt"
cat > "$work/stats.expect" <<'TXT'
nodes 21
  Conv                 13
  MaxPool              6
  Concat               1
  Resize               1
  (Conv with act)      11
TXT
diff -u "$work/stats.expect" "$work/stats.txt"
"$kiln" opt "$model" -O -o "$work/o1.gir"

"$kiln" run "$model" -i "$input" -o "$work/ref0.npy" -o "$work/ref1.npy" > /dev/null
for p in o1; do
  "$kiln" run "$work/$p.gir" -i "$input" -o "$work/${p}0.npy" -o "$work/${p}1.npy" > /dev/null
  "$kiln" compare "$work/${p}0.npy" "$work/ref0.npy" --max-rel-l2 1e-4
  "$kiln" compare "$work/${p}1.npy" "$work/ref1.npy" --max-rel-l2 1e-4
done
