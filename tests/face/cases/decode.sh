# RUN: KILN PYTHON
# TIMEOUT: 60
# FIXTURES_REQUIRED: face_ref
# The decode docs/face.md gives for the driver (region_decode.py: sigmoid,
# anchors in grid cells, the padding undone, score > 0.5, NMS at IoU 0.4)
# applied to face-api's own head gives face-api's boxes on the four photos
# (IoU 1.0000), and applied to kiln's fp32 head the same boxes (IoU >= 0.999).
# kiln's int8 head (calibrated on sample1, 2, 4) decoded the same way is
# compared too and its figure printed, not bounded: its scores move by
# steps of the head's int8 scale (docs/face.md).
. $HERE/lib.sh
face_need_npm
D="$PYTHON $SRC/tests/face/region_decode.py"
B="$PYTHON $SRC/tests/face/box_iou.py"
$KILN quantize $REF/face320.onnx --calib $REF/calib -o $TMP/q.gir > /dev/null
for i in 3 1 2 4; do
    wh=$($PYTHON -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['width'], d['height'])" \
         $REF/sample$i/boxes.json)
    set -- $wh
    $D $REF/sample$i/head.npy --width $1 --height $2 -o $TMP/faceapi$i.json > /dev/null
    $B $TMP/faceapi$i.json $REF/sample$i/boxes.json --min-iou 0.9999 | tail -n 1
    $KILN run $REF/face320.onnx -i $REF/sample$i/input.npy -o $TMP/fp32_$i.npy > /dev/null
    $D $TMP/fp32_$i.npy --width $1 --height $2 -o $TMP/fp32_$i.json > /dev/null
    $B $TMP/fp32_$i.json $REF/sample$i/boxes.json --min-iou 0.999 | tail -n 1
    $KILN run $TMP/q.gir --target int8 -i $REF/sample$i/input.npy -o $TMP/int8_$i.npy > /dev/null
    $D $TMP/int8_$i.npy --width $1 --height $2 -o $TMP/int8_$i.json > /dev/null
    echo "int8, sample$i: $($B $TMP/int8_$i.json $REF/sample$i/boxes.json | tail -n 1)"
done
