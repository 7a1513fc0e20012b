# RUN: KILN PYTHON
# TIMEOUT: 120
# kiln run --target gpu.  Without an NVIDIA driver (libcuda.so.1 cannot be
# opened, as on CI): exit 2 and one line saying so, after the PTX was built;
# with the CUDA toolkit's stub library as the driver (KILN_LIBCUDA), every
# driver symbol resolves and cuInit's failure is reported by name.  With a
# driver: YOLOv3-tiny-small on GPU 0, fp32 within 1e-5 relative L2 of the
# interpreter on the optimized graph, int8 byte for byte --target int8.
m=$MODELS/yolov3-tiny-small.onnx
in=$MODELS/yolov3-tiny-small-input.npy
$KILN quantize $m --calib-random 2 -o $TMP/q.gir > /dev/null 2>&1
# none: no driver library; nodevice: a driver that sees no GPU; gpu
state=$("$PYTHON" - << 'PY'
import ctypes
try:
    cu = ctypes.CDLL("libcuda.so.1")
except OSError:
    print("none")
    raise SystemExit
n = ctypes.c_int(0)
ok = cu.cuInit(0) == 0 and cu.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0
print("gpu" if ok else "nodevice")
PY
)
if [ "$state" = nodevice ]; then
    echo "libcuda.so.1 opens but the driver sees no GPU: the run comparison is skipped"
    exit 0
fi
if [ "$state" = none ]; then
    why="libcuda.so.1: cannot open shared object file: No such file or directory"
    for model in $m $TMP/q.gir; do
        "$SRC/tests/cli/expect.sh" 2 "kiln: run: --target gpu: cannot open libcuda.so.1 ($why): no NVIDIA driver on this machine; the PTX was built and verified (kiln lower --triple nvptx64-nvidia-cuda writes it)" \
            -- $KILN run $model -i $in --target gpu -o $TMP/g.npy
        test ! -e $TMP/g.npy
    done
    stub=
    for d in ${CUDA_HOME:-/usr/local/cuda}/lib64/stubs ${CUDA_HOME:-/usr/local/cuda}/lib/stubs; do
        if [ -e $d/libcuda.so ]; then stub=$d/libcuda.so; fi
    done
    if [ -n "$stub" ]; then
        KILN_LIBCUDA=$stub "$SRC/tests/cli/expect.sh" 2 \
            "kiln: run: --target gpu: cuInit: CUDA_ERROR_STUB_LIBRARY (34)" \
            -- $KILN run $m -i $in --target gpu
    else
        echo "no CUDA stub library: the driver symbols were not resolved"
    fi
    echo "no NVIDIA driver: the run comparison is skipped"
    exit 0
fi
$KILN opt $m -O > $TMP/opt.gir
n=$("$PYTHON" -c 'import sys; print(sum(1 for l in open(sys.argv[1]) if l.startswith("output ")))' $TMP/opt.gir)
g=() r=() q=() i=()
for ((k = 0; k < n; k++)); do
    g+=(-o $TMP/gpu$k.npy) r+=(-o $TMP/ref$k.npy) q+=(-o $TMP/gq$k.npy) i+=(-o $TMP/int8_$k.npy)
done
$KILN run $TMP/opt.gir -i $in --target gpu "${g[@]}" > /dev/null
$KILN run $TMP/opt.gir -i $in "${r[@]}" > /dev/null
$KILN run $TMP/q.gir -i $in --target gpu "${q[@]}" > /dev/null
$KILN run $TMP/q.gir -i $in --target int8 "${i[@]}" > /dev/null
for ((k = 0; k < n; k++)); do
    $KILN compare $TMP/gpu$k.npy $TMP/ref$k.npy --max-rel-l2 1e-5
    cmp $TMP/gq$k.npy $TMP/int8_$k.npy
    echo "int8 output $k: byte for byte --target int8"
done
