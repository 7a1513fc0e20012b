# The planner (kiln compile): plans that fit each board, replay, pins, CPU
# partitioning, budget errors.  Figures are predictions of the models.
# KV260 has fewer BRAM36 (144) than Ultra96-V2 (216): block RAM binds there
# before DSP, so its fps is checked against ZCU104 only (check_plan.py fits).
set(PD ${CMAKE_CURRENT_LIST_DIR})
set(PT ${CMAKE_BINARY_DIR}/tests/plan)
set(PLAN_RUN ${PD}/run.sh ${KILN} ${PD}/check_plan.py)
set(Y3T ${KILN_MODELS_DIR}/yolov3-tiny.onnx)

# YOLOv3-tiny 416 on the four boards: every plan within its budgets, fps
# rising with the DSP budget.  On Ultra96-V2 most layers' weights stream
# from DDR in tiles and the DMA channels those need (tile re-reads, maps
# through DDR) leave little of the 75% LUT budget: the design is LUT-bound.
add_test(NAME plan_boards_fit COMMAND ${PLAN_RUN} ${PT}/boards
  "for b in ultra96v2 kv260 zcu104 zcu102; do \$KILN compile ${Y3T} --board \$b -o \$TMP/\$b; done"
  "\$CHECK fits \$TMP/ultra96v2 \$TMP/kv260 \$TMP/zcu104 \$TMP/zcu102"
  "\$CHECK weights \$TMP/ultra96v2 6 12"
  "grep -q 'exceeds LUT 75%' \$TMP/ultra96v2/plan.json"
  "test -s \$TMP/zcu104/report.md && test -s \$TMP/zcu104/dataflow.dot")
add_test(NAME plan_replay COMMAND ${PLAN_RUN} ${PT}/replay
  "\$KILN compile ${Y3T} --board zcu104 -o \$TMP/a"
  "\$KILN compile ${Y3T} --board zcu104 --plan \$TMP/a/plan.json -o \$TMP/b"
  "\$CHECK same \$TMP/a \$TMP/b")
# After the search, grow steps that keep the interval shorten the latency
# (hls/plan.c shorten_latency): undoing the one of the largest saving keeps
# the interval and lengthens the latency in the replayed plan.
add_test(NAME plan_latency_steps COMMAND ${PLAN_RUN} ${PT}/latency
  "\$KILN compile ${Y3T} --board zcu104 -o \$TMP/a"
  "\$CHECK undo_latency \$TMP/a \$TMP/undo.json"
  "\$KILN compile ${Y3T} --board zcu104 --plan \$TMP/undo.json -o \$TMP/b"
  "\$CHECK longer \$TMP/a \$TMP/b")
# After the search a layer whose weights stream from DDR may trade places
# with one on chip whose frame barrier costs less latency (hls/plan.c
# reclaim_weights): on ZCU104 the reasons name such a swap, and the plan with
# it undone, replayed on a copy of the board with room for it, keeps the
# interval and has a longer latency.
add_test(NAME plan_weight_swap COMMAND ${PLAN_RUN} ${PT}/swap
  "\$KILN compile ${Y3T} --board zcu104 -o \$TMP/a"
  "\$CHECK swap \$TMP/a \$TMP/undo.json"
  "sed 's/bram36=\"312\"/bram36=\"4000\"/; s/uram=\"96\"/uram=\"4000\"/; s/name=\"zcu104\"/name=\"zcu104-roomy\"/' ${CMAKE_SOURCE_DIR}/boards/zynq-ultrascale/zcu104.xml > \$TMP/roomy.xml"
  "\$KILN compile ${Y3T} --board \$TMP/roomy.xml --plan \$TMP/undo.json -o \$TMP/b"
  "\$CHECK longer \$TMP/a \$TMP/b")
# A latency step that breaks a budget may come with another stage a step
# down that makes room at the same interval (hls/plan.c shorten_latency): on
# ZCU102 the reasons name such a trade; with the step down undone the plan
# exceeds a budget, and with both undone it keeps the interval and has a
# longer latency.
add_test(NAME plan_latency_trade COMMAND ${PLAN_RUN} ${PT}/trade
  "\$KILN compile ${Y3T} --board zcu102 -o \$TMP/a"
  "\$CHECK trade \$TMP/a \$TMP/both.json \$TMP/trim.json"
  "if \$KILN compile ${Y3T} --board zcu102 --plan \$TMP/trim.json -o \$TMP/t 2> \$TMP/t.err; then echo 'the plan with the trim undone fits'; exit 1; fi"
  "grep 'does not fit zcu102: it exceeds' \$TMP/t.err"
  "\$KILN compile ${Y3T} --board zcu102 --plan \$TMP/both.json -o \$TMP/b"
  "\$CHECK longer \$TMP/a \$TMP/b")
