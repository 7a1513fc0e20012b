# The CPU back end (llvm/): --target cpu against the interpreters, and the
# bench command's output.  Performance figures are in bench/llvm_yolo.sh,
# never in a test.
set(LLVMT ${CMAKE_CURRENT_LIST_DIR})
set(LLVM_WORK ${CMAKE_CURRENT_BINARY_DIR}/llvm-work)
set(LLVM_MODELS ${CMAKE_BINARY_DIR}/models)

# fp32 with --exact (no fused multiply-add): every output the interpreter's,
# bit for bit (relative L2 0).
foreach(m yolov3-tiny-small big cpumid resdw)
  add_test(NAME llvm_fp32_exact_${m}
    COMMAND ${LLVMT}/check_fp32.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/${m}.onnx
      ${LLVM_MODELS}/${m}-input.npy ${LLVM_WORK}/exact-${m} --exact)
endforeach()
# fp32 as --target cpu compiles it by default (the Conv's multiply-adds fused
# where the CPU has FMA): every output within 1e-5 relative L2 of the
# interpreter; YOLOv3-tiny-small within 2e-5, since it lands at 1.04e-5,
# over the 1e-5 (docs/llvm.md, "Numerics").
foreach(m big cpumid resdw)
  add_test(NAME llvm_fp32_${m}
    COMMAND ${LLVMT}/check_fp32.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/${m}.onnx
      ${LLVM_MODELS}/${m}-input.npy ${LLVM_WORK}/fp32-${m})
endforeach()
add_test(NAME llvm_fp32_yolov3-tiny-small
  COMMAND ${LLVMT}/check_fp32.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/yolov3-tiny-small.onnx
    ${LLVM_MODELS}/yolov3-tiny-small-input.npy ${LLVM_WORK}/fp32-yolov3-tiny-small --bound 2e-5)
# Every lowered op at once (cases/ops.gir from gen_ops.py; more in
# cases/ops2.sh).
add_test(NAME llvm_fp32_ops
  COMMAND ${LLVMT}/check_fp32.sh $<TARGET_FILE:kiln> ${LLVMT}/cases/ops.gir
    ${LLVMT}/cases/ops-input.npy ${LLVM_WORK}/fp32-ops)

# int8: bit for bit the int8 interpreter.
add_test(NAME llvm_int8_yolov3-tiny-small
  COMMAND ${LLVMT}/check_int8.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/yolov3-tiny-small.onnx
    ${LLVM_MODELS}/yolov3-tiny-small-input.npy ${LLVM_WORK}/int8-yolov3-tiny-small)

# LutI8 (the hswish model's HardSwish tables) as a byte gather.
add_test(NAME llvm_int8_hswish
  COMMAND ${LLVMT}/check_int8.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/hswish.onnx
    ${LLVM_MODELS}/hswish-input.npy ${LLVM_WORK}/int8-hswish)

add_test(NAME llvm_bench_output
  COMMAND ${LLVMT}/check_bench.sh $<TARGET_FILE:kiln> ${LLVM_MODELS}/yolov3-tiny-small.onnx
    ${SYSTEM_PYTHON3} ${KILN_DEPS}/node_modules/onnxruntime-node ${LLVM_WORK}/bench)

# Bad usage: exit status 2 and one line.
set(EXPECT ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh)
add_test(NAME llvm_run_bad_target_bad COMMAND ${EXPECT} 2
  "kiln: run: unknown target 'tpu' (available: ref, int8, cpu, gpu, gpu-host)"
  -- $<TARGET_FILE:kiln> run ${LLVM_MODELS}/big.onnx -i ${LLVM_MODELS}/big-input.npy --target tpu)
add_test(NAME llvm_bench_no_model_bad COMMAND ${EXPECT} 2
  "kiln: bench: no model given (kiln bench --help)" -- $<TARGET_FILE:kiln> bench)
add_test(NAME llvm_bench_bad_target_bad COMMAND ${EXPECT} 2
  "kiln: bench: unknown target 'fpga' (ref, int8, cpu, cpu-exact, cpu-untuned, fpga-sim, onnxruntime)"
  -- $<TARGET_FILE:kiln> bench ${LLVM_MODELS}/big.onnx --compare cpu,fpga)
add_test(NAME llvm_bench_bad_iters_bad COMMAND ${EXPECT} 2
  "kiln: bench: --iters needs a whole number from 1 to 100000, not '0'"
  -- $<TARGET_FILE:kiln> bench ${LLVM_MODELS}/big.onnx --iters 0)
add_test(NAME llvm_bench_both_bad COMMAND ${EXPECT} 2
  "kiln: bench: give --target or --compare, not both"
  -- $<TARGET_FILE:kiln> bench ${LLVM_MODELS}/big.onnx --target cpu --compare ref,cpu)
add_test(NAME llvm_bench_unknown_option_bad COMMAND ${EXPECT} 2
  "kiln: bench: unknown option '--fast' (kiln bench --help)"
  -- $<TARGET_FILE:kiln> bench ${LLVM_MODELS}/big.onnx --fast)
add_test(NAME llvm_bench_fpga_sim_no_dir_bad
  COMMAND ${EXPECT} 2 "kiln: bench: fpga-sim needs --compiled DIR (kiln compile MODEL -o DIR)"
  -- $<TARGET_FILE:kiln> bench ${LLVM_MODELS}/big.onnx --compare cpu,fpga-sim)

