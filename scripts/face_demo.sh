#!/usr/bin/env bash
# The whole deployment path on a real-weights model: face-api's tiny face
# detector (npm @vladmandic/face-api, its trained weights) on one of its demo
# photos.  One `kiln compile` of the fp32 model (int8 calibration on three
# other photos, plan, Verilog, Vivado package, driver); the driver built for
# aarch64 and run under qemu-aarch64 against the accelerator in Verilator
# (`kiln simulate --serve`); the detections printed and drawn, and checked:
#   - the aarch64 driver's output tensor, on face-api's own preprocessed
#     input, byte for byte the x86-64 driver's and kiln's int8 interpreter's;
#   - kiln's fp32 boxes (the same decoder, on the fp32 interpreter's head)
#     against face-api's own boxes: IoU >= 0.9 each;
#   - the int8 FPGA boxes on the photo against kiln's fp32 ones: IoU printed.
#   Usage: scripts/face_demo.sh KILN OUT_DIR [PHOTO]
# Needs the npm packages of scripts/install-deps.sh under KILN_DEPS
# (default /opt/kiln-deps); exits 77 saying so when they are missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kiln=$1 out=$2
deps=${KILN_DEPS:-/opt/kiln-deps}
faceapi=$deps/node_modules/@vladmandic/face-api
photo=${3:-$faceapi/demo/sample3.jpg}
for p in $faceapi/model/tiny_face_detector_model.bin $deps/node_modules/@tensorflow/tfjs/package.json \
         $deps/node_modules/jpeg-js/package.json; do
    [ -f "$p" ] || { echo "face_demo: $p missing (npm packages of scripts/install-deps.sh)"; exit 77; }
done
anchors=1.603231,2.094468,6.041143,7.080126,2.882459,3.518061,4.266906,5.178857,9.041765,10.66308
flags=(--mean 117.001,114.697,97.404 --std 255,255,255 --resize pad
       --detect region --classes 0 --anchors $anchors --score-threshold 0.5 --iou-threshold 0.4)
rm -rf "$out"
mkdir -p "$out/calib"

echo "== the model: face-api's tiny face detector, 320x320, its trained weights, as fp32 ONNX"
/usr/bin/python3 "$top/tests/models/gen_face.py" --model-dir "$faceapi/model" --size 320 --out "$out/face.onnx"
echo "== face-api itself (node, tfjs cpu backend) on $(basename "$photo"): the reference"
node "$top/tests/face/faceapi_ref.js" --deps "$deps" --image "$photo" --size 320 --out-dir "$out/ref" \
    2> "$out/ref.err"

echo "== kiln compile: quantize on 3 other photos, plan, Verilog, package, driver (ZCU104)"
for i in 1 2 4; do
    [ "$faceapi/demo/sample$i.jpg" -ef "$photo" ] || cp "$faceapi/demo/sample$i.jpg" "$out/calib/"
done
"$kiln" compile "$out/face.onnx" --board zcu104 -o "$out/face-zcu104" --calib "$out/calib" "${flags[@]}"
a=$out/face-zcu104

echo "== the driver, built for x86-64 and for aarch64"
cmake -S "$a/driver" -B "$out/bx" > /dev/null
cmake --build "$out/bx" > "$out/bx.log" 2>&1 || { cat "$out/bx.log"; exit 1; }
cmake -S "$a/driver" -B "$out/ba" -DCMAKE_TOOLCHAIN_FILE="$a/driver/toolchain-aarch64.cmake" > /dev/null
cmake --build "$out/ba" > "$out/ba.log" 2>&1 || { cat "$out/ba.log"; exit 1; }
file -b "$out/ba/kiln-infer" | cut -d, -f1-2 | grep aarch64

echo "== the accelerator in Verilator behind a socket (kiln simulate --serve; builds the model once)"
sock=$out/kiln.sock
"$kiln" simulate "$a" --serve "$sock" > "$out/serve.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
while [ ! -S "$sock" ]; do
    kill -0 $server 2> /dev/null || { cat "$out/serve.log"; exit 1; }
    sleep 0.5
done
a64() { qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/ba/kiln-infer" "$@"; }

echo "== aarch64 kiln-infer under qemu-aarch64 on $photo"
/usr/bin/time -f "qemu-aarch64 run: %e s wall" -o "$out/time.txt" \
    qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/ba/kiln-infer" "sim:$sock" -m "$a" "$photo" -o "$out/run"
cat "$out/time.txt"
cat "$out/run/detections.json"
echo "== checks on face-api's own preprocessed input: aarch64, x86-64 and the int8 interpreter"
a64 "sim:$sock" -m "$a" "$out/ref/input.npy" -o "$out/run-npy-a64" > /dev/null
"$out/bx/kiln-infer" "sim:$sock" -m "$a" "$out/ref/input.npy" -o "$out/run-npy-x86" > /dev/null
"$out/bx/kiln-infer" "sim:$sock" -m "$a" "$photo" -o "$out/run-x86" > /dev/null
kill $server 2> /dev/null || true
wait $server 2> /dev/null || true
trap - EXIT
"$kiln" run "$a/model.gir" --target int8 -i "$out/ref/input.npy" -o "$out/int8-head.npy" > /dev/null
cmp "$out/run-npy-a64/out0.npy" "$out/run-npy-x86/out0.npy"
cmp "$out/run-npy-a64/out0.npy" "$out/int8-head.npy"
cmp "$out/run/detections.json" "$out/run-x86/detections.json"
echo "aarch64 = x86-64 = int8 interpreter, byte for byte (head tensor and detections)"

echo "== kiln fp32 boxes (fp32 interpreter's head, the driver's decoder) against face-api's"
"$kiln" run "$out/face.onnx" -i "$out/ref/input.npy" -o "$out/fp32-head.npy" > /dev/null
"$out/bx/kiln-infer" --decode "$out/fp32-head.npy" -i "$photo" -o "$out/fp32" > /dev/null
/usr/bin/python3 "$top/tests/face/box_iou.py" "$out/fp32/detections.json" "$out/ref/boxes.json" --min-iou 0.9
echo "== the int8 FPGA boxes on face-api's input against kiln's fp32 boxes on it (quantization alone)"
"$out/bx/kiln-infer" --decode "$out/run-npy-a64/out0.npy" -i "$photo" -o "$out/int8-npy" > /dev/null
/usr/bin/python3 "$top/tests/face/box_iou.py" "$out/int8-npy/detections.json" "$out/fp32/detections.json" \
    --min-iou 0.5 || echo "(int8 and fp32 boxes differ beyond IoU 0.5, see above)"
echo "== the int8 FPGA boxes on the photo (kiln's own resize) against kiln's fp32 boxes"
/usr/bin/python3 "$top/tests/face/box_iou.py" "$out/run/detections.json" "$out/fp32/detections.json" \
    --min-iou 0.5 || echo "(int8 and fp32 boxes differ beyond IoU 0.5, see above)"
echo "picture with the boxes: $out/run/boxes.png"