add_test(NAME plan_pin COMMAND ${PLAN_RUN} ${PT}/pin
  "\$KILN compile ${Y3T} --board zcu104 --pin conv12=16x32x2 -o \$TMP/a"
  "\$CHECK pin \$TMP/a conv12 16 32 2")
# By default (--pp-max 4) the search takes PP 3 (between the powers of
# two), the 13-wide layers' groups run across row ends (span), and the plan
# replays to the same figures; --pp-max 2 keeps every conv at PP 1 or 2;
# --pp-max 8 on ZCU102 takes PP 5..8 somewhere and replays too.
add_test(NAME plan_pp_max COMMAND ${PLAN_RUN} ${PT}/ppmax
  "\$KILN compile ${Y3T} --board zcu104 -o \$TMP/a"
  "grep -Eq '\"pp\":[[:space:]]*3' \$TMP/a/plan.json"
  "grep -Eq '\"span\":[[:space:]]*true' \$TMP/a/plan.json"
  "\$KILN compile ${Y3T} --board zcu104 --plan \$TMP/a/plan.json -o \$TMP/b"
  "\$CHECK same \$TMP/a \$TMP/b"
  "\$KILN compile ${Y3T} --board zcu104 --pp-max 2 -o \$TMP/c"
  "grep -Ec '\"pp\":[[:space:]]*[34]' \$TMP/c/plan.json | grep -qx 0"
  "\$KILN compile ${Y3T} --board zcu102 --pp-max 8 -o \$TMP/d"
  "grep -Eq '\"pp\":[[:space:]]*[5-8]' \$TMP/d/plan.json"
  "\$KILN compile ${Y3T} --board zcu102 --plan \$TMP/d/plan.json -o \$TMP/e"
  "\$CHECK same \$TMP/d \$TMP/e")
add_test(NAME plan_pp_max_bad COMMAND ${CLI}/expect.sh 2
  "kiln: compile: --pp-max '9': expected an integer in 1..8"
  -- ${KILN} compile ${Y3T} --board zcu104 --pp-max 9 -o ${PT}/ppmax_bad)
add_test(NAME plan_yolo_cpu COMMAND ${PLAN_RUN} ${PT}/yolo
  "\$KILN compile ${KILN_DARKNET_CFG}/yolov3-tiny.cfg --board zcu104 -o \$TMP/a"
  "\$CHECK cpu \$TMP/a YoloHead 2"
  "grep -q 'yolo16 (YoloHead): YOLO decode' \$TMP/a/report.md")
add_test(NAME plan_stages_bad COMMAND ${CLI}/expect.sh 2
  "kiln: ${PD}/stages_bad.json: $.stages: expected an array"
  -- ${KILN} compile ${Y3T} --board zcu104 --plan ${PD}/stages_bad.json -o ${PT}/stages_bad)
add_test(NAME plan_pe_oc_bad COMMAND ${PLAN_RUN} ${PT}/pe_oc
  "\$KILN compile ${Y3T} --board zcu104 -o \$TMP/a"
  "\$CHECK mutate \$TMP/a/plan.json \$TMP/bad.json 2 pe_oc 3"
  "${CLI}/expect.sh 2 \"kiln: \$TMP/bad.json: \\$.stages[2].pe_oc: expected a power of two in 1..4096\" -- \$KILN compile ${Y3T} --board zcu104 --plan \$TMP/bad.json -o \$TMP/b"
  "test ! -e \$TMP/b")
add_test(NAME plan_yolov3_ultra96_bad COMMAND ${CLI}/expect.sh 2
  "kiln: plan: yolov3 does not fit ultra96v2: the smallest design (weights from DDR where on-chip memory is short) exceeds DSP 90% (542 > 324)"
  -- ${KILN} compile ${KILN_DARKNET_CFG}/yolov3.cfg --board ultra96v2 -o ${PT}/yolov3_u96)
add_test(NAME plan_pin_bad COMMAND ${CLI}/expect.sh 2
  "kiln: --pin conv12=16x3x2: PE_OC a power of two, PE_IC a power of two >= 4, PP 1 to 8"
  -- ${KILN} compile ${Y3T} --board zcu104 --pin conv12=16x3x2 -o ${PT}/pin_bad)

# Whole-network tests on the small generated models (tests/models/gen_small.py).
# resdw: residual Add + depthwise convs in one segment; cpumid: a dilated conv
# on the CPU between two FPGA segments; both quantized with random calibration,
# and the int8 interpreter checked against fp32 on the bundled image-like input.
foreach(_m resdw cpumid)
  set(_onnx ${KILN_MODELS_DIR}/${_m}.onnx)
  set(_in ${KILN_MODELS_DIR}/${_m}-input.npy)
  add_test(NAME plan_${_m}_int8 COMMAND ${PLAN_RUN} ${PT}/${_m}_int8
    "\$KILN quantize ${_onnx} --calib-random 4 -o \$TMP/q.gir --report -i ${_in} --min-cosine 0.99"
    "\$KILN run \$TMP/q.gir --target int8 -i ${_in} -o \$TMP/int8.npy"
    "\$KILN run ${_onnx} --target ref -i ${_in} -o \$TMP/fp32.npy"
    "\$CHECK cosine \$TMP/int8.npy \$TMP/fp32.npy 0.99")
