# RUN: KILN
# The gpu target's refusals: a node calling libm without libdevice
# (Sigmoid: expf), a node without lowering, a 32-bit or unknown triple, a CPU
# that is no sm_XX, an unknown feature: exit 2, one line naming it, and
# neither OUT.ptx nor OUT.json nor OUT.bin nor a temporary file left.
# no libdevice, as on CI (KILN_LIBDEVICE set and empty)
export KILN_LIBDEVICE=
gpu_bad() {
    local want=$1 left
    shift
    "$SRC/tests/cli/expect.sh" 2 "$want" -- "$KILN" lower "$@" -o $TMP/t.ptx
    left=$(ls $TMP/t.* 2> /dev/null || true)
    if [ -n "$left" ]; then
        echo "left behind: $left"
        return 1
    fi
}
nv=nvptx64-nvidia-cuda
gpu_bad "kiln: lower: node 's': Sigmoid calls expf (libm), which NVPTX cannot link without libdevice (none found; KILN_LIBDEVICE or CUDA_HOME names it)" \
    $HERE/cases/ops.gir --triple $nv
gpu_bad "kiln: lower: node 'h': Gather has no lowering in the LLVM back end, and the gpu target runs every node on the device" \
    $HERE/cases/unlowered.gir --triple $nv
gpu_bad "kiln: lower: unknown GPU target triple 'nvptx-nvidia-cuda' (the gpu target is nvptx64-nvidia-cuda)" \
    $HERE/cases/unlowered.gir --triple nvptx-nvidia-cuda
gpu_bad "kiln: lower: unknown CPU 'znver4' for $nv (an sm_XX, e.g. sm_90)" \
    $MODELS/yolov3-tiny-small.onnx --triple $nv --cpu znver4
gpu_bad "kiln: lower: unknown CPU 'sm_999' for $nv" \
    $MODELS/yolov3-tiny-small.onnx --triple $nv --cpu sm_999
gpu_bad "kiln: lower: unknown target feature '+ptx99' for $nv" \
    $MODELS/yolov3-tiny-small.onnx --triple $nv --features +ptx99
"$SRC/tests/cli/expect.sh" 2 "kiln: run: --target gpu: node 's': Sigmoid calls expf (libm), which NVPTX cannot link without libdevice (none found; KILN_LIBDEVICE or CUDA_HOME names it)" \
    -- $KILN run $HERE/cases/ops.gir -i $HERE/cases/ops-input.npy --target gpu
