# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 900
# An NHWC model as TensorFlow exports it (tests/models gen_small.py tfnhwc:
# a Transpose to NCHW after the input, one back to NHWC before the output):
# the driver folds both into its boundary steps, since NHWC is the stream's
# order: the input quantized as it lies and put without a transposition,
# the output got and dequantized the same way, no CPU partition.  kiln-infer
# runs 2 frames against kiln simulate --serve: out0.npy byte-identical to
# kiln run --target int8.
. $HERE/lib.sh
BOARD="--board ultra96v2 --pp-max 1"
$KILN compile $MODELS/tfnhwc.onnx --calib-random 2 $BOARD -o $TMP/a > $TMP/compile.out
cat $TMP/compile.out
D=$TMP/a/driver
grep -E 'kd_quantize|kd_dequantize|kd_put_value|kd_get_value|kiln_cpu' $D/model.c |
    sed 's/^ *//; s/0x[0-9a-fp.+-]*f/S/' > $TMP/steps
cat $TMP/steps
printf '%s\n' 'kd_quantize(inputs[0], 3072, S, 0, kd_v0);' \
    'if (kd_put_value(r, "input_nchw_q", kd_v0, 3072, 0, err) < 0)' \
    'if (kd_get_value(r, "conv3", kd_v1, 2048, 0, err) < 0)' \
    'kd_dequantize(kd_v1, 2048, S, 0, outputs[0]);' | diff - $TMP/steps
[ "$(grep -c 'its Transpose folded here\|the Transpose folded here' $D/model.c)" = 2 ]
test ! -e $D/cpu0.h
grep -q "to_nchw (Transpose): NHWC to NCHW, the host's" $TMP/a/report.md
$KILN run --target int8 $TMP/a/model.gir -i $MODELS/tfnhwc-input.npy -o $TMP/r0.npy > /dev/null
cmake -S $D -B $TMP/bx > /dev/null
cmake --build $TMP/bx > $TMP/build.log 2>&1 || { cat $TMP/build.log; exit 1; }
serve $TMP/a $TMP/s.sock
$TMP/bx/kiln-infer sim:$TMP/s.sock -m $TMP/a $MODELS/tfnhwc-input.npy -o $TMP/ox --frames 2 \
    > $TMP/run.out
unserve
cat $TMP/run.out
grep -q '2 frame(s)' $TMP/run.out
cmp $TMP/ox/out0.npy $TMP/r0.npy
$PYTHON - $TMP/ox/out0.npy <<'PY'
import sys
import numpy as np
y = np.load(sys.argv[1])
assert y.shape == (1, 16, 16, 8) and y.dtype == np.float32, (y.shape, y.dtype)
assert np.abs(y).max() > 0
print("out0.npy: NHWC %s, kiln-infer = int8 interpreter byte for byte" % (y.shape,))
PY
