# The planner (kiln compile): plans that fit each board, replay, pins, CPU
# partitioning, budget errors.  Figures are predictions of the models.
# Shell cases: tests/plan/cases/*.sh (test plan_CASE each).
set(PD ${CMAKE_CURRENT_LIST_DIR})
set(PT ${CMAKE_BINARY_DIR}/tests/plan)
# the _bad tests below write under PT whichever test runs first
file(MAKE_DIRECTORY ${PT})
set(Y3T ${KILN_MODELS_DIR}/yolov3-tiny.onnx)
kiln_case_tests(plan)

# Exact diagnostics (exit status 2, one line).
add_test(NAME plan_pp_max_bad COMMAND ${CLI}/expect.sh 2
  "kiln: compile: --pp-max '9': expected an integer in 1..8"
  -- ${KILN} compile ${Y3T} --board zcu104 --pp-max 9 -o ${PT}/ppmax_bad)
add_test(NAME plan_stages_bad COMMAND ${CLI}/expect.sh 2
  "kiln: ${PD}/stages_bad.json: $.stages: expected an array"
  -- ${KILN} compile ${Y3T} --board zcu104 --plan ${PD}/stages_bad.json -o ${PT}/stages_bad)
add_test(NAME plan_yolov3_ultra96_bad COMMAND ${CLI}/expect.sh 2
  "kiln: plan: yolov3 does not fit ultra96v2: the smallest design (weights from DDR where on-chip memory is short) exceeds DSP 90% (542 > 324)"
  -- ${KILN} compile ${KILN_DARKNET_CFG}/yolov3.cfg --board ultra96v2 --cpu-fallback off
  -o ${PT}/yolov3_u96)
add_test(NAME plan_pin_bad COMMAND ${CLI}/expect.sh 2
  "kiln: --pin conv12=16x3x2: PE_OC a power of two, PE_IC a power of two >= 4, PP 1 to 8"
  -- ${KILN} compile ${Y3T} --board zcu104 --pin conv12=16x3x2 -o ${PT}/pin_bad)
# A board whose DDR cannot hold the weight image and the frame buffers: one
# line naming the sizes.
add_test(NAME plan_ddr_size_bad COMMAND ${CLI}/expect.sh 2
  "kiln: rtl: the design's DDR buffers take 1398272 bytes (weights 1396736, frame buffers 1536), more than the 1048576 bytes of DDR of ddr1mib"
  -- ${KILN} compile ${KILN_MODELS_DIR}/big.onnx --board ${PD}/ddr_1mib.xml -o ${PT}/ddr_bad)

# The memory model against yosys (hls/res_util.h): block RAM and URAM288
# counts and the LUTRAM choice of one-write one-read memories of the shapes
# the model tells apart, each synthesized for UltraScale+.
add_executable(mem_model ${PD}/mem_model.c)
target_link_libraries(mem_model PRIVATE kiln_hls)
kiln_warnings(mem_model)
if(YOSYS)
  add_test(NAME plan_mem_yosys COMMAND ${SYSTEM_PYTHON3} ${PD}/mem_yosys.py
    $<TARGET_FILE:mem_model> ${YOSYS})
else()
  message(STATUS "yosys not found: plan_mem_yosys is not run (scripts/install-deps.sh installs it)")
endif()

# The frames' schedule: kiln_sched_steady's stop at a repeated state
# against the whole run (host-runtime/kiln_sched.h), 20,000 random cases.
add_executable(sched_steady ${PD}/sched_steady.c)
target_include_directories(sched_steady PRIVATE ${PROJECT_SOURCE_DIR})
kiln_warnings(sched_steady)
add_test(NAME plan_sched_steady COMMAND sched_steady 20000)

# The conv-family resource model against the yosys figures recorded in
# docs/synth-cache.json (bench/synth/run_all.py's points), without yosys;
# the banked line buffer's points (LBBANK) must be recorded.
add_test(NAME plan_conv_res COMMAND ${SYSTEM_PYTHON3} ${PD}/conv_res.py
  $<TARGET_FILE:kiln_hls_res> --require LBBANK)
