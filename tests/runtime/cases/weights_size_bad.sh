# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# A weights.bin that is not the image regmap.json describes is refused by
# krt_load before anything reaches the accelerator: truncated inside a
# channel, truncated in the padding after the last channel, and one byte
# too long; each one line naming the file and both sizes, exit 1.
. $HERE/lib.sh
A=$WORK/resdw/a
SERVER=
trap unserve EXIT
krt_build $TMP/krt_run
size=$(stat -c %s $A/rtl/weights.bin)
mkdir -p $TMP/b/rtl
cp $A/rtl/regmap.json $TMP/b/rtl/
W=$TMP/b/rtl/weights.bin
serve $A $TMP/s.sock
try() { # try EXPECTED_STDERR: krt_run on $TMP/b must fail with it
    set +e
    timeout 60 $TMP/krt_run sim:$TMP/s.sock $TMP/b -i $A/sim/seg0/in0.bin -o $TMP/out.bin \
        > $TMP/out 2> $TMP/err
    rc=$?
    set -e
    cat $TMP/err
    test $rc = 1
    test "$(cat $TMP/err)" = "$1"
}
head -c 1000 $A/rtl/weights.bin > $W
try "krt_run: $W: 1000 bytes, expected $size (weights_bytes of regmap.json): truncated"
head -c $((size - 100)) $A/rtl/weights.bin > $W
try "krt_run: $W: $((size - 100)) bytes, expected $size (weights_bytes of regmap.json): truncated"
{ cat $A/rtl/weights.bin; printf x; } > $W
try "krt_run: $W: $((size + 1)) bytes, expected $size (weights_bytes of regmap.json): not this model's weight image"
unserve
test ! -e $TMP/out.bin
