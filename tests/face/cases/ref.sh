# RUN: KILN PYTHON
# TIMEOUT: 120
# FIXTURES_SETUP: face_ref
# The model and the reference: gen_face.py writes the detector at 320x320
# from face-api's weight files (193,321 weights, a 1x25x10x10 head), and
# face-api itself, in node on tfjs's cpu backend, runs four of its demo
# photos (Debian darknet's samples hold no face it finds): sample3 (the
# photo the cases check, 3 faces) and sample1, 2, 4 (kiln quantize's
# calibration inputs).  Its folder (REF, lib.sh) is the fixture of the
# other cases.
. $HERE/lib.sh
face_need_npm
$PYTHON $SRC/tests/models/gen_face.py --model-dir $FACEAPI/model --size 320 \
    --out $REF/face320.onnx > $TMP/gen.out
cat $TMP/gen.out
grep -q 'head 1x25x10x10$' $TMP/gen.out
# The models target's copy (when the package was there at configure time) is
# the same file: the generator is deterministic.
if [ -f $MODELS/face.onnx ]; then cmp $MODELS/face.onnx $REF/face320.onnx; fi
$KILN info $REF/face320.onnx > $TMP/info.out
grep -q '^total: 24 nodes, 0.193 M parameters (193321)' $TMP/info.out
for i in 3 1 2 4; do
    $NODE $SRC/tests/face/faceapi_ref.js --deps $KILN_DEPS --image $PHOTOS/sample$i.jpg \
        --size 320 --out-dir $REF/sample$i 2> $TMP/node$i.err | tee $TMP/node$i.out
done
grep -q 'sample3.jpg 1920x1350, input 320, head 25x10x10, 3 faces$' $TMP/node3.out
mkdir -p $REF/calib
for i in 1 2 4; do cp $REF/sample$i/input.npy $REF/calib/sample$i.npy; done
