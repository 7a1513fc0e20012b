# face-api's tiny face detector with its real weights (docs/face.md): shell
# cases (tests/face/cases/*.sh, test face_CASE each).  The first case writes
# the model (tests/models/gen_face.py) and face-api's own results in node
# (faceapi_ref.js) on its demo photos; the others read them (fixture
# face_ref).  Every case exits 77 (ctest: skipped) when the npm packages of
# scripts/install-deps.sh are not under KILN_DEPS.
kiln_case_tests(face)
file(GLOB _face_cases CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/face/cases/*.sh)
foreach(_case ${_face_cases})
  get_filename_component(_stem ${_case} NAME_WE)
  if(TEST face_${_stem})
    set_property(TEST face_${_stem} APPEND PROPERTY ENVIRONMENT
      KILN_DEPS=${KILN_DEPS} NODE=${NODEJS})
    set_property(TEST face_${_stem} PROPERTY SKIP_RETURN_CODE 77)
  endif()
endforeach()
