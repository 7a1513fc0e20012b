# RUN: KILN
# Two compiles of the same model write byte-identical rtl/ folders.
$KILN compile $MODELS/yolov3-tiny-small.onnx --board zcu104 -o $TMP/a
$KILN compile $MODELS/yolov3-tiny-small.onnx --board zcu104 -o $TMP/b
test -s $TMP/a/rtl/kiln_top.v
diff -r $TMP/a/rtl $TMP/b/rtl
