# RUN: KILN PYTHON
# TIMEOUT: 120
# The PP-OCRv4 recognizer reading text: lines rendered in three DejaVu
# faces (tests/ocr/text_line.py) at 320x48, PaddleOCR's normalisation,
# greedy CTC decoding (tests/ocr/ctc_decode.py).  fp32 reads each
# evaluation line exactly; int8, calibrated (minmax) on four other lines,
# reads them with a character error rate of at most 5% per line (0
# measured); the int8 graph through --target cpu gives the int8
# interpreter's bytes.
. $HERE/lib.sh
ocr_need
ocr_need_text
mkdir $TMP/calib
line() { $PYTHON $SRC/tests/ocr/text_line.py "$@"; }
line $TMP/calib/c1.png "Quantized graphs run fast"
line $TMP/calib/c2.png "Invoice No. 48213 paid" --font $FONTS/DejaVuSerif.ttf
line $TMP/calib/c3.png "FPGA boards: ZCU104, KV260" --font $FONTS/DejaVuSansMono.ttf
line $TMP/calib/c4.png "open 9am - 5pm daily" --fg 240,240,240 --bg 30,40,60
refs=("Systolic arrays 128x128" "Total: 37.50 EUR" "Welcome to Berlin")
fonts=(DejaVuSerif DejaVuSansMono DejaVuSans)
$KILN quantize $REC --input-shape 1,3,48,320 $REC_PP --calib $TMP/calib --method minmax -o $TMP/q.gir \
    > $TMP/quant.txt
for i in 0 1 2; do
    line $TMP/e$i.png "${refs[$i]}" --font $FONTS/${fonts[$i]}.ttf
    $KILN run $REC --input-shape 1,3,48,320 $REC_PP -i $TMP/e$i.png -o $TMP/f$i.npy > /dev/null
    $KILN run $TMP/q.gir --target int8 $REC_PP -i $TMP/e$i.png -o $TMP/q$i.npy > /dev/null
    f=$($PYTHON $SRC/tests/ocr/ctc_decode.py $TMP/f$i.npy $KEYS --ref "${refs[$i]}")
    q=$($PYTHON $SRC/tests/ocr/ctc_decode.py $TMP/q$i.npy $KEYS --ref "${refs[$i]}")
    echo "fp32 $f"
    echo "int8 $q"
    case $f in *" cer 0.0000") ;; *) echo "FAIL: fp32 misreads '${refs[$i]}'"; exit 1 ;; esac
    $PYTHON -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 0.05 else 1)" "${q##* cer }" \
        || { echo "FAIL: int8 reads '${refs[$i]}' with more than 5% errors"; exit 1; }
done
$KILN run $TMP/q.gir --target cpu $REC_PP -i $TMP/e0.png -o $TMP/cpu.npy > /dev/null
cmp $TMP/q0.npy $TMP/cpu.npy