endforeach()
add_test(NAME plan_resdw COMMAND ${PLAN_RUN} ${PT}/resdw
  "\$KILN quantize ${KILN_MODELS_DIR}/resdw.onnx --calib-random 4 -o \$TMP/q.gir"
  "for b in zcu104 ultra96v2; do \$KILN compile \$TMP/q.gir --board \$b -o \$TMP/\$b; done"
  "\$CHECK fits \$TMP/ultra96v2 \$TMP/zcu104"
  "for b in zcu104 ultra96v2; do \$CHECK engines \$TMP/\$b 1 kiln_dwconv=2 kiln_add=1 kiln_conv=4 kiln_maxpool=1; done")
add_test(NAME plan_cpumid COMMAND ${PLAN_RUN} ${PT}/cpumid
  "\$KILN quantize ${KILN_MODELS_DIR}/cpumid.onnx --calib-random 4 -o \$TMP/q.gir"
  "for b in zcu104 ultra96v2; do \$KILN compile \$TMP/q.gir --board \$b -o \$TMP/\$b; done"
  "\$CHECK fits \$TMP/ultra96v2 \$TMP/zcu104"
  "for b in zcu104 ultra96v2; do \$CHECK engines \$TMP/\$b 2 kiln_conv=4 kiln_maxpool=2; done"
  "for b in zcu104 ultra96v2; do \$CHECK cpu \$TMP/\$b Conv 1; done"
  "for b in zcu104 ultra96v2; do grep -q '^- conv3 (Conv): dilated conv has no engine' \$TMP/\$b/report.md; done")
# Weights larger than a board's on-chip memory (big: 1.33 MB int8; Ultra96-V2
# has 972 KB of BRAM and no URAM) stream from DDR there; ZCU104 could hold them
# all, so streaming there is a choice (block RAM for wider arrays), not checked.
# A model that does not fit even so is plan_yolov3_ultra96_bad.
add_test(NAME plan_big_weights_ddr COMMAND ${PLAN_RUN} ${PT}/big
  "for b in zcu104 ultra96v2; do \$KILN compile ${KILN_MODELS_DIR}/big.onnx --board \$b -o \$TMP/\$b; done"
  "\$CHECK fits \$TMP/ultra96v2 \$TMP/zcu104"
  "\$CHECK weights \$TMP/ultra96v2 1 5"
  "\$CHECK weights \$TMP/zcu104 0 5")
# The design around the engines (DMA channels, register file, PERF counters;
# hls/infra.c) is in the plan's totals, checked against the generated top.
add_test(NAME plan_infra COMMAND ${PLAN_RUN} ${PT}/infra
  "\$KILN quantize ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx --calib-random 4 -o \$TMP/q.gir"
  "for b in ultra96v2 zcu104; do \$KILN compile \$TMP/q.gir --board \$b -o \$TMP/\$b; done"
  "for b in ultra96v2 zcu104; do \$CHECK infra \$TMP/\$b; done"
  "grep -q '^| - | infrastructure (DMA, control) |' \$TMP/ultra96v2/report.md")

# The memory model against yosys (hls/res_util.h): block RAM and URAM288
# counts and the LUTRAM choice of one-write one-read memories of the shapes
# the model tells apart, each synthesized for UltraScale+.
add_executable(mem_model ${PD}/mem_model.c)
target_link_libraries(mem_model PRIVATE kiln_hls)
kiln_warnings(mem_model)
find_program(YOSYS yosys)
if(YOSYS)
  add_test(NAME plan_mem_yosys COMMAND ${SYSTEM_PYTHON3} ${PD}/mem_yosys.py
    $<TARGET_FILE:mem_model> ${YOSYS})
else()
  message(STATUS "yosys not found: plan_mem_yosys is not run (scripts/install-deps.sh installs it)")
endif()
# A board whose DDR cannot hold the weight image and the frame buffers: one
# line naming the sizes.
add_test(NAME plan_ddr_size_bad COMMAND ${CLI}/expect.sh 2
  "kiln: rtl: the design's DDR buffers take 1410560 bytes (weights 1409024, frame buffers 1536), more than the 1048576 bytes of DDR of ddr1mib"
  -- ${KILN} compile ${KILN_MODELS_DIR}/big.onnx --board ${PD}/ddr_1mib.xml -o ${PT}/ddr_bad)
