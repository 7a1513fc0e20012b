# libFuzzer targets, one per reader of outside input (clang, KILN_FUZZ=ON).
# scripts/fuzz.sh runs each for a bounded time, seeded with the test models.
if(KILN_FUZZ)
  set(fuzzers)
  foreach(f onnx npy cfg text tosa)
    add_executable(fuzz_${f} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${f}.c)
    target_link_libraries(fuzz_${f} PRIVATE kiln_frontend kiln_graphir)
    target_link_options(fuzz_${f} PRIVATE -fsanitize=fuzzer)
    kiln_warnings(fuzz_${f})
    list(APPEND fuzzers fuzz_${f})
  endforeach()
  # readers of the compiler's own inputs: board files and plan.json, planned
  # against a generated model (the models target builds it)
  foreach(f board plan)
    add_executable(fuzz_${f} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${f}.c)
    target_link_libraries(fuzz_${f} PRIVATE kiln_pipeline kiln_plan kiln_frontend kiln_graphir)
    target_compile_definitions(fuzz_${f} PRIVATE
      KILN_FUZZ_MODEL="${CMAKE_BINARY_DIR}/models/cpumid.onnx")
    target_link_options(fuzz_${f} PRIVATE -fsanitize=fuzzer)
    kiln_warnings(fuzz_${f})
    list(APPEND fuzzers fuzz_${f})
  endforeach()
  # kiln simulate's reader of a compiled folder's rtl/regmap.json
  add_executable(fuzz_regmap ${CMAKE_CURRENT_LIST_DIR}/fuzz_regmap.c)
  target_link_libraries(fuzz_regmap PRIVATE kiln_sim kiln_graphir)
  target_link_options(fuzz_regmap PRIVATE -fsanitize=fuzzer)
  kiln_warnings(fuzz_regmap)
  list(APPEND fuzzers fuzz_regmap)
  # kiln run's and quantize's image reader, compiled from the command's source
  add_executable(fuzz_image ${CMAKE_CURRENT_LIST_DIR}/fuzz_image.c
    ${PROJECT_SOURCE_DIR}/tools/kiln/image.c)
  target_include_directories(fuzz_image PRIVATE ${PROJECT_SOURCE_DIR}/tools/kiln)
  target_include_directories(fuzz_image SYSTEM PRIVATE /usr/include)
  target_link_libraries(fuzz_image PRIVATE kiln_frontend kiln_graphir m)
  target_link_options(fuzz_image PRIVATE -fsanitize=fuzzer)
  kiln_warnings(fuzz_image)
  list(APPEND fuzzers fuzz_image)
  add_custom_target(fuzzers DEPENDS ${fuzzers})
endif()
