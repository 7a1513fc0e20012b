# RUN: KILN VERILATOR PYTHON
# TIMEOUT: 1200
# ReLU6 (a Clip fused into conv and depthwise conv by the quantizer) on the
# engines: every layer of mbrelu6 on the FPGA with its act_min/act_max as the
# requant's output clamp (QLO/QHI), bit-exact over 2 frames, every stage's
# t_done, the interval and the latency within 2% of the plan (on ultra96v2:
# its smaller arrays build faster in Verilator).  Quantized with --unsigned
# auto: the three ReLU6 outputs read by 1x1 convs are 0..255 (zero point
# -128 in the biases, act_min -128), conv0's, read by the padded depthwise
# conv, stays signed (QLO 0); the engines are the same (docs/quant.md
# "Unsigned activations").
$KILN quantize $MODELS/mbrelu6.onnx --calib-random 4 --unsigned auto -o $TMP/q.gir > /dev/null
grep -q 'act_min' $TMP/q.gir
test "$(grep -c ' zp(-128)' $TMP/q.gir)" = 3
# on the fabric clock (--clk2x off): the design this case was made for
$KILN compile $TMP/q.gir --board ultra96v2 --clk2x off -o $TMP/a | tee $TMP/plan
grep -q ' 6 FPGA layers, ' $TMP/plan
grep -q '\.QLO(0)' $TMP/a/rtl/kiln_top.v
grep -q '^    kiln_dwconv #' $TMP/a/rtl/kiln_top.v
$KILN simulate $TMP/a -i $MODELS/mbrelu6-input.npy --frames 2 | tee $TMP/out
grep -q 'every output byte matches the int8 interpreter' $TMP/out
$PYTHON $HERE/check_cycles.py $TMP/a/sim/result.json 0.02
