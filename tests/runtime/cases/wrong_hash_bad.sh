# RUN: KILN VERILATOR
# FIXTURES_REQUIRED: runtime_resdw_dir
# A model whose plan hash is not the accelerator's is refused before
# anything is written: one line, exit 1.
. $HERE/lib.sh
A=$WORK/resdw/a
mkdir -p $TMP/b/rtl
sed 's/"plan_hash": "0x[0-9a-f]*"/"plan_hash": "0x0123456789abcdef"/' $A/rtl/regmap.json \
    > $TMP/b/rtl/regmap.json
cp $A/rtl/weights.bin $TMP/b/rtl/
krt_build $TMP/krt_run
serve $A $TMP/s.sock
set +e
$TMP/krt_run sim:$TMP/s.sock $TMP/b -i $A/sim/seg0/in0.bin -o $TMP/out.bin > $TMP/out 2> $TMP/err
rc=$?
set -e
unserve
cat $TMP/err
test $rc = 1
test "$(wc -l < $TMP/err)" = 1
grep -q "^krt_run: plan hash mismatch: the accelerator was built from plan 0x$(sed -n 's/.*"plan_hash": "0x\([0-9a-f]*\)".*/\1/p' $A/rtl/regmap.json), $TMP/b/rtl/regmap.json is plan 0x0123456789abcdef$" $TMP/err
