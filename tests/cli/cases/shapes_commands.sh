# RUN: KILN
# TIMEOUT: 120
# Every command that loads a model takes --input-shape (main.c takes it off
# the command line for them) and sees the folded, static graph.
m=$MODELS/dyn_torch.onnx
s="--input-shape input=1,3,32,32"
$KILN info $m $s | grep -q '^total: 11 nodes'
$KILN ir $m $s -o $TMP/t.gir
$KILN ir $TMP/t.gir | grep -q 'Gemm'
$KILN opt $m $s -O --stats > $TMP/stats.txt
cat $TMP/stats.txt
grep -q '^nodes 9$' $TMP/stats.txt
$KILN export $m $s -o $TMP/t.onnx
$KILN info $TMP/t.onnx | grep -q '^total: 11 nodes'
$KILN quantize $m $s --calib-random 2 -o $TMP/q.gir
$KILN run $TMP/q.gir --target int8 -i $MODELS/dyn_torch-input.npy | grep -q '^output 0 logits'
$KILN run $m --input-shape=1,3,32,32 --target cpu -i $MODELS/dyn_torch-input.npy | grep -q '^output 1 grid f32\[1,8,16,16\]'
$KILN bench $m $s --target ref --warmup 0 --iters 1 > $TMP/bench.txt
$KILN compile $m $s --board zcu104 -o $TMP/c > $TMP/compile.txt
grep -q 'FPGA layers' $TMP/compile.txt
# the int8 Gemm head is in the driver's CPU partition objects
test -s $TMP/c/driver/cpu0-x86_64.o && test -s $TMP/c/driver/cpu0-aarch64.o
grep -q 'kiln_cpu0(in, out);' $TMP/c/driver/model.c
# info of the dynamic model without --input-shape still shows it as it is
$KILN info $m | grep -q 'f32\[?,8,?,?\]'
