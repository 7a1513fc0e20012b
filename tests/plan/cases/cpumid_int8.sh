# RUN: KILN
# cpumid (tests/models/gen_small.py) quantized with random calibration: the
# int8 interpreter against fp32 on the bundled image-like input.
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir --report -i $MODELS/cpumid-input.npy --min-cosine 0.99
$KILN run $TMP/q.gir --target int8 -i $MODELS/cpumid-input.npy -o $TMP/int8.npy
$KILN run $MODELS/cpumid.onnx --target ref -i $MODELS/cpumid-input.npy -o $TMP/fp32.npy
$HERE/check_plan.py cosine $TMP/int8.npy $TMP/fp32.npy 0.99
