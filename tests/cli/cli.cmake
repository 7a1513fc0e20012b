# End-to-end tests of the kiln command.
set(CLI ${CMAKE_CURRENT_LIST_DIR})
set(KILN $<TARGET_FILE:kiln>)
set(MODELS ${CMAKE_BINARY_DIR}/models)
set(WORK ${CMAKE_CURRENT_BINARY_DIR}/cli-work)

# ONNX backend test suite: the pass count may not drop below the floor.
# The fewest ONNX backend tests that must pass: raise it as kiln grows.
set(KILN_CONFORMANCE_MIN_PASS 951)
add_test(NAME conformance_onnx_backend
  COMMAND ${KILN} conformance
    ${KILN_ONNX_TESTDATA}/node ${KILN_ONNX_TESTDATA}/pytorch-converted
    ${KILN_ONNX_TESTDATA}/pytorch-operator ${KILN_ONNX_TESTDATA}/simple
    --exclude ${PROJECT_SOURCE_DIR}/tests/conformance/excluded.txt
    --min-pass ${KILN_CONFORMANCE_MIN_PASS})
# The same tests through the CPU back end (llvm/): the same count passes,
# and at least KILN_CONFORMANCE_MIN_COMPILED of their nodes are compiled
# (raise it as ops are lowered).
set(KILN_CONFORMANCE_MIN_COMPILED 1920)
add_test(NAME conformance_onnx_backend_cpu
  COMMAND ${KILN} conformance
    ${KILN_ONNX_TESTDATA}/node ${KILN_ONNX_TESTDATA}/pytorch-converted
    ${KILN_ONNX_TESTDATA}/pytorch-operator ${KILN_ONNX_TESTDATA}/simple
    --exclude ${PROJECT_SOURCE_DIR}/tests/conformance/excluded.txt --target cpu
    --min-pass ${KILN_CONFORMANCE_MIN_PASS} --min-compiled ${KILN_CONFORMANCE_MIN_COMPILED})
add_test(NAME conformance_min_compiled_ref_bad COMMAND ${CLI}/expect.sh 2
  "kiln: conformance: --min-compiled needs --target cpu"
  -- ${KILN} conformance ${KILN_ONNX_TESTDATA}/simple --min-compiled 1)

# The interpreter against onnxruntime on the bundled YOLOv3-tiny.
add_test(NAME yolo_vs_onnxruntime
  COMMAND ${CLI}/yolo_vs_ort.sh ${KILN} ${MODELS}/yolov3-tiny.onnx ${KILN_DEPS}/node_modules/onnxruntime-node ${WORK}/ort)

# kiln info figures: YOLOv3-tiny has 2,782,480,896 MACs (Darknet: 5.56
# BFLOPs) and 8,849,182 parameters (weights plus one bias per output channel:
# batch normalization folds into them).
add_test(NAME info_yolov3_tiny_onnx
  COMMAND ${CLI}/check_info.sh ${KILN} ${MODELS}/yolov3-tiny.onnx 2782480896 8849182 0.001)
add_test(NAME info_yolov3_tiny_cfg
  COMMAND ${CLI}/check_info.sh ${KILN} ${KILN_DARKNET_CFG}/yolov3-tiny.cfg 2782480896 8849182 0.001)

# Text IR round trips on every model.
foreach(m ${MODELS}/yolov3-tiny.onnx ${MODELS}/yolov3-tiny-small.onnx
          ${KILN_DARKNET_CFG}/yolov3-tiny.cfg ${KILN_DARKNET_CFG}/yolov2-tiny.cfg
          ${KILN_DARKNET_CFG}/yolov3.cfg ${KILN_DARKNET_CFG}/resnet18.cfg)
  get_filename_component(n ${m} NAME_WE)
  get_filename_component(e ${m} EXT)
  string(REPLACE "." "" e ${e})
  add_test(NAME ir_roundtrip_${n}_${e} COMMAND ${CLI}/roundtrip.sh ${KILN} ${m} ${WORK}/ir)
endforeach()

