# RUN: KILN
# TIMEOUT: 60
# FIXTURES_REQUIRED: face_ref
# kiln quantize calibrated on three of face-api's preprocessed photos
# (sample1, 2, 4), then the int8 interpreter on the fourth (sample3) against
# face-api's fp32 head: how far int8 is (measured: cosine 0.9973, relative L2
# 0.096, SQNR 20.4 dB).  The bounds catch a broken quantizer, not a drift of a few percent.
. $HERE/lib.sh
face_need_npm
$KILN quantize $REF/face320.onnx --calib $REF/calib -o $WORK/face320.q.gir \
    -i $REF/sample3/input.npy --min-cosine 0.98 | tail -n 1
$KILN run $WORK/face320.q.gir --target int8 -i $REF/sample3/input.npy -o $TMP/head3.npy > /dev/null
$KILN compare $TMP/head3.npy $REF/sample3/head.npy --max-rel-l2 0.25
