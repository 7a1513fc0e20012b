# int8 quantization: the int8 kernels against the requant definition, the
# quantizer on the small YOLOv3-tiny, and its diagnostics (docs/quant.md).
set(QUANT ${CMAKE_CURRENT_LIST_DIR})
set(QKILN $<TARGET_FILE:kiln>)
set(QMODELS ${CMAKE_BINARY_DIR}/models)
set(QWORK ${CMAKE_CURRENT_BINARY_DIR}/quant-work)
set(QEXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)

add_executable(test_int8_kernels ${QUANT}/int8_kernels_test.c)
target_link_libraries(test_int8_kernels PRIVATE kiln_graphir)
kiln_warnings(test_int8_kernels)
foreach(c conv gemm add avgpool requant calib)
  add_test(NAME quant_int8_${c} COMMAND test_int8_kernels ${c})
endforeach()

# Quantize the 64x64 YOLOv3-tiny on 8 seeded random inputs with each method;
# every head's cosine against fp32 is printed and must reach 0.98.
add_test(NAME quant_yolo_small_methods
  COMMAND ${QKILN} quantize ${QMODELS}/yolov3-tiny-small.onnx --calib-random 8 --method all
    --min-cosine 0.98)
add_test(NAME quant_yolo_small_roundtrip
  COMMAND ${QUANT}/roundtrip_quant.sh ${QKILN} ${QMODELS}/yolov3-tiny-small.onnx ${QWORK}/rt)

# Bad input: one line, exit status 2.
add_test(NAME quant_calib_wrong_shape_bad
  COMMAND ${QUANT}/calib_dir.sh ${QWORK}/wrong ${QMODELS}/yolov3-tiny-input.npy --
    ${QEXPECT} 2 "kiln: quantize: ${QWORK}/wrong/yolov3-tiny-input.npy: tensor f32[1,3,416,416] does not match input 'input' f32[1,3,64,64]"
    -- ${QKILN} quantize ${QMODELS}/yolov3-tiny-small.onnx --calib ${QWORK}/wrong)
add_test(NAME quant_calib_empty_bad
  COMMAND ${QUANT}/calib_dir.sh ${QWORK}/empty --
    ${QEXPECT} 2 "kiln: quantize: calibration folder ${QWORK}/empty has no .npy, .jpg or .png files"
    -- ${QKILN} quantize ${QMODELS}/yolov3-tiny-small.onnx --calib ${QWORK}/empty)
add_test(NAME quant_unknown_method_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: unknown method 'entropy' (available: minmax, percentile, kl, mse, all)"
    -- ${QKILN} quantize ${QMODELS}/yolov3-tiny-small.onnx --method entropy)
add_test(NAME quant_run_not_quantized_bad
  COMMAND ${QEXPECT} 2 "kiln: run: ${QMODELS}/yolov3-tiny-small.onnx is not quantized (kiln quantize -o, or --calib-random N)"
    -- ${QKILN} run ${QMODELS}/yolov3-tiny-small.onnx --target int8 -i ${QMODELS}/yolov3-tiny-small-input.npy)
# A NaN among a conv's weights (a corrupt weights file) gets one line naming
# the node, the tensor and the element, not int8 weights of no meaning.
add_test(NAME quant_nonfinite_weights_bad
  COMMAND ${QEXPECT} 2 "kiln: ${CMAKE_CURRENT_LIST_DIR}/nonfinite_weights_bad.gir: node 'conv0': w holds NaN at element 2; int8 quantization needs finite weights"
    -- ${QKILN} quantize ${CMAKE_CURRENT_LIST_DIR}/nonfinite_weights_bad.gir --calib-random 1
       -o ${QWORK}/nonfinite.gir)
# A calibration tensor holding an infinity: one line naming the file and the
# element (the histogram has no bin for it).
add_test(NAME quant_calib_nonfinite_bad
  COMMAND ${QUANT}/calib_dir.sh ${QWORK}/inf ${QUANT}/inf_input.npy --
    ${QEXPECT} 2 "kiln: quantize: ${QWORK}/inf/inf_input.npy: element 5 is an infinity; calibration needs finite values"
    -- ${QKILN} quantize ${QUANT}/tiny_conv.gir --calib ${QWORK}/inf -o ${QWORK}/inf.gir)
# Calibration through the CPU back end (the default) and through the
# interpreter give byte-identical int8 graphs, every method.
add_test(NAME quant_calib_backend_same
  COMMAND ${QUANT}/calib_backend.sh ${QKILN} ${QMODELS} ${QWORK}/backend)
