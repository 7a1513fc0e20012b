# Text IR and verifier tests.
#
# text_NAME: tests/text/cases/NAME.gir names its check on its first line
# (# RUN: roundtrip | elided | error) and NAME.expect holds the expected print
# or the exact diagnostic; *_bad cases are the error ones.
# verify_NAME: a graph built through the API and broken one way, checked for
# the exact gir_verify message (cases are in verify_test.c).
add_executable(text_test ${CMAKE_CURRENT_LIST_DIR}/text_test.c)
target_link_libraries(text_test PRIVATE kiln_graphir)
kiln_warnings(text_test)

file(GLOB KILN_TEXT_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/*.gir)
foreach(case ${KILN_TEXT_CASES})
  get_filename_component(stem ${case} NAME_WE)
  add_test(NAME text_${stem} COMMAND text_test ${case})
endforeach()

add_executable(verify_test ${CMAKE_CURRENT_LIST_DIR}/verify_test.c)
target_link_libraries(verify_test PRIVATE kiln_graphir)
kiln_warnings(verify_test)

foreach(name ok undefined out_of_order cycle missing_input too_many_inputs
    required_absent id_range duplicate_value duplicate_node produced_twice
    output_is_input output_is_const producer_mismatch const_no_data
    const_not_static bad_dim layout_rank output_undefined input_twice dup_attr
    no_outputs loc_node_differs chscale_type)
  add_test(NAME verify_${name} COMMAND verify_test ${name})
endforeach()
