# RUN: KILN PYTHON MODELS
# TIMEOUT: 60
# kiln's int8 TOSA export of YOLOv3-tiny (64x64) lowered and run by MLIR
# itself (tosa.rescale through tosa-to-arith's apply_scale) against kiln's
# int8 interpreter: the same int8 outputs (dequantized; an int8 step of the
# outputs is about 0.1, far above the 6-digit print's rounding).
. $HERE/linalg.sh
M=$MODELS/yolov3-tiny-small
$KILN quantize $M.onnx --calib-random 2 --calib-backend ref -o $TMP/q.gir
$KILN export $TMP/q.gir --tosa -o $TMP/q.mlir
run_linalg $TMP/q.mlir 2 $TMP/q.gir --target int8
$PYTHON -c "
import numpy as np
a = np.concatenate([np.load('$TMP/y%d.npy' % i).astype(np.float64).ravel() for i in range(2)])
b = np.array([float(l) for l in open('$TMP/runner.txt')])
assert abs(a - b).max() < 0.01, abs(a - b).max()
"