add_test(NAME quant_calib_backend_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: unknown calibration back end 'gpu' (cpu, ref)"
    -- ${QKILN} quantize ${QMODELS}/yolov3-tiny-small.onnx --calib-backend gpu)
# Per-channel output scales go to exactly the convs whose int8 output leaves
# the int8 graph; --per-tensor-outputs turns them off.
add_test(NAME quant_channel_heads
  COMMAND ${QUANT}/heads.sh ${QKILN} ${QUANT}/heads.gir ${QWORK}/heads)
# Bias correction: on its own calibration input the int8 output's mean error
# per channel shrinks, and only biases change.
add_test(NAME quant_bias_correct
  COMMAND ${QUANT}/bias_correct.sh ${QKILN} ${QMODELS} ${QWORK}/bias)
# Unary chains (scalar affine + paddle2onnx's HardSwish) as LutI8 tables:
# all nodes int8, tables equal to numpy's, text round trip, cosine >= 0.95.
add_test(NAME quant_lut_hswish
  COMMAND ${QUANT}/lut.sh ${QKILN} ${QMODELS}/hswish.onnx ${QMODELS}/hswish-input.npy ${QWORK}/lut)
add_test(NAME quant_lut_table_bad
  COMMAND ${QEXPECT} 2 "kiln: ${QUANT}/lut_table_bad.gir: node 'y': LutI8: attribute lut has 3 entries; expected 256"
    -- ${QKILN} ir ${QUANT}/lut_table_bad.gir)
# The thresholds around LutI8 tables: a table's input clipped to where its
# function changes, a HardSwish result read by a conv at its least-MSE
# threshold (calibration, docs/quant.md step 3).
add_test(NAME quant_lut_range
  COMMAND ${QUANT}/lut_range.sh ${QKILN} ${QUANT}/lut_range.gir ${QWORK}/lut_range)
# Per-channel activation scales (--channel-scales auto) on an imbalanced
# conv -> LutI8 -> depthwise conv chain: SQNR above what one scale reaches,
# C x 256 tables, text round trip, the CPU back end byte for byte.
add_test(NAME quant_channel_scales
  COMMAND ${QUANT}/chscale.sh ${QKILN} ${QWORK}/chscale)
# Unsigned activations: a ReLU'd conv output and a HardSigmoid's, each read
# by a conv without padding, get 0..255 (zero point -128) and gain against
# --unsigned off; text round trip, the CPU back end byte for byte, all on
# the FPGA.
add_test(NAME quant_unsigned
  COMMAND ${QUANT}/unsigned.sh ${QKILN} ${QWORK}/unsigned)
# Learned rounding: on its own calibration input every layer's error falls
# below nearest rounding's (the quantizer's figure and the interpreter's
# SQNR); weights and biases only, deterministic, CPU = int8 interpreter.
add_test(NAME quant_round
  COMMAND ${QUANT}/round.sh ${QKILN} ${QMODELS} ${QWORK}/round)
add_test(NAME quant_round_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --round wants nearest, learned or checked, not 'up'"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --round up)
add_test(NAME quant_sensitivity_all_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --sensitivity takes one method, not --method all"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --method all --sensitivity)
# --channel-scales auto:R: the ratio grades which values go per channel
# (auto:0.01 as off, auto:0.25 as auto); a ratio out of (0, 1] is refused.
add_test(NAME quant_channel_scales_ratio
  COMMAND ${QUANT}/chscale_ratio.sh ${QKILN} ${QWORK}/chscale_ratio)
add_test(NAME quant_channel_scales_ratio_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --channel-scales auto:R wants a ratio R above 0 and at most 1, not 'auto:1.5'"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --channel-scales auto:1.5)
# --fp32 FROM..TO: the nodes from FROM to TO in graph order stay fp32, as
# if each were named; a range backwards or naming no node is refused.
add_test(NAME quant_fp32_range
  COMMAND ${QUANT}/fp32_range.sh ${QKILN} ${QMODELS} ${QWORK}/fp32_range)
add_test(NAME quant_fp32_range_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --fp32: range 'conv6..dw2': 'dw2' (node 1) comes before 'conv6' (node 5) in the graph"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --calib-random 1 --calib-backend ref --fp32 conv6..dw2)
add_test(NAME quant_fp32_range_name_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --fp32: no node named 'nosuch' (range 'dw2..nosuch')"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --calib-random 1 --calib-backend ref --fp32 dw2..nosuch)
add_test(NAME quant_fp32_auto_bad
  COMMAND ${QEXPECT} 2 "kiln: quantize: --fp32 auto:N wants a count N from 1 to 10000, not 'auto:0'"
    -- ${QKILN} quantize ${QMODELS}/resdw.onnx --fp32 auto:0)
