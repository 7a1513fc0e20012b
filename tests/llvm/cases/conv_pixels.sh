# RUN: KILN PYTHON
# The fp32 Conv's pixel lanes (schedule out=3: lanes are output pixels of
# a row, one accumulator per channel, each stored as one vector): the
# default for few taps per pixel and column stride 1.  A Darknet stack on a
# 40-wide input: a 3 -> 20 3x3 Conv (20 channels: the second block has 4
# of 16 lanes; 40 pixels: the last block of 16 moved back to end at 40,
# leaky), a 1x1 20 -> 17 one (relu), then the channel-lane kernel (a
# 3x3 without padding, 38 wide; a stride-2 one; with AVX-512 their output
# transposed in registers, out=4), two MaxPools and a stride-2 Conv 5
# pixels wide (out=4 with 8 lanes too).  The two first take
# pixel lanes (kiln tune prints the default schedules); with
# --exact every output is the interpreter's byte for byte, by default
# within 1e-5 relative L2.  Where the CPU has AVX2, the same for an object
# of 8 lanes (kiln lower --cpu x86-64-v3, no FMA: byte for byte).
cat > $TMP/p.cfg <<'CFG'
[net]
width=40
height=19
channels=3

[convolutional]
filters=20
size=3
stride=1
pad=1
activation=leaky

[convolutional]
filters=17
size=1
stride=1
pad=0
activation=relu

[convolutional]
filters=16
size=3
stride=1
padding=0
activation=linear

[maxpool]
size=2
stride=1

[convolutional]
filters=16
size=3
stride=2
pad=1
activation=leaky

[maxpool]
size=2
stride=2

[convolutional]
filters=24
size=3
stride=2
pad=1
activation=leaky
CFG
$PYTHON -c "import numpy as np, sys; np.save(sys.argv[1], (4 * np.random.default_rng(7).standard_normal((1, 3, 19, 40))).astype(np.float32))" $TMP/in.npy
$KILN tune $TMP/p.cfg --trials 1 -q --records $TMP/r.jsonl > $TMP/tune.txt
cat $TMP/tune.txt
grep -q '^1 .* out=3 ' $TMP/tune.txt
grep -q '^2 .* out=3 ' $TMP/tune.txt
grep -Eq '^3 .* out=[14] ' $TMP/tune.txt
if grep -qw avx2 /proc/cpuinfo; then grep -q '^5 .* out=4 ' $TMP/tune.txt; fi
# the whole stack, and its two first Convs alone (their output unpooled)
head -n 19 $TMP/p.cfg > $TMP/p2.cfg
for m in p p2; do
    $KILN run $TMP/$m.cfg -i $TMP/in.npy -o $TMP/$m-ref.npy > /dev/null
    $KILN run $TMP/$m.cfg -i $TMP/in.npy --target cpu --exact -o $TMP/$m-exact.npy > /dev/null
    cmp $TMP/$m-exact.npy $TMP/$m-ref.npy
    $KILN run $TMP/$m.cfg -i $TMP/in.npy --target cpu -o $TMP/$m-cpu.npy > /dev/null
    $KILN compare $TMP/$m-cpu.npy $TMP/$m-ref.npy --max-rel-l2 1e-5
done
if grep -qw avx2 /proc/cpuinfo; then
    . $HERE/aot_lib.sh
    $KILN opt $TMP/p.cfg -O > $TMP/p.gir
    $KILN lower $TMP/p.gir --triple x86_64-linux-gnu --cpu x86-64-v3 -o $TMP/pv3.o > /dev/null
    aot_link cc $TMP/pv3
    $TMP/pv3 $TMP/in.npy -o $TMP/pv3.raw
    as_npy $TMP/pv3.raw $TMP/p-ref.npy $TMP/pv3.npy
    cmp $TMP/pv3.npy $TMP/p-ref.npy
fi
echo "pixel lanes, transposed output: --exact byte for byte the interpreter, the default within 1e-5"
