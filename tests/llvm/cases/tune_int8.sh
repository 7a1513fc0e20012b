# RUN: KILN
# The int8 form of YOLOv3-tiny-small (kiln quantize --calib-random 2):
# kiln tune on two of its Conv workloads (every candidate checked bit for
# bit against the int8 interpreter), then kiln run --target cpu --records
# against --target int8: every output byte for byte the same.
m=$MODELS/yolov3-tiny-small.onnx
in=$MODELS/yolov3-tiny-small-input.npy
$KILN quantize $m --calib-random 2 -o $TMP/q.gir > /dev/null 2>&1
$KILN tune $TMP/q.gir --workloads 1,2 --trials 4 --repeat 2 --seed 3 --records $TMP/r.jsonl -q > $TMP/tune.txt
test "$(grep -c '"ok":true' $TMP/r.jsonl)" = 8
grep -q '|i8|' $TMP/r.jsonl
$KILN run $TMP/q.gir -i $in --target cpu --records $TMP/r.jsonl -o $TMP/cpu.npy 2> $TMP/run.err
grep -q '^kiln: cpu: [1-9][0-9]* kernels with schedules from the records$' $TMP/run.err
$KILN run $TMP/q.gir -i $in --target int8 -o $TMP/int8.npy > /dev/null
cmp $TMP/cpu.npy $TMP/int8.npy
