#!/usr/bin/env bash
# RUN: yolo_vs_ort.sh KILN MODEL ORT_DIR WORKDIR
# The fp32 interpreter must match onnxruntime on both YOLOv3-tiny heads within
# 1e-4 relative L2 error, on a seeded random input.
set -euo pipefail
kiln=$1 model=$2 ort=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
/usr/bin/python3 - "$work/in.npy" <<'PY'
import sys, numpy as np
np.save(sys.argv[1], np.random.RandomState(7).uniform(0, 1, (1, 3, 416, 416)).astype(np.float32))
PY
"$kiln" run "$model" -i "$work/in.npy" -o "$work/kiln0.npy" -o "$work/kiln1.npy"
node "$here/../ort/ort_run.js" "$ort" "$model" "$work/in.npy" -- "$work/ort0.npy" "$work/ort1.npy"
"$kiln" compare "$work/kiln0.npy" "$work/ort0.npy" --max-rel-l2 1e-4
"$kiln" compare "$work/kiln1.npy" "$work/ort1.npy" --max-rel-l2 1e-4
