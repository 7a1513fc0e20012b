# RUN: KILN
# A plan the RTL generator refuses (64 max poolings of one pooling stage,
# each its own graph output: one more consumer than a stage's stream feeds)
# makes kiln compile fail with the generator's reason, one line, exit 2,
# and leave no folder; with --plan-only the same plan is written.
{
    echo 'graph "fan" opset 13'
    echo 'input %x : f32[1,8,8,8]'
    echo '%c = MaxPool(%x) {kernel_shape=[1,1], strides=[1,1]} : f32[1,8,8,8]'
    for i in $(seq 1 64); do
        echo "%p$i = MaxPool(%c) {kernel_shape=[2,2], strides=[2,2]} : f32[1,8,4,4]"
    done
    for i in $(seq 1 64); do echo "output %p$i"; done
} > $TMP/fan.gir
set +e
$KILN compile $TMP/fan.gir --board zcu104 --calib-random 1 -o $TMP/a > $TMP/out 2> $TMP/err
rc=$?
set -e
cat $TMP/err
test $rc = 2
test "$(cat $TMP/err)" = "kiln: compile: rtl/ cannot be generated for this plan: rtl: c: more than 63 consumers (--plan-only writes the plan alone)"
test "$(wc -l < $TMP/err)" = 1
test ! -s $TMP/out
test -z "$(ls $TMP | grep -E '^a(\.|$)')"
$KILN compile $TMP/fan.gir --board zcu104 --calib-random 1 --plan-only -o $TMP/a > /dev/null 2>&1
test -f $TMP/a/plan.json
test ! -e $TMP/a/rtl
