# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 300
# FIXTURES_REQUIRED: driver_yolo_dir
# A real photo (Debian darknet's dog.jpg) through kiln-infer against the
# server: the picture is resized and quantized, detections.json parses with
# boxes inside the picture, and boxes.png decodes (kiln-infer --decode reads
# it back as a picture).  Skipped when the darknet sample images are absent.
. $HERE/lib.sh
if [ ! -f $IMAGES/dog.jpg ]; then
    echo "skipped: $IMAGES/dog.jpg not installed (scripts/install-deps.sh)"
    exit 0
fi
serve $F/a $TMP/s.sock
$F/bx/kiln-infer sim:$TMP/s.sock -m $F/a $IMAGES/dog.jpg -o $TMP/o > $TMP/run.out
unserve
cat $TMP/run.out
grep -q "$TMP/o/boxes.png" $TMP/run.out
$PYTHON - $TMP/o/detections.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["detections"]
for b in d:
    assert 0 <= b["x0"] <= b["x1"] <= 768 and 0 <= b["y0"] <= b["y1"] <= 576, b
    assert 0.5 <= b["score"] <= 1 and 0 <= b["class"] < 80, b
print(len(d), "boxes in range")
PY
$F/bx/kiln-infer --decode $TMP/o/out0.npy $TMP/o/out1.npy -i $TMP/o/boxes.png -o $TMP/d > /dev/null
cmp $TMP/o/detections.json $TMP/d/detections.json
