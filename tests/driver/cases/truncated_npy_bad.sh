# RUN: KILN
# FIXTURES_REQUIRED: driver_yolo_dir
# A .npy cut short in its data, and one cut in its header: one line naming
# the file, exit 1.
. $HERE/lib.sh
head -c 1000 $F/in.npy > $TMP/t.npy
expect_fail "$TMP/t.npy: truncated: 872 bytes of data for shape [1,3,64,64], 49152 expected" \
    $F/bx/kiln-infer sim:$TMP/s.sock -m $F/a $TMP/t.npy
head -c 40 $F/in.npy > $TMP/h.npy
expect_fail "$TMP/h.npy: truncated .npy header" $F/bx/kiln-infer sim:$TMP/s.sock $TMP/h.npy
