# RUN: KILN PYTHON
# A Darknet classifier head in the int8 form (conv, maxpool, conv,
# [avgpool], [softmax]; kiln quantize --calib-random 2): --target cpu
# compiles every node, the int8 GlobalAveragePool and the Softmax between
# its DequantizeLinear and the output included, and the output is byte for
# byte --target int8's.
cat > $TMP/head.cfg <<'CFG'
[net]
width=16
height=16
channels=3

[convolutional]
batch_normalize=1
filters=16
size=3
stride=1
pad=1
activation=leaky

[maxpool]
size=2
stride=2

[convolutional]
filters=10
size=1
stride=1
pad=1
activation=linear

[avgpool]

[softmax]
groups=1
CFG
$KILN quantize $TMP/head.cfg --calib-random 2 -o $TMP/q.gir > /dev/null
grep -q '= GlobalAveragePool(.*: i8\[1,10,1,1\]' $TMP/q.gir
$PYTHON -c "import numpy as np, sys; np.save(sys.argv[1], np.random.default_rng(3).standard_normal((1, 3, 16, 16)).astype(np.float32))" $TMP/in.npy
$KILN run $TMP/q.gir -i $TMP/in.npy --target cpu -o $TMP/cpu.npy > /dev/null 2> $TMP/run.err
cat $TMP/run.err
grep -q ': 7 of 7 nodes compiled, 0 in the interpreter;' $TMP/run.err
$KILN run $TMP/q.gir -i $TMP/in.npy --target int8 -o $TMP/int8.npy > /dev/null
cmp $TMP/cpu.npy $TMP/int8.npy
echo "output: --target cpu byte for byte --target int8"
