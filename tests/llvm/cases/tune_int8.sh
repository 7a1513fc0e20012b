# RUN: KILN
# FIXTURES_REQUIRED: llvm_aot_x86
# The int8 form of YOLOv3-tiny-small (aot_x86's q.gir: kiln quantize
# --calib-random 2): kiln tune on two of its Conv workloads (every
# candidate checked bit for bit against the int8 interpreter), then kiln
# run --target cpu --records against --target int8: every output byte for
# byte the same.
q=$WORK/aot_x86/q.gir
in=$MODELS/yolov3-tiny-small-input.npy
$KILN tune $q --workloads 1,2 --trials 3 --repeat 1 --seed 3 --records $TMP/r.jsonl -q > $TMP/tune.txt
test "$(grep -c '"ok":true' $TMP/r.jsonl)" = 6
grep -q '|i8|' $TMP/r.jsonl
$KILN run $q -i $in --target cpu --records $TMP/r.jsonl -o $TMP/cpu.npy 2> $TMP/run.err
grep -q '^kiln: cpu: [1-9][0-9]* kernels with schedules from the records$' $TMP/run.err
$KILN run $q -i $in --target int8 -o $TMP/int8.npy > /dev/null
cmp $TMP/cpu.npy $TMP/int8.npy
