# RUN: KILN
# The uio transport without a board: a missing device is one error line; a
# fake UIO device (a 4 KiB file standing for the register window) has its
# HASH registers read through mmap, a wrong hash refused, and a right one
# gets as far as the u-dma-buf sysfs files, which are absent here.
. $HERE/lib.sh
krt_build $TMP/krt_run
mkdir -p $TMP/m/rtl
printf '{"plan_hash": "0x1122334455667788", "registers": [{"name": "SEGMENT", "offset": 64},
 {"name": "FRAMES", "offset": 68}], "segments": [{"index": 0, "inputs": ["in0"],
 "outputs": []}], "channels": [{"name": "in0", "dir": "rd", "segment": 0, "frame_bytes": 64,
 "base_lo": "0x48", "base_hi": "0x4C", "h": 4, "w": 4, "c": 4, "lanes": 4}]}\n' \
    > $TMP/m/rtl/regmap.json
head -c 64 /dev/zero > $TMP/in.bin
set +e
$TMP/krt_run uio:$TMP/nodev $TMP/m -i $TMP/in.bin 2> $TMP/err1; rc1=$?
head -c 4096 /dev/zero > $TMP/uio
$TMP/krt_run uio:$TMP/uio $TMP/m -i $TMP/in.bin 2> $TMP/err2; rc2=$?
printf '\x88\x77\x66\x55\x44\x33\x22\x11' | dd of=$TMP/uio bs=1 seek=16 conv=notrunc 2> /dev/null
$TMP/krt_run uio:$TMP/uio,$TMP/udmabuf9 $TMP/m -i $TMP/in.bin 2> $TMP/err3; rc3=$?
set -e
cat $TMP/err1 $TMP/err2 $TMP/err3
test $rc1 = 1
test $rc2 = 1
test $rc3 = 1
test "$(cat $TMP/err1)" = "krt_run: $TMP/nodev: cannot open: No such file or directory"
grep -q '^krt_run: plan hash mismatch: the accelerator was built from plan 0x0000000000000000, ' $TMP/err2
test "$(cat $TMP/err3)" = "krt_run: /sys/class/u-dma-buf/udmabuf9/phys_addr: cannot read: No such file or directory"
