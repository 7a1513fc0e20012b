# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# FIXTURES_SETUP: driver_yolo_dir
# yolov3-tiny-small quantized (2 random calibration inputs) and compiled for
# zcu104 with --detect yolov3: DIR/driver is written, and a second compile
# gives a byte-identical driver folder.  The driver builds for x86-64 with
# its CMakeLists.txt; kiln-infer runs 2 frames of the model's input .npy
# against kiln simulate --serve and writes out0.npy, out1.npy byte-identical
# to kiln run --target int8's, and detections.json.  The two heads have a
# scale per channel (docs/quant.md): model.c dequantizes them with one
# scale a channel (kd_dequantize_ch), still byte for byte the interpreter's.
# Its folder is the fixture of the other driver cases.
. $HERE/lib.sh
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
DET="--detect yolov3 --anchors $ANCHORS --classes 80"
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a $DET > $TMP/compile.out
grep -q 'driver/' $TMP/compile.out
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a2 $DET > /dev/null
diff -r $TMP/a/driver $TMP/a2/driver
grep -q 'kd_run_segment(r, 0, ' $TMP/a/driver/model.c
grep -qE 'kd_dequantize_ch\(kd_v[0-9]+, 1020, kd_scales_out0, 255, 4, outputs\[0\]\);' $TMP/a/driver/model.c
grep -qE 'kd_dequantize_ch\(kd_v[0-9]+, 4080, kd_scales_out1, 255, 16, outputs\[1\]\);' $TMP/a/driver/model.c
cp $MODELS/yolov3-tiny-small-input.npy $TMP/in.npy
$KILN run --target int8 $TMP/q.gir -i $TMP/in.npy -o $TMP/r0.npy -o $TMP/r1.npy > /dev/null
cmake -S $TMP/a/driver -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $TMP/in.npy -o $TMP/ox --frames 2 > $TMP/run.out
unserve
cat $TMP/run.out
grep -q '2 frame(s)' $TMP/run.out
cmp $TMP/ox/out0.npy $TMP/r0.npy
cmp $TMP/ox/out1.npy $TMP/r1.npy
$PYTHON -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["model"] == "yolov3_tiny"' \
    $TMP/ox/detections.json
