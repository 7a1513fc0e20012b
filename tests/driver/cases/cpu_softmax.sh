# RUN: KILN
# A Darknet [softmax] between the two convs: the CPU partition between
# them (Flatten, DequantizeLinear, Softmax, Reshape, QuantizeLinear) is
# lowered whole, so kiln compile writes it into the driver as objects for
# aarch64 and x86-64 with their header, called from model.c.  (The refusal
# of a node without a lowering: cpu_nolower_bad.sh.)
. $HERE/lib.sh
cat > $TMP/sm.cfg <<'CFG'
[net]
width=16
height=16
channels=3

[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
pad=1
activation=leaky

[softmax]

[convolutional]
size=1
stride=1
pad=1
filters=18
activation=linear

[yolo]
mask=0,1,2
anchors=10,14,23,27,37,58
classes=1
num=3
CFG
$KILN compile $TMP/sm.cfg --calib-random 1 --board zcu104 -o $TMP/a > $TMP/out
cat $TMP/out
D=$TMP/a/driver
test -s $D/cpu0-aarch64.o && test -s $D/cpu0-x86_64.o && test -s $D/cpu0.h
grep -q "CPU partition 0 (cpu0.h): .*Softmax 'softmax1'" $D/model.c
grep -q 'kiln_cpu0(in, out);' $D/model.c
