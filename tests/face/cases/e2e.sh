# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# The whole deployment path (scripts/face_demo.sh): the fp32 face detector
# compiled in one command (calibrated on three of face-api's photos), its
# driver built for x86-64 and aarch64, run under qemu-aarch64 against kiln
# simulate --serve on sample3.jpg; the aarch64 head byte for byte the x86-64
# driver's and the int8 interpreter's, kiln's fp32 boxes within IoU 0.9 of
# face-api's own, the int8 FPGA boxes against the fp32 ones printed.
# Skipped when the npm packages or the aarch64 tools are missing.
. $HERE/lib.sh
face_need_npm
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
    echo "skipped: aarch64-linux-gnu-gcc or qemu-aarch64 not installed (scripts/install-deps.sh)"
    exit 77
fi
KILN_DEPS=$KILN_DEPS bash $SRC/scripts/face_demo.sh $KILN $TMP/demo > $TMP/demo.out 2>&1 ||
    { cat $TMP/demo.out; exit 1; }
cat $TMP/demo.out
grep -q '^aarch64 = x86-64 = int8 interpreter, byte for byte' $TMP/demo.out
test -s $TMP/demo/run/boxes.png
$PYTHON -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["detections"]) >= 1, d' \
    $TMP/demo/run/detections.json
