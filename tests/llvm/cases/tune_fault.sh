# RUN: KILN
# Candidates that crash, answer wrong or hang are recorded as failed, with
# the reason, and never taken: every candidate but the default schedule
# gets the fault, so the best is the default (for this 16 -> 32 Conv at
# 16x16 channel lanes of 2 oc blocks at 8 pixels, out=4, with AVX-512;
# pixel lanes, out=3, with 8-lane vectors).  A failed record in a file
# beside a slower successful one: the successful one is the best; it has
# no "ocb" (records written before that knob), which reads as 0, the
# default.
m=$MODELS/cpumid.onnx
w=(--workloads 2 --repeat 1 -q)
$KILN tune $m "${w[@]}" --trials 3 --records $TMP/crash.jsonl --inject-fault crash > $TMP/crash.txt
test "$(grep -c '"ok":false,"error":"crashed: signal 11 (Segmentation fault)"' $TMP/crash.jsonl)" = 2
grep -Eq '^2 .* 1.00x  (owb=8 vl=16 order=1 unroll=1 out=4 threads=2 ocb=2|owb=8 vl=8 order=1 unroll=1 out=3 threads=2 ocb=1) \(2\)$' $TMP/crash.txt
$KILN tune $m "${w[@]}" --trials 3 --records $TMP/wrong.jsonl --inject-fault wrong > $TMP/wrong.txt
test "$(grep -c '"ok":false,"error":"miscompiled: relative L2 ' $TMP/wrong.jsonl)" = 2
grep -Eq '^2 .* 1.00x  (owb=8 vl=16 order=1 unroll=1 out=4 threads=2 ocb=2|owb=8 vl=8 order=1 unroll=1 out=3 threads=2 ocb=1) \(2\)$' $TMP/wrong.txt
# the second record is the hanging candidate (the default, first, may time
# out too on a loaded machine or in a sanitizer build)
$KILN tune $m "${w[@]}" --trials 2 --timeout 2 --records $TMP/hang.jsonl --inject-fault hang > $TMP/hang.txt
sed -n 2p $TMP/hang.jsonl | grep -q '"ok":false,"error":"timed out after 2 s"}$'
# a hand-written failed record that would be fastest had it a time
key=$(head -n 1 $TMP/crash.jsonl | sed 's/^{"workload":"\([^"]*\)".*/\1/')
{
  echo "{\"workload\":\"$key\",\"schedule\":{\"owb\":4,\"vl\":16,\"order\":2,\"unroll\":1,\"out\":2,\"threads\":1},\"ok\":false,\"error\":\"crashed\",\"min_ms\":0.000001,\"median_ms\":0.000001}"
  echo "{\"workload\":\"$key\",\"schedule\":{\"owb\":8,\"vl\":16,\"order\":1,\"unroll\":1,\"out\":1,\"threads\":2},\"ok\":true,\"min_ms\":5,\"median_ms\":5}"
} > $TMP/hand.jsonl
$KILN tune $m "${w[@]}" --trials 2 --records $TMP/hand.jsonl > $TMP/hand.txt
grep -q '^2 .*  owb=8 vl=16 order=1 unroll=1 out=1 threads=2 ocb=0 (1)$' $TMP/hand.txt
