# RUN: KILN PYTHON
# TIMEOUT: 300
# PP-OCRv4 reading a page end to end: a 640x320 page of four rendered
# lines (tests/ocr/text_page.py); the detector finds the lines
# (tests/ocr/det_boxes.py, PaddleOCR's threshold and unclip), each box is
# cropped and read by the recognizer at 48x640 (aspect kept, padded;
# tests/ocr/page_ocr.py, ctc_decode.py).  fp32: every line found, no other
# box, and at most 5% character errors; int8 (minmax; the detector
# calibrated on two other pages, the recognizer on four lines), through
# --target cpu for the detector, the int8 interpreter for the recognizer:
# every line found and at most 10% character errors; the recognizer through
# --target cpu gives the interpreter's bytes.  (bench/ocr_rec_text.sh reads
# 24 lines alone with every method.)
. $HERE/lib.sh
ocr_need
ocr_need_text
DPP=$PP
RPP="$REC_PP --resize pad"
T=$SRC/tests/ocr
mkdir $TMP/calp $TMP/call
for s in 11 12; do
    $PYTHON $T/text_page.py $TMP/calp/p$s.png /dev/null --size 640x320 --seed $s \
        "Order $s-771 confirmed" "Ship to: Hamburg, Germany" "Item: kiln_conv engine" "Page $s of 20"
done
$PYTHON $T/text_line.py $TMP/call/l0.png "Quantized graphs run fast"
$PYTHON $T/text_line.py $TMP/call/l1.png "Invoice No. 48213 paid" --font $FONTS/DejaVuSerif.ttf
$PYTHON $T/text_line.py $TMP/call/l2.png "FPGA boards: ZCU104, KV260" --font $FONTS/DejaVuSansMono.ttf
$PYTHON $T/text_line.py $TMP/call/l3.png "open 9am - 5pm daily" --fg 240,240,240 --bg 30,40,60
$PYTHON $T/text_page.py $TMP/page.png $TMP/page.json --size 640x320 --seed 1 \
    "INVOICE 2026-0412" "Qty 4  FPGA board ZCU104" "Total due: 5,180.00 EUR" "Thank you for your order"
$KILN quantize $DET --input-shape 1,3,320,640 $DPP --calib $TMP/calp --method minmax -o $TMP/det.gir > /dev/null
$KILN quantize $REC --input-shape 1,3,48,640 $RPP --calib $TMP/call --method minmax -o $TMP/rec.gir > /dev/null
# read NAME DET REC: boxes, crops, texts
read_page() {
    local i n
    $KILN run $2 --input-shape 1,3,320,640 $DPP --target cpu -i $TMP/page.png -o $TMP/$1-det.npy > /dev/null
    $PYTHON $T/det_boxes.py $TMP/$1-det.npy --gt $TMP/page.json --json $TMP/$1-boxes.json | tee $TMP/$1-det.txt
    mkdir $TMP/$1-crops
    n=$($PYTHON $T/page_ocr.py crop $TMP/page.png $TMP/$1-boxes.json $TMP/$1-crops)
    : > $TMP/$1-read.txt
    for ((i = 0; i < n; i++)); do
        $KILN run $3 --input-shape 1,3,48,640 $RPP $4 -i $TMP/$1-crops/c$i.png -o $TMP/r.npy > /dev/null
        $PYTHON $T/ctc_decode.py $TMP/r.npy $KEYS | tee -a $TMP/$1-read.txt
    done
    $PYTHON $T/page_ocr.py score $TMP/page.json $TMP/$1-boxes.json $TMP/$1-read.txt | tee $TMP/$1-score.txt
}
cer_at_most() {
    $PYTHON -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" \
        "$(sed -E 's/.* cer //' $TMP/$1-score.txt)" $2 || { echo "FAIL: $1 reads with more than $2 errors"; exit 1; }
}
read_page fp32 $DET $REC ""
grep -q '^gt: recall 4/4 precision 4/4 ' $TMP/fp32-det.txt || { echo "FAIL: fp32 boxes"; exit 1; }
cer_at_most fp32 0.05
read_page int8 $TMP/det.gir $TMP/rec.gir "--target int8"
grep -q '^gt: recall 4/4 ' $TMP/int8-det.txt || { echo "FAIL: int8 boxes"; exit 1; }
cer_at_most int8 0.10
# the int8 recognizer through the CPU back end: the int8 interpreter's bytes
$KILN run $TMP/rec.gir --input-shape 1,3,48,640 $RPP --target int8 -i $TMP/int8-crops/c0.png -o $TMP/ri.npy > /dev/null
$KILN run $TMP/rec.gir --input-shape 1,3,48,640 $RPP --target cpu -i $TMP/int8-crops/c0.png -o $TMP/rc.npy > /dev/null
cmp $TMP/ri.npy $TMP/rc.npy
