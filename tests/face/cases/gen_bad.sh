# RUN: PYTHON
# TIMEOUT: 30
# gen_face.py refuses weight files it cannot read whole, naming the file
# and the tensor, and leaves no model behind: a .bin cut short, a tensor
# not stored as uint8, a folder without a manifest.
. $HERE/lib.sh
face_need_npm
G="$PYTHON $SRC/tests/models/gen_face.py"
M=tiny_face_detector_model-weights_manifest.json
mkdir -p $TMP/cut $TMP/f32
cp $FACEAPI/model/$M $TMP/cut/
head -c 193000 $FACEAPI/model/tiny_face_detector_model.bin > $TMP/cut/tiny_face_detector_model.bin
rc=0; $G --model-dir $TMP/cut --out $TMP/cut.onnx 2> $TMP/cut.err || rc=$?
cat $TMP/cut.err
test $rc = 1
grep -q "cut/$M: weights\[17\] (conv8/filters): needs bytes 180496..193296, the .bin has 193000$" $TMP/cut.err
test ! -e $TMP/cut.onnx
sed 's/"uint8"/"uint16"/' $FACEAPI/model/$M > $TMP/f32/$M
cp $FACEAPI/model/tiny_face_detector_model.bin $TMP/f32/
rc=0; $G --model-dir $TMP/f32 --out $TMP/f32.onnx 2> $TMP/f32.err || rc=$?
test $rc = 1
grep -q "weights\[0\] (conv0/filters): expected float32 stored as uint8$" $TMP/f32.err
rc=0; $G --model-dir $TMP/none --out $TMP/none.onnx 2> $TMP/none.err || rc=$?
test $rc = 1
grep -q "none/$M: cannot read" $TMP/none.err
