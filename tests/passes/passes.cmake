# Graph passes: golden IR per pass (cases/*.gir, command line on the first
# line, expectation in .expect), _bad cases with their exact diagnostic, and
# the interpreter before == after on random inputs for the bundled models and
# the Darknet cfgs.
add_executable(semantics_test ${CMAKE_CURRENT_LIST_DIR}/semantics_test.c)
target_link_libraries(semantics_test PRIVATE kiln_frontend kiln_graphir)
kiln_warnings(semantics_test)

# The check after every pass, in this build type too: deliberately broken
# passes must fail with the verifier's message naming them.
add_executable(verify_each_test ${CMAKE_CURRENT_LIST_DIR}/verify_each_test.c)
target_link_libraries(verify_each_test PRIVATE kiln_graphir)
kiln_warnings(verify_each_test)
foreach(name break_ids break_types after_list no_verify)
  add_test(NAME passes_verify_each_${name} COMMAND verify_each_test ${name})
endforeach()

file(GLOB KILN_PASS_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/*.gir)
foreach(case ${KILN_PASS_CASES})
  get_filename_component(stem ${case} NAME_WE)
  add_test(NAME passes_${stem}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/run_case.sh $<TARGET_FILE:kiln> $<TARGET_FILE:semantics_test> ${case}
    WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/cases)
endforeach()

# The default pipeline on YOLOv3-tiny 416: 13 fused Conv, 6 MaxPool,
# 1 Resize, 1 Concat; outputs within 1e-4 relative L2 of the unoptimised.
add_test(NAME passes_yolov3_tiny_o1
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/yolo_opt.sh $<TARGET_FILE:kiln>
          ${CMAKE_BINARY_DIR}/models/yolov3-tiny.onnx ${CMAKE_BINARY_DIR}/models/yolov3-tiny-input.npy
          ${CMAKE_CURRENT_BINARY_DIR}/yolo-work)

# Every pass alone, O1 and hw keep the meaning of the bundled model and of
# real Darknet cfgs (shrunk to a small input so the interpreter stays quick).
add_test(NAME passes_semantics_yolov3_tiny_small
  COMMAND semantics_test ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small.onnx)
# name:size:pipelines (default: every pass alone, O1 and hw)
foreach(cfg yolov3-tiny:64 yolov2-tiny:64 resnet18:64:O1|hw darknet19:32:O1|hw tiny:64:O1|hw
            yolov3:32:O1|hw yolov3-spp:32:O1|hw densenet201:32:O1|hw resnext50:32:O1|hw)
  string(REPLACE ":" ";" _p "${cfg}")
  list(GET _p 0 _n)
  list(GET _p 1 _s)
  list(LENGTH _p _len)
  set(_pipes "")
  if(_len GREATER 2)
    list(GET _p 2 _pl)
    set(_pipes --pipelines ${_pl})
  endif()
  add_test(NAME passes_semantics_${_n}
    COMMAND semantics_test ${KILN_DARKNET_CFG}/${_n}.cfg --size ${_s} ${_pipes})
endforeach()
