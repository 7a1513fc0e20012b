# RTL benchmarks (never ctest tests): print figures.
#   kiln_hls_res         descriptor resources for given Verilog parameters
#   bench_rtl_synth      yosys resources + logic depth -> docs/rtl-resources.md
#   bench_conv_speed     Verilator simulation speed of a 32x32 conv engine
add_executable(kiln_hls_res ${CMAKE_CURRENT_SOURCE_DIR}/synth/hls_res.c)
target_link_libraries(kiln_hls_res PRIVATE kiln_hls)
kiln_warnings(kiln_hls_res)

find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_custom_target(bench_rtl_synth
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/synth/run_all.py
            $<TARGET_FILE:kiln_hls_res> ${PROJECT_SOURCE_DIR}/docs/rtl-resources.md
    DEPENDS kiln_hls_res USES_TERMINAL)
endif()

find_package(verilator HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
if(verilator_FOUND)
  add_library(bench_conv_speed_c OBJECT ${CMAKE_CURRENT_SOURCE_DIR}/synth/conv_speed.c
    ${PROJECT_SOURCE_DIR}/sim/tb/tb_util.c)
  target_include_directories(bench_conv_speed_c PRIVATE ${PROJECT_SOURCE_DIR}/sim/tb)
  kiln_warnings(bench_conv_speed_c)
  add_executable(bench_conv_speed ${PROJECT_SOURCE_DIR}/sim/shim/conv_shim.cpp
    $<TARGET_OBJECTS:bench_conv_speed_c>)
  target_include_directories(bench_conv_speed PRIVATE ${PROJECT_SOURCE_DIR}/sim/tb)
  target_compile_definitions(bench_conv_speed PRIVATE KILN_TB_PE_IC=32 KILN_TB_PE_OC=32)
  verilate(bench_conv_speed
    SOURCES ${PROJECT_SOURCE_DIR}/rtl-templates/kiln_conv.v
            ${PROJECT_SOURCE_DIR}/rtl-templates/kiln_conv_window.v
            ${PROJECT_SOURCE_DIR}/rtl-templates/kiln_mac2.v
            ${PROJECT_SOURCE_DIR}/rtl-templates/kiln_requant.v
            ${PROJECT_SOURCE_DIR}/rtl-templates/kiln_add3.v
    TOP_MODULE kiln_conv PREFIX Vkiln_conv
    VERILATOR_ARGS -O3 --x-assign fast --x-initial fast -Wno-fatal
      -GPE_IC=32 -GPE_OC=32 -GKMAX=3 -GWMAX=32 -GCIMAX=64 -GCOMAX=64 -GPIPE=2)
  kiln_verilated_cxx(bench_conv_speed)
endif()
