# RUN: PYTHON
# TIMEOUT: 30
# FIXTURES_REQUIRED: face_ref
# box_iou.py, the box-level check of a detector against face-api's boxes:
# face-api's boxes match themselves (IoU 1); one box moved by a fifth of its
# width (IoU 0.67), a box missing or an extra one is a mismatch (exit 1); a
# file that is not boxes is exit 2 naming the file and the box.
. $HERE/lib.sh
face_need_npm
B=$SRC/tests/face/box_iou.py
W=$REF/sample3/boxes.json
$PYTHON $B $W $W | tee $TMP/same.out
grep -q 'smallest IoU 1.0000 (min 0.9): match$' $TMP/same.out
$PYTHON - $W $TMP <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
b = doc["boxes"]
moved = dict(doc, boxes=[dict(b[0], x=b[0]["x"] + b[0]["w"] / 5)] + b[1:])
json.dump(moved, open(sys.argv[2] + "/moved.json", "w"))
json.dump(dict(doc, boxes=b[1:]), open(sys.argv[2] + "/missing.json", "w"))
json.dump(dict(doc, boxes=b + [b[0]]), open(sys.argv[2] + "/extra.json", "w"))
json.dump({"boxes": [{"x": 1, "y": 2}]}, open(sys.argv[2] + "/bad.json", "w"))
PY
for f in moved missing extra; do
    rc=0; $PYTHON $B $TMP/$f.json $W > $TMP/$f.out || rc=$?
    cat $TMP/$f.out
    test $rc = 1
    grep -q ': MISMATCH$' $TMP/$f.out
done
grep -q '^box 0 .*: IoU 0.6667 with got box 0$' $TMP/moved.out
rc=0; $PYTHON $B $TMP/bad.json $W 2> $TMP/bad.err || rc=$?
test $rc = 2
grep -q 'bad.json: box 0: needs x, y, w, h or x0, y0, x1, y1 or x1, y1, x2, y2$' $TMP/bad.err
