# RTL generation (kiln compile -> DIR/rtl/): the top of yolov3-tiny-small is
# lint-clean under verilator -Wall, has the engines the plan lists, and is
# byte-identical across compiles; a plan it does not handle yet gets a note
# and no rtl/ folder.
set(PLD ${CMAKE_CURRENT_LIST_DIR})
set(PLT ${CMAKE_BINARY_DIR}/tests/pipeline)
find_program(KILN_VERILATOR_BIN verilator)
set(Y3S ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx)
set(PL_RUN ${PLD}/run.sh ${KILN})
set(PL_COUNT ${PLD}/count.sh)

if(KILN_VERILATOR_BIN)
  # Engines of yolov3-tiny-small on zcu104 (see its dataflow.dot): 13 conv,
  # 6 maxpool, 1 upsample, 1 concat; two fan-outs (conv8, conv13), one skip
  # FIFO (conv8 -> route20), one input, two outputs.
  add_test(NAME pipeline_lint COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/lint
    "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/a"
    "cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_conv #' 13"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_maxpool #' 6"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_upsample #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_concat #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_fork #' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_fifo #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '[.]DEPTH\\(512\\)' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axis_out[0-9]+_tvalid' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'input  wire +s_axis_in[0-9]+_tvalid' 1"
    "grep -q \"PLAN_HASH(64'h\$(sed -n 's/.*KILN_PLAN_HASH *0x\\([0-9a-f]*\\)ull/\\1/p' \$TMP/a/rtl/regmap.h))\" \$TMP/a/rtl/kiln_top.v"
    "${SYSTEM_PYTHON3} -c 'import json,sys; json.load(open(sys.argv[1]))' \$TMP/a/rtl/regmap.json")
endif()
add_test(NAME pipeline_determinism COMMAND ${PL_RUN} none ${PLT}/determinism
  "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/a"
  "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/b"
  "test -s \$TMP/a/rtl/kiln_top.v"
  "diff -r \$TMP/a/rtl \$TMP/b/rtl")
# Weight tiles (conv2 of the full-size model streams its input twice) are not
# generated yet: the compile succeeds, says so, and writes no rtl/.
add_test(NAME pipeline_tiles_refused COMMAND ${PL_RUN} none ${PLT}/tiles
  "\$KILN compile ${KILN_MODELS_DIR}/yolov3-tiny.onnx --board zcu104 -o \$TMP/a 2> \$TMP/err"
  "grep -qF \"rtl: conv2: weight tiles (2 passes over the input map) are not generated yet\" \$TMP/err"
  "test -s \$TMP/a/plan.json && test ! -e \$TMP/a/rtl")
