# RUN: KILN PYTHON
# TIMEOUT: 120
# kiln lower --triple nvptx64-nvidia-cuda: YOLOv3-tiny-small in fp32 (after
# the default passes, as kiln lower runs them) and in the int8 form (kiln
# quantize --calib-random 2).  kiln lower verifies the module with LLVM
# before and after O3; the PTX has one kernel entry per node of the graph
# kiln lower compiled, its buffers in the global state space, a launch
# plan that agrees with it, and assembles with ptxas where ptxas is on PATH.
. $HERE/gpu_lib.sh
m=$MODELS/yolov3-tiny-small.onnx
$KILN quantize $m --calib-random 2 -o $TMP/q.gir > /dev/null 2>&1
$KILN opt $m -O > $TMP/opt.gir
$KILN lower $m --triple nvptx64-nvidia-cuda -o $TMP/f32.ptx
$KILN lower $TMP/q.gir --triple nvptx64-nvidia-cuda --cpu sm_90 -o $TMP/q8.ptx
ptx_check $TMP/f32 "$(grep -c '^%' $TMP/opt.gir)"
ptx_check $TMP/q8 "$(grep -c '^%' $TMP/q.gir)"
# the int8 form's Conv kernels are integer: no float multiply in them
grep -q 'mul.wide.s32\|mul.lo.s32\|mad.lo.s32' $TMP/q8.ptx
# the launch plans run on this CPU (--target gpu-host: the kernel bodies
# for the host, every launch's grid thread by thread, NULL for parameters
# the PTX does not read): fp32 within 1e-5 relative L2 of the interpreter
# on the optimized graph, int8 byte for byte --target int8
in=$MODELS/yolov3-tiny-small-input.npy
h=() r=() q=() i=()
for ((k = 0; k < 2; k++)); do
    h+=(-o $TMP/host$k.npy) r+=(-o $TMP/ref$k.npy) q+=(-o $TMP/hq$k.npy) i+=(-o $TMP/int8_$k.npy)
done
$KILN run $TMP/opt.gir -i $in --target gpu-host "${h[@]}" > /dev/null
$KILN run $TMP/opt.gir -i $in "${r[@]}" > /dev/null
$KILN run $TMP/q.gir -i $in --target gpu-host "${q[@]}" > /dev/null
$KILN run $TMP/q.gir -i $in --target int8 "${i[@]}" > /dev/null
for ((k = 0; k < 2; k++)); do
    $KILN compare $TMP/host$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
    cmp $TMP/hq$k.npy $TMP/int8_$k.npy
    echo "int8 output $k: byte for byte --target int8"
done
