# RUN: KILN PYTHON
# TIMEOUT: 90
# FIXTURES_REQUIRED: face_ref
# kiln quantize calibrated on three of face-api's preprocessed photos
# (sample1, 2, 4), then the int8 interpreter on the fourth (sample3) against
# face-api's fp32 head.  The head conv leaves the int8 graph, so it gets a
# scale per channel (docs/quant.md): measured cosine 0.99735, relative L2
# 0.094, and the box sizes (w, h channels) within relative L2 0.24 where one
# scale for the whole head gives 0.59.  Decoded, the int8 heads find every
# face face-api finds on sample2, 3 and 4 (IoU 0.84 to 0.94; one scale: IoU
# 0.79 on sample2 and a face lost on sample4).  sample1's second face
# (face-api's score 0.613) stays lost: its objectness drifts in the layers
# before the head.
. $HERE/lib.sh
face_need_npm
D="$PYTHON $SRC/tests/face/region_decode.py"
B="$PYTHON $SRC/tests/face/box_iou.py"
H="$PYTHON $SRC/tests/face/head_channels.py"
$KILN quantize $REF/face320.onnx --calib $REF/calib -o $WORK/face320.q.gir \
    -i $REF/sample3/input.npy --min-cosine 0.995 | tail -n 1
grep -q '^%head = Conv(.* : i8\[1,25,10,10\]\( nchw\)\? scale([^,)]*,' $WORK/face320.q.gir
grep -q '^%head_dq = DequantizeLinear(.*{axis=1}' $WORK/face320.q.gir
$KILN run $WORK/face320.q.gir --target int8 -i $REF/sample3/input.npy -o $TMP/head3.npy > /dev/null
$KILN compare $TMP/head3.npy $REF/sample3/head.npy --max-rel-l2 0.12
$H $TMP/head3.npy $REF/sample3/head.npy --max-wh-rel-l2 0.35
# One scale for the head (--per-tensor-outputs): the box sizes are far off.
$KILN quantize $REF/face320.onnx --calib $REF/calib --per-tensor-outputs -o $TMP/pt.gir
$KILN run $TMP/pt.gir --target int8 -i $REF/sample3/input.npy -o $TMP/pt3.npy > /dev/null
if $H $TMP/pt3.npy $REF/sample3/head.npy --max-wh-rel-l2 0.35; then
    echo "per-tensor head as close as the per-channel one: the check above proves nothing"
    exit 1
fi
# The boxes: every face of face-api paired, IoU >= 0.8.
for i in 3 2 4; do
    wh=$($PYTHON -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['width'], d['height'])" \
         $REF/sample$i/boxes.json)
    set -- $wh
    $KILN run $WORK/face320.q.gir --target int8 -i $REF/sample$i/input.npy -o $TMP/i8_$i.npy > /dev/null
    $D $TMP/i8_$i.npy --width $1 --height $2 -o $TMP/i8_$i.json > /dev/null
    $B $TMP/i8_$i.json $REF/sample$i/boxes.json > $TMP/iou$i.out || true
    cat $TMP/iou$i.out
    if grep -q 'no box paired' $TMP/iou$i.out; then
        echo "sample$i: a face of face-api's has no int8 box"
        exit 1
    fi
    awk '/IoU [0-9.]+ with got box/ { for (k = 1; k <= NF; k++) if ($k == "IoU" && $(k + 1) < 0.8) bad = 1 }
         END { exit bad }' $TMP/iou$i.out || { echo "sample$i: a box below IoU 0.8"; exit 1; }
done
