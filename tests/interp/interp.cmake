# Interpreter and shape-rule tests: small graphs built through the API and
# checked against hand-worked values; one ctest test per case.
add_executable(test_interp ${CMAKE_CURRENT_LIST_DIR}/test_interp.c)
target_link_libraries(test_interp PRIVATE kiln_graphir)
kiln_warnings(test_interp)

foreach(c conv_pad_stride conv_groups conv_dilation conv_1d_same conv_channels_bad
          conv_stride_bad maxpool_pads maxpool_colmajor avgpool_ceil resize_nearest resize_linear
          broadcast_add broadcast_bad bn_leaky concat_split slice_negative pad_reflect
          reshape_infer input_bad declared_conflict_bad gemm_matmul softmax yolo shapes_misc
          shape_subgraph reduce_arg convtranspose where_compare cast_f16 topk nms new_ops_bad)
  add_test(NAME interp_${c} COMMAND test_interp ${c})
endforeach()

# The files of graphir/ call each other without cycles (docs/ir.md gives the
# order): read from the library's object files.
add_test(NAME interp_graphir_file_deps
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/file_deps.py $<TARGET_OBJECTS:kiln_graphir>
  COMMAND_EXPAND_LISTS)
