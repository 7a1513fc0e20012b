# Frontend tests: tensor files, the ONNX reader (real backend-test models and
# models built in memory at old opsets), hostile inputs, exact diagnostics.
set(FE_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
set(FE_TMP ${CMAKE_CURRENT_BINARY_DIR}/frontend_tmp)
file(MAKE_DIRECTORY ${FE_TMP})

add_library(fe_onnx_builder STATIC ${FE_TEST_DIR}/onnx_builder.c)
target_link_libraries(fe_onnx_builder PUBLIC kiln_onnx_proto)
kiln_warnings(fe_onnx_builder)

foreach(t tensor_io onnx legacy hostile bad)
  add_executable(test_fe_${t} ${FE_TEST_DIR}/test_${t}.c)
  target_link_libraries(test_fe_${t} PRIVATE kiln_frontend kiln_graphir fe_onnx_builder)
  kiln_warnings(test_fe_${t})
endforeach()

add_test(NAME frontend_tensor_io COMMAND test_fe_tensor_io ${FE_TMP} ${KILN_ONNX_TESTDATA})
foreach(c load rewrites storage external node_smoke)
  add_test(NAME frontend_onnx_${c} COMMAND test_fe_onnx ${c} ${FE_TMP} ${KILN_ONNX_TESTDATA})
endforeach()
# Opsets 1 to 6: the legacy forms rewritten into the canonical IR.
foreach(c broadcast attrs upsample mask)
  add_test(NAME frontend_onnx_legacy_${c} COMMAND test_fe_legacy ${c})
endforeach()
add_test(NAME frontend_hostile COMMAND test_fe_hostile ${FE_TMP} ${KILN_ONNX_TESTDATA})

# Negative tests: each checks one diagnostic, word for word.
set(FE_BAD_CASES
  onnx_garbage onnx_truncated onnx_opset onnx_unsupported_op onnx_domain
  onnx_undefined_input onnx_duplicate_output onnx_count_mismatch onnx_raw_size
  onnx_dtype onnx_external_escape onnx_external_absolute onnx_external_memory
  onnx_external_bounds onnx_bn_training onnx_input_count
  onnx_legacy_broadcast_rank onnx_legacy_broadcast_axis onnx_legacy_bn_is_test
  onnx_legacy_bn_spatial onnx_legacy_dropout_training onnx_legacy_upsample_scales
  npy_magic npy_version npy_header_length npy_shape_overflow npy_truncated
  npy_extra npy_fortran npy_bigendian npy_descr npy_key pb_garbage pb_count)
foreach(c ${FE_BAD_CASES})
  add_test(NAME frontend_${c}_bad COMMAND test_fe_bad ${c} ${FE_TMP})
endforeach()
