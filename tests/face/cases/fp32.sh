# RUN: KILN
# TIMEOUT: 60
# FIXTURES_REQUIRED: face_ref
# kiln's fp32 reference interpreter on the tensor face-api fed its network
# gives face-api's raw head within 1e-4 relative L2, on each of the four
# photos (measured: 3e-7 to 4e-7; the two differ by float summation order).
. $HERE/lib.sh
face_need_npm
for i in 3 1 2 4; do
    $KILN run $REF/face320.onnx -i $REF/sample$i/input.npy -o $TMP/head$i.npy > /dev/null
    $KILN compare $TMP/head$i.npy $REF/sample$i/head.npy --max-rel-l2 1e-4
done
