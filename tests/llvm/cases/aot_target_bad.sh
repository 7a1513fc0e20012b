# RUN: KILN
# kiln lower with a triple it has no target for, and with a CPU the
# target does not know: exit 2, one line naming it, no files left.
. $HERE/aot_lib.sh
m=$MODELS/yolov3-tiny-small.onnx
lower_bad "kiln: lower: unknown target triple 'riscv64-linux-gnu' (objects are made for x86_64 and aarch64 triples, e.g. x86_64-linux-gnu, aarch64-linux-gnu)" \
    $TMP/t.o $m --triple riscv64-linux-gnu
lower_bad "kiln: lower: unknown CPU 'znver4' for aarch64-linux-gnu" \
    $TMP/t.o $m --triple aarch64-linux-gnu --cpu znver4
