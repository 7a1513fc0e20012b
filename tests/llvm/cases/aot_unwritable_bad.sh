# RUN: KILN
# kiln lower -o into a folder that does not exist, and onto a path that is
# a folder (the rename at the end fails): exit 2 naming the path, no
# object, header or temporary file left.
. $HERE/aot_lib.sh
m=$MODELS/yolov3-tiny-small.onnx
lower_bad "kiln: lower: cannot write $TMP/missing/w.o: No such file or directory" \
    $TMP/missing/w.o $m --triple x86_64-linux-gnu
mkdir $TMP/d.o
lower_bad "kiln: lower: cannot write $TMP/d.o: Is a directory" $TMP/d.o $m --triple x86_64-linux-gnu
