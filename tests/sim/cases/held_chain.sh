# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1800
# Back-pressure through two windowed engines (big on zcu104, conv2, conv3
# and conv4 pinned): conv3 is 8x slower than conv2, which holds conv2 back,
# which holds maxpool1 and conv0 back.  conv2 takes its last input row once
# it has issued the output row that frees a line-buffer slot, and it issues
# that row only as conv3 frees room for it, long before conv2's own last
# beat.  conv0 and maxpool1 finish at 114k cycles; a model that ran conv2's
# last rows at conv2's own pace from its (held) end would say 210k.  Every
# stage's t_done, the interval and the latency within 2%.
$KILN quantize $MODELS/big.onnx --calib-random 4 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu104 --pin conv2=16x16x1 --pin conv3=8x16x1 --pin conv4=16x16x1 -o $TMP/a > /dev/null
$KILN simulate $TMP/a -i $MODELS/big-input.npy --frames 3 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
