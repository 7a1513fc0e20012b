# RUN: KILN PYTHON
# FIXTURES_REQUIRED: driver_yolo_dir
# kiln-infer --decode on the fp32 reference interpreter's outputs (the same
# decode code the FPGA run uses): detections.json parses; on the int8
# interpreter's outputs it equals the FPGA run's file byte for byte.
. $HERE/lib.sh
$KILN run $MODELS/yolov3-tiny-small.onnx -i $F/in.npy -o $TMP/f0.npy -o $TMP/f1.npy > /dev/null
$F/bx/kiln-infer --decode $TMP/f0.npy $TMP/f1.npy -o $TMP/f > $TMP/run.out
cat $TMP/run.out
$PYTHON -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["detections"]), "boxes")' \
    $TMP/f/detections.json
$F/bx/kiln-infer --decode $F/r0.npy $F/r1.npy -o $TMP/q > /dev/null
cmp $TMP/q/detections.json $F/ox/detections.json
