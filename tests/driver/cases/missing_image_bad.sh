# RUN: KILN
# FIXTURES_REQUIRED: driver_yolo_dir
# A picture that does not exist, and a file that is no picture: one line
# naming the file, exit 1 (before any transport is opened).
. $HERE/lib.sh
expect_fail "$TMP/none.jpg: cannot open" $F/bx/kiln-infer sim:$TMP/s.sock -m $F/a $TMP/none.jpg
echo 'not a picture' > $TMP/bad.png
expect_fail "$TMP/bad.png: not a readable image" $F/bx/kiln-infer sim:$TMP/s.sock -m $F/a $TMP/bad.png