# The ONNX backend tests of NonZero, NonMaxSuppression and Compress (whose
# output extent depends on the data) through --target cpu: all 14 pass
# with every node compiled (none left to the interpreter, no test run whole).
set(LLVM_SELECT_TESTS test_nonzero_example test_compress_0 test_compress_1
  test_compress_default_axis test_compress_negative_axis
  test_nonmaxsuppression_center_point_box_format test_nonmaxsuppression_flipped_coordinates
  test_nonmaxsuppression_identical_boxes test_nonmaxsuppression_limit_output_size
  test_nonmaxsuppression_single_box test_nonmaxsuppression_suppress_by_IOU
  test_nonmaxsuppression_suppress_by_IOU_and_scores test_nonmaxsuppression_two_batches
  test_nonmaxsuppression_two_classes)
list(TRANSFORM LLVM_SELECT_TESTS PREPEND ${KILN_ONNX_TESTDATA}/node/)
add_test(NAME llvm_select_backend
  COMMAND $<TARGET_FILE:kiln> conformance ${LLVM_SELECT_TESTS} --target cpu
    --min-pass 14 --min-compiled 14)
# The ONNX backend tests of ConstantOfShape, Range and OneHot, whose shape,
# bounds and depth are inputs (so the program finds the output shape when
# it runs): all 9 pass with every node compiled.
set(LLVM_SEQ_DYN_TESTS test_constantofshape_float_ones test_constantofshape_int_shape_zero
  test_constantofshape_int_zeros test_range_float_type_positive_delta
  test_range_int32_type_negative_delta test_onehot_negative_indices test_onehot_with_axis
  test_onehot_with_negative_axis test_onehot_without_axis)
list(TRANSFORM LLVM_SEQ_DYN_TESTS PREPEND ${KILN_ONNX_TESTDATA}/node/)
add_test(NAME llvm_seq_dyn_backend
  COMMAND $<TARGET_FILE:kiln> conformance ${LLVM_SEQ_DYN_TESTS} --target cpu
    --min-pass 9 --min-compiled 9)
# ONNX backend tests whose shapes wait on graph-input values (Reshape's
# and Expand's shape, Tile's repeats, TopK's K, Slice's starts and steps,
# Squeeze's and Unsqueeze's axes, Split's sizes, Resize's sizes,
# ReduceSum's axes, MaxUnpool's output shape): compiled by run-time shape
# specialization, so all 13 pass with every node compiled (run whole in
# the interpreter without it: 0 compiled).
set(LLVM_SPEC_TESTS test_reshape_negative_dim test_reshape_zero_and_negative_dim
  test_expand_dim_changed test_tile test_top_k test_top_k_smallest test_slice_neg_steps
  test_squeeze_negative_axes test_unsqueeze_unsorted_axes test_split_variable_parts_2d
  test_resize_upsample_sizes_nearest test_reduce_sum_keepdims_example
  test_maxunpool_export_with_output_shape)
list(TRANSFORM LLVM_SPEC_TESTS PREPEND ${KILN_ONNX_TESTDATA}/node/)
add_test(NAME llvm_spec_backend
  COMMAND $<TARGET_FILE:kiln> conformance ${LLVM_SPEC_TESTS} --target cpu
    --min-pass 13 --min-compiled 13)
# Forms lowered for the specialized backend tests: Pad whose
# constant_value is an input (read by the kernel when it runs), Pad of i32
# in edge and reflect modes, the Reduce* no-op on empty axes (a copy),
# ReduceSum of negative axes, Resize in tf_crop_and_resize mode (its roi
# bound with the sizes): all 7 pass with every node compiled.
set(LLVM_SPEC_FORM_TESTS test_constant_pad test_edge_pad test_reflect_pad
  test_reduce_sum_empty_axes_input_noop_example test_reduce_sum_empty_axes_input_noop_random
  test_reduce_sum_negative_axes_keepdims_random test_resize_tf_crop_and_resize)
list(TRANSFORM LLVM_SPEC_FORM_TESTS PREPEND ${KILN_ONNX_TESTDATA}/node/)
add_test(NAME llvm_spec_forms_backend
  COMMAND $<TARGET_FILE:kiln> conformance ${LLVM_SPEC_FORM_TESTS} --target cpu
    --min-pass 7 --min-compiled 7)
# NonMaxSuppression of boxes that are not [batch, boxes, 4]: the
# interpreter's error, exit 2.
add_test(NAME llvm_select_nms_rank_bad COMMAND ${EXPECT} 2
  "kiln: ${LLVMT}/cases/nms-rank-bad.gir: node 'k': NonMaxSuppression: boxes must be [batch, boxes, 4] and scores [batch, classes, boxes]"
  -- $<TARGET_FILE:kiln> run ${LLVMT}/cases/nms-rank-bad.gir -i ${LLVMT}/cases/nms-rank-bad-b.npy
    -i ${LLVMT}/cases/nms-rank-bad-s.npy --target cpu)

# kiln lower: the objects linked and run (x86-64 here, aarch64 under
# qemu-aarch64) and its errors: cases/aot_*.sh; the PTX of the gpu target
# and kiln run --target gpu: cases/gpu_*.sh.
kiln_case_tests(llvm)
