# RUN: KILN
# Bad images: one line naming the file, exit status 2.
expect() { # status message command...
    want=$1 msg=$2
    shift 2
    set +e
    err=$("$@" 2>&1 >/dev/null)
    rc=$?
    set -e
    echo "$err"
    test "$rc" = "$want"
    test "$err" = "$msg"
}
m=$MODELS/dyn_torch.onnx
s="--input-shape 1,3,32,32"
printf 'not an image' > $TMP/bad.jpg
expect 2 "kiln: $TMP/bad.jpg: not a JPEG or PNG image kiln can decode (stb_image: unknown image type)" \
    $KILN run $m $s -i $TMP/bad.jpg
# a PNG cut short
printf '\211PNG\r\n\032\n\0\0\0\015IHDR\0\0\0\020\0\0\0\020\010\002\0\0\0' > $TMP/cut.png
set +e
$KILN run $m $s -i $TMP/cut.png 2> $TMP/err
rc=$?
set -e
cat $TMP/err
test $rc = 2
test "$(wc -l < $TMP/err)" = 1
grep -q "^kiln: $TMP/cut.png: not a JPEG or PNG image kiln can decode (stb_image: " $TMP/err
expect 2 "kiln: $TMP/missing.png: cannot read the image: No such file or directory" \
    $KILN run $m $s -i $TMP/missing.png
# the model's input must take an image
printf '\377\330\377' > $TMP/x.jpg
expect 2 "kiln: $TMP/x.jpg: an image feeds an f32 input of 4 static dims; input 'input' is f32[?,3,?,?] (give --input-shape)" \
    $KILN run $m -i $TMP/x.jpg
expect 2 "kiln: $TMP/x.jpg: input 'input' is f32[1,3,32,32] (NCHW): 3 channels, an image gives 4" \
    $KILN run $m $s --alpha -i $TMP/x.jpg
expect 2 "kiln: $TMP/x.jpg: input 'input' is f32[2,3,32,32]: an image fills a batch of 1" \
    $KILN run $m --input-shape 2,3,32,32 -i $TMP/x.jpg
# flags
expect 2 "kiln: give one of --std and --scale, not both" $KILN run $m --std 1,1,1 --scale 2 -i $TMP/x.jpg
expect 2 "kiln: --mean '1,2': expected 3 numbers (R,G,B) or 4 with the alpha channel's" $KILN run $m --mean 1,2 -i $TMP/x.jpg
expect 2 "kiln: --resize 'crop': expected stretch or pad" $KILN run $m --resize crop -i $TMP/x.jpg
# a bad image among the calibration files names that file
mkdir $TMP/calib
cp $TMP/bad.jpg $TMP/calib/
expect 2 "kiln: $TMP/calib/bad.jpg: not a JPEG or PNG image kiln can decode (stb_image: unknown image type)" \
    $KILN quantize $m $s --calib $TMP/calib
