# RUN: KILN
# kiln tune on one workload of cpumid: 3 trials into a records file, then
# resumed to 5 (the 3 are read back, not measured again: 5 lines, 5
# distinct schedules, the default first), then run again at 5 (nothing
# measured, the same best schedule printed: the records replay).  kiln run
# --records takes the best schedule for that Conv, and its output is the
# untuned one's byte for byte (no knob changes a sum's order); so do the
# same records without their "ocb" fields (as written before that knob).
m=$MODELS/cpumid.onnx
in=$MODELS/cpumid-input.npy
r=$TMP/r.jsonl
$KILN tune $m --workloads 4 --trials 3 --repeat 1 --records $r -q > $TMP/t1.txt
test "$(wc -l < $r)" = 3
grep -Eq '"schedule":\{("owb":8,"vl":16,"order":1,"unroll":1,"out":4,"threads":2,"ocb":2|"owb":8,"vl":8,"order":1,"unroll":1,"out":3,"threads":2,"ocb":1)\}' <(head -n 1 $r)
$KILN tune $m --workloads 4 --trials 5 --repeat 1 --records $r -q > $TMP/t2.txt
grep -q '^kiln tune: resuming from 3 records in ' $TMP/t2.txt
test "$(wc -l < $r)" = 5
test "$(sed 's/.*"schedule":\({[^}]*}\).*/\1/' $r | sort -u | wc -l)" = 5
$KILN tune $m --workloads 4 --trials 5 --records $r -q > $TMP/t3.txt
test "$(wc -l < $r)" = 5
grep '^4 ' $TMP/t2.txt > $TMP/best2.txt
grep '^4 ' $TMP/t3.txt > $TMP/best3.txt
diff $TMP/best2.txt $TMP/best3.txt
$KILN run $m -i $in --target cpu --records $r -o $TMP/tuned.npy 2> $TMP/run.err
grep -q '^kiln: cpu: 1 kernels with schedules from the records$' $TMP/run.err
$KILN run $m -i $in --target cpu -o $TMP/untuned.npy 2> /dev/null
cmp $TMP/tuned.npy $TMP/untuned.npy
sed 's/,"ocb":[0-9]*//' $r > $TMP/old.jsonl
! grep -q ocb $TMP/old.jsonl
$KILN run $m -i $in --target cpu --records $TMP/old.jsonl -o $TMP/old.npy 2> $TMP/old.err
grep -q '^kiln: cpu: 1 kernels with schedules from the records$' $TMP/old.err
cmp $TMP/old.npy $TMP/untuned.npy
