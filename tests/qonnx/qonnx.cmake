# Pre-quantized ONNX in (QLinearConv, ConvInteger, MatMulInteger,
# QLinearMatMul; QuantizeLinear / DequantizeLinear) and QDQ ONNX out.
set(QONNX ${CMAKE_CURRENT_LIST_DIR})
set(QONNX_WORK ${CMAKE_CURRENT_BINARY_DIR}/qonnx-work)
set(QONNX_ORT ${KILN_DEPS}/node_modules/onnxruntime-node)

# The ONNX node tests of the quantized ops: every one passes.
set(QONNX_NODE ${KILN_ONNX_TESTDATA}/node)
add_test(NAME qonnx_conformance
  COMMAND $<TARGET_FILE:kiln> conformance
    ${QONNX_NODE}/test_quantizelinear ${QONNX_NODE}/test_quantizelinear_axis
    ${QONNX_NODE}/test_dequantizelinear ${QONNX_NODE}/test_dequantizelinear_axis
    ${QONNX_NODE}/test_qlinearconv ${QONNX_NODE}/test_basic_convinteger
    ${QONNX_NODE}/test_convinteger_with_padding ${QONNX_NODE}/test_convinteger_without_padding
    ${QONNX_NODE}/test_matmulinteger ${QONNX_NODE}/test_qlinearmatmul_2D
    ${QONNX_NODE}/test_qlinearmatmul_3D
    --min-pass 11)

# The kernels against onnxruntime in the variants the node tests leave out.
add_test(NAME qonnx_ops_vs_onnxruntime
  COMMAND ${SYSTEM_PYTHON3} ${QONNX}/ops_vs_ort.py $<TARGET_FILE:kiln> ${QONNX_ORT}
    ${QONNX_WORK}/ops)

# QDQ export: onnxruntime on the exported file against kiln's int8
# interpreter, in int8 steps.  A hand-made graph of every op the writer
# treats apart (multipliers chosen off exact ties: exact agreement), and the
# quantized YOLOv3-tiny 64x64.
add_test(NAME qonnx_qdq_int8_mix_vs_onnxruntime
  COMMAND ${QONNX}/qdq_vs_ort.sh $<TARGET_FILE:kiln> ${QONNX}/int8_mix.gir rand:1,3,8,8
    ${QONNX_ORT} ${QONNX_WORK}/mix 100)
add_test(NAME qonnx_qdq_yolov3_tiny_small_vs_onnxruntime
  COMMAND ${QONNX}/qdq_vs_ort.sh $<TARGET_FILE:kiln> ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small.onnx
    ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small-input.npy ${QONNX_ORT} ${QONNX_WORK}/yolo-small 99.9)
# LutI8 tables (the hswish model) written as Cast, Add 128, Gather.
add_test(NAME qonnx_qdq_hswish_vs_onnxruntime
  COMMAND ${QONNX}/qdq_vs_ort.sh $<TARGET_FILE:kiln> ${CMAKE_BINARY_DIR}/models/hswish.onnx
    ${CMAKE_BINARY_DIR}/models/hswish-input.npy ${QONNX_ORT} ${QONNX_WORK}/hswish 99.9)

# Usage errors of kiln export.
add_test(NAME qonnx_export_no_output_bad COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh 2
  "kiln: export: no output file given (-o OUT.onnx)" -- $<TARGET_FILE:kiln> export ${QONNX}/int8_mix.gir)

# fold_qdq: QDQ models made by gen_qdq_cases.py (a fixture); the one that fits
# folds into the int8 form, the others fail with one exact line.
set(QDQ_CASES ${QONNX_WORK}/qdq)
add_test(NAME qonnx_gen_qdq_cases COMMAND ${SYSTEM_PYTHON3} ${QONNX}/gen_qdq_cases.py ${QDQ_CASES})
set_tests_properties(qonnx_gen_qdq_cases PROPERTIES FIXTURES_SETUP qdq_cases)
add_test(NAME qonnx_fold_qdq_conv
  COMMAND $<TARGET_FILE:kiln> opt ${QDQ_CASES}/qdq_conv.onnx --passes=fold_qdq --elide-data)
set_tests_properties(qonnx_fold_qdq_conv PROPERTIES FIXTURES_REQUIRED qdq_cases
  PASS_REGULAR_EXPRESSION "%rq = Conv\\(%xq, %w, %b_1\\) {pads=\\[1,1,1,1\\], rq_m_pos=\\[[0-9,]+\\], rq_m_neg=\\[0,0,0,0\\], rq_shift=\\[[0-9,]+\\]} : i8\\[1,4,8,8\\] scale\\(0.05\\).*%pq = MaxPool\\(%rq\\)")
add_test(NAME qonnx_fold_qdq_asym_bad COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh 2
  "kiln: ${QDQ_CASES}/qdq_asym_bad.onnx: node 'x_q': QuantizeLinear: zero point 5 is not 0: kiln's int8 activations and weights are symmetric (pass fold_qdq)"
  -- $<TARGET_FILE:kiln> opt ${QDQ_CASES}/qdq_asym_bad.onnx --passes=fold_qdq)
add_test(NAME qonnx_fold_qdq_scale_bad COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh 2
  "kiln: ${QDQ_CASES}/qdq_scale_bad.onnx: node 'conv': Conv: requantize scale 79737.3 (channel 0) is not representable by a 16-bit multiplier and a shift of 0 to 47 (pass fold_qdq)"
  -- $<TARGET_FILE:kiln> opt ${QDQ_CASES}/qdq_scale_bad.onnx --passes=fold_qdq)
set_tests_properties(qonnx_fold_qdq_asym_bad qonnx_fold_qdq_scale_bad PROPERTIES FIXTURES_REQUIRED qdq_cases)

# Per-channel head scales through kiln export and back through fold_qdq.
add_test(NAME qonnx_fold_qdq_channel_heads
  COMMAND ${QONNX}/fold_heads.sh $<TARGET_FILE:kiln> ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small.onnx
    ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small-input.npy ${QONNX_WORK}/heads)