# Usage and bad input: exit status 2 and one exact line.
add_test(NAME cli_no_command_bad COMMAND ${CLI}/expect.sh 2
  "usage: kiln COMMAND [ARGS]   (kiln COMMAND --help for its options)

kiln compiles trained CNNs (ONNX, Darknet cfg/weights) into FPGA dataflow accelerators.

commands:
  info         per-layer shapes, parameters and MACs of a model
  run          run a model on input tensors (fp32 reference, int8 interpreter, or compiled for the CPU)
  ir           print a model in the text IR
  opt          run graph passes (--passes=a,b or -O) and print the text IR
  conformance  run ONNX backend test folders: pass/fail/unsupported
  compare      relative L2 error, max difference and cosine of two tensor files
  boards       the board models (resources, clocks, DDR bandwidth)
  quantize     calibrated int8 quantization; accuracy against fp32
  compile      plan the FPGA dataflow for a board: plan.json, report, dataflow picture
  simulate     Verilator run of a compiled folder: bit-exact check, cycles vs plan
  export       write a (quantized) model as QDQ ONNX for onnxruntime
  lower        compile a model into an x86-64 or aarch64 object file and a C header
  bench        latency and throughput of a model per target; --compare side by side with onnxruntime
  tune         search the CPU kernel schedules (XGBoost cost model); measurements kept as records

exit status: 0 success, 1 a check failed, 2 bad input or usage" -- ${KILN})
add_test(NAME cli_unknown_command_bad COMMAND ${CLI}/expect.sh 2
  "kiln: unknown command 'frobnicate' (kiln --help lists them)" -- ${KILN} frobnicate)
add_test(NAME cli_unknown_option_bad COMMAND ${CLI}/expect.sh 2
  "kiln: run: unknown target 'tpu' (available: ref, int8, cpu, gpu, gpu-host)" -- ${KILN} run x.onnx -i a.npy --target tpu)
add_test(NAME cli_run_input_count_bad COMMAND ${CLI}/expect.sh 2
  "kiln: run: ${MODELS}/yolov3-tiny-small.onnx has 1 input, 0 given with -i" -- ${KILN} run ${MODELS}/yolov3-tiny-small.onnx)

# Hostile files through the command: exit status 2 and one exact line.
add_test(NAME cli_hostile_inputs_bad
  COMMAND ${CLI}/hostile.sh ${KILN} ${MODELS}/yolov3-tiny-small.onnx ${MODELS}/yolov3-tiny-small-input.npy ${WORK}/hostile)

# kiln compare --json: the figures and the verdict as one object; a tensor
# against itself passes a zero bound; ramp.npy against ramp_shift.npy (one
# element 0.5 apart) fails it: exit 1 and "passed": false.
add_test(NAME compare_json
  COMMAND ${KILN} compare ${MODELS}/yolov3-tiny-small-input.npy
    ${MODELS}/yolov3-tiny-small-input.npy --max-abs 0 --json)
set_tests_properties(compare_json PROPERTIES
  PASS_REGULAR_EXPRESSION "\"values\":\t12288,\n\t\"rel_l2\":\t0,\n\t\"max_abs\":\t0,\n\t\"cosine\":\t1,\n\t\"max_abs_bound\":\t0,\n\t\"passed\":\ttrue")
add_test(NAME compare_json_bound
  COMMAND ${CLI}/expect.sh 1 "" -- ${KILN} compare ${CLI}/ramp_shift.npy ${CLI}/ramp.npy
    --max-abs 0.4 --json)
add_test(NAME compare_json_bound_verdict
  COMMAND ${KILN} compare ${CLI}/ramp_shift.npy ${CLI}/ramp.npy --max-abs 0.4 --json)
set_tests_properties(compare_json_bound_verdict PROPERTIES
  PASS_REGULAR_EXPRESSION "\"max_abs\":\t0.5,\n.*\"max_abs_bound\":\t0.4,\n\t\"passed\":\tfalse")

# Shell cases (tests/cli/cases/*.sh, test cli_CASE each): static shapes out
# of dynamic models, images as inputs (docs/inputs.md); kiln compile from an
# fp32 model, --plan-only, and its failures.
kiln_case_tests(cli)
