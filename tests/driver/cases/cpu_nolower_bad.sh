# RUN: KILN
# A CPU layer the LLVM back end has no lowering for (a Darknet [softmax]
# between the two convs: Softmax) cannot go into the driver's objects:
# kiln compile exits 2 with one line naming the partition and the node,
# and leaves no output folder.
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
rc=0
$KILN compile $TMP/sm.cfg --calib-random 1 --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err || rc=$?
cat $TMP/err
[ $rc = 2 ]
grep -q "driver: CPU partition 0 (from node '.*'): .*node 'softmax#1': Softmax has no lowering in the CPU back end" $TMP/err
test ! -e $TMP/a
