# RUN: KILN
# TIMEOUT: 60
# SKIP_RETURN_CODE: 77
# Debian's darknet sample photos as inputs: kiln run on a JPEG equals kiln
# run on the tensor its preprocessing gives (--dump-input), exactly; and
# kiln quantize calibrates on a folder of photos.
PHOTOS=$DARKNET_CFG/../data
if [ ! -f "$PHOTOS/dog.jpg" ]; then
    echo "SKIP: no darknet sample photos at $PHOTOS (scripts/install-deps.sh)"
    exit 77
fi
m=$MODELS/dyn_torch.onnx
pp="--input-shape 1,3,32,32 --mean 123.675,116.28,103.53 --std 58.395,57.12,57.375"
$KILN run $m $pp -i $PHOTOS/dog.jpg --dump-input $TMP/dog.npy -o $TMP/a0.npy -o $TMP/a1.npy
$KILN run $m --input-shape 1,3,32,32 -i $TMP/dog.npy -o $TMP/b0.npy -o $TMP/b1.npy
$KILN compare $TMP/a0.npy $TMP/b0.npy --max-abs 0
$KILN compare $TMP/a1.npy $TMP/b1.npy --max-abs 0
# NHWC, padded
$KILN run $MODELS/dyn_tf.onnx --input-shape 1,40,48,3 --nhwc --resize pad --scale 0.00392156862745098 \
    -i $PHOTOS/horses.jpg | grep -q '^output 0 probs f32\[1,5\]'
# calibration on a folder of photos plus a tensor file; the report's input
# is a photo not used for calibration
mkdir $TMP/calib
for p in dog eagle giraffe horses kite; do ln -s $PHOTOS/$p.jpg $TMP/calib/; done
cp $TMP/dog.npy $TMP/calib/zz.npy
$KILN quantize $m $pp --calib $TMP/calib --report -i $PHOTOS/person.jpg --min-cosine 0.99 > $TMP/report.txt
cat $TMP/report.txt
grep -q '^method minmax, 6 calibration inputs' $TMP/report.txt
grep -q '^output logits: cosine' $TMP/report.txt
