# RUN: KILN
# A CPU layer inside one FPGA segment's dataflow (a grouped conv between a
# conv and the [shortcut] Add that joins both on the FPGA: the segment
# feeds the CPU layer and reads its result) cannot be ordered in the
# driver: kiln compile writes rtl/ and vivado/ with a note naming the node,
# and no driver/.
. $HERE/lib.sh
cat > $TMP/cyc.cfg <<'CFG'
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

[convolutional]
batch_normalize=1
filters=8
size=3
stride=1
pad=1
groups=2
activation=leaky

[shortcut]
from=-2
activation=linear

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
$KILN compile $TMP/cyc.cfg --calib-random 1 --board zcu104 -o $TMP/a > $TMP/out 2> $TMP/err
cat $TMP/err
grep -q "note: driver/ not written: driver: node 'convolutional1' (Conv) runs on the CPU between parts of one FPGA segment" $TMP/err
test -d $TMP/a/rtl
test ! -e $TMP/a/driver
