# RUN: KILN
# FIXTURES_REQUIRED: driver_yolo_dir
# A .npy of another shape (an output tensor), and --decode given the outputs
# in the wrong order: one line naming the file and both shapes, exit 1; a
# socket nobody listens on: one line naming it.
. $HERE/lib.sh
expect_fail "$F/r0.npy: shape [1,255,2,2], the model's 'input' is [1,3,64,64]" \
    $F/bx/kiln-infer sim:$TMP/s.sock -m $F/a $F/r0.npy
expect_fail "$F/r1.npy: shape [1,255,4,4], the model's 'conv15_dq' is [1,255,2,2]" \
    $F/bx/kiln-infer --decode $F/r1.npy $F/r0.npy -o $TMP/d
expect_fail "sim:$TMP/none.sock: cannot connect" \
    $F/bx/kiln-infer sim:$TMP/none.sock -m $F/a $F/in.npy -o $TMP/o
test ! -e $TMP/o/out0.npy
