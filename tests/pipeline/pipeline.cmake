# RTL generation (kiln compile -> DIR/rtl/): the top of yolov3-tiny-small is
# lint-clean under verilator -Wall, has the engines the plan lists and one DMA
# channel per segment input, conv weight set and segment output, is
# byte-identical across compiles, and its regmap.json names every channel
# (check_regmap.py); an int8 compile writes weights.bin, rebuilt here from the
# graph; a plan with two FPGA segments gets one top; the DMA channel
# templates copy frames DDR -> stream -> DDR under random delays (iverilog);
# a plan it does not handle yet gets a note and no rtl/ folder.
set(PLD ${CMAKE_CURRENT_LIST_DIR})
set(PLT ${CMAKE_BINARY_DIR}/tests/pipeline)
find_program(KILN_VERILATOR_BIN verilator)
find_program(KILN_IVERILOG iverilog)
find_program(KILN_VVP vvp)
set(Y3S ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx)
set(PL_RUN ${PLD}/run.sh ${KILN})
set(PL_COUNT ${PLD}/count.sh)
set(PL_REGMAP ${SYSTEM_PYTHON3} ${PLD}/check_regmap.py)
set(RTLT ${PROJECT_SOURCE_DIR}/rtl-templates)

if(KILN_VERILATOR_BIN)
  # Engines of yolov3-tiny-small on zcu104 (see its dataflow.dot): 13 conv,
  # 6 maxpool, 1 upsample, 1 concat; two fan-outs (conv8, conv13), one skip
  # FIFO (conv8 -> route20, of the depth plan.json gives it); DMA: one input, 13 weight sets, two outputs;
  # no AXI-Stream ports left; every maxpool has top/left pad 0 (the 2x2
  # stride 1 layer pads bottom/right, through cfg_oh/cfg_ow).
  add_test(NAME pipeline_lint COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/lint
    "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/a"
    "cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_conv #' 13"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_maxpool #' 6"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_upsample #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_concat #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_fork #' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_fifo #' 1"
    "d=\$(${SYSTEM_PYTHON3} -c \"import json,sys; print(json.load(open(sys.argv[1]))['fifos'][0]['depth'])\" \$TMP/a/plan.json)"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v \"[.]DEPTH\\(\$d\\)\" 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_rd_chan #' 14"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_wr_chan #' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_out[0-9]+_awvalid' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_in[0-9]+_arvalid' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_w[0-9]+_arvalid' 13"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'axis' 0"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '[.]N_PERF\\(21\\)' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'localparam .7:0. S[0-9]+_CFG_PAD = 8.d0;' 6"
    "grep -q \"PLAN_HASH(64'h\$(sed -n 's/.*KILN_PLAN_HASH *0x\\([0-9a-f]*\\)ull/\\1/p' \$TMP/a/rtl/regmap.h))\" \$TMP/a/rtl/kiln_top.v"
    "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json")
  # Two FPGA segments (cpumid: a dilated conv on the CPU between them), int8:
  # one top, each segment with its own channels; weights.bin rebuilt.
  add_test(NAME pipeline_segments COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/segments
    "\$KILN quantize ${KILN_MODELS_DIR}/cpumid.onnx --calib-random 4 -o \$TMP/q.gir"
    "\$KILN compile \$TMP/q.gir --board zcu104 -o \$TMP/a"
    "cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'assign seg[0-9]+_go' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_in[01]_arvalid' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_out[01]_awvalid' 2"
    "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json \$TMP/q.gir")
  # Depthwise conv and residual Add (resdw, int8): two kiln_dwconv, one
  # kiln_add with the node's rescale (rq_m_a, rq_m_b, rq_shift), their weight
  # sets rebuilt in kiln_dwconv order.
  add_test(NAME pipeline_dwconv_add COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/dwconv_add
    "\$KILN quantize ${KILN_MODELS_DIR}/resdw.onnx --calib-random 4 -o \$TMP/q.gir"
    "\$KILN compile \$TMP/q.gir --board zcu104 -o \$TMP/a"
    "cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_dwconv #' 2"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_add #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'output wire +m_axi_w[0-9]+_arvalid' 6"
    "a=\$(sed -n 's/.*= Add(.*rq_m_a=\\[\\([0-9]*\\)\\].*/\\1/p' \$TMP/q.gir) && test -n \"\$a\" && grep -q \"CFG_MA = 16'd\$a;\" \$TMP/a/rtl/kiln_top.v"
    "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json \$TMP/q.gir")
  # A standalone Requantize (inserted into int8 yolov3-tiny-small after
  # conv0, negative multiplier) runs on kiln_rq_stage with the node's values.
  add_test(NAME pipeline_requant COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/requant
    "\$KILN quantize ${Y3S} --calib-random 4 -o \$TMP/q.gir"
    "sed -e 's/^%maxpool1 = MaxPool(%conv0_leaky)/%conv0_rq = Requantize(%conv0_leaky) {rq_m=[-20000], rq_shift=[14]} : i8[1,2,64,64] scale(0.1) loc(source node \"conv0\")\\n%maxpool1 = MaxPool(%conv0_rq)/' \$TMP/q.gir > \$TMP/rq.gir"
    "grep -q '= Requantize' \$TMP/rq.gir"
    "\$KILN compile \$TMP/rq.gir --board zcu104 -o \$TMP/a"
    "cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v '^    kiln_rq_stage #' 1"
    "${PL_COUNT} \$TMP/a/rtl/kiln_top.v 'CFG_M = 16.d45536;' 1"
    "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json \$TMP/rq.gir")
  foreach(_p 0 2 4)
    add_test(NAME pipeline_rq_stage_lint_p${_p} COMMAND ${KILN_VERILATOR_BIN} --lint-only -Wall
      --top-module kiln_rq_stage -GPIPE=${_p} -GLANES=8 ${RTLT}/kiln_rq_stage.v
      ${RTLT}/kiln_requant.v ${RTLT}/kiln_fifo.v)
  endforeach()
  # The channel templates alone, lint-clean for every lane/bus ratio.
  foreach(_l 2 8 32)
    foreach(_d 16 32 64 128)
      add_test(NAME pipeline_chan_lint_l${_l}_d${_d} COMMAND sh -c
        "${KILN_VERILATOR_BIN} --lint-only -Wall --top-module kiln_rd_chan -GLANES=${_l} -GDATA_W=${_d} ${RTLT}/kiln_rd_chan.v ${RTLT}/kiln_chan_reps.v ${RTLT}/kiln_axi_rd.v ${RTLT}/kiln_width.v ${RTLT}/kiln_fifo.v && ${KILN_VERILATOR_BIN} --lint-only -Wall --top-module kiln_wr_chan -GLANES=${_l} -GDATA_W=${_d} ${RTLT}/kiln_wr_chan.v ${RTLT}/kiln_chan_reps.v ${RTLT}/kiln_axi_wr.v ${RTLT}/kiln_width.v ${RTLT}/kiln_fifo.v")
    endforeach()
  endforeach()
endif()
add_test(NAME pipeline_determinism COMMAND ${PL_RUN} none ${PLT}/determinism
  "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/a"
  "\$KILN compile ${Y3S} --board zcu104 -o \$TMP/b"
  "test -s \$TMP/a/rtl/kiln_top.v"
  "diff -r \$TMP/a/rtl \$TMP/b/rtl")
# int8 yolov3-tiny-small: weights.bin is the sum of the "weights" list and
# equals the kiln_conv weight streams rebuilt from q.gir by check_regmap.py.
add_test(NAME pipeline_weights COMMAND ${PL_RUN} none ${PLT}/weights
  "\$KILN quantize ${Y3S} --calib-random 4 -o \$TMP/q.gir"
  "\$KILN compile \$TMP/q.gir --board zcu104 -o \$TMP/a"
  "\$KILN compile \$TMP/q.gir --board zcu104 -o \$TMP/b"
  "cmp \$TMP/a/rtl/weights.bin \$TMP/b/rtl/weights.bin"
  "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json \$TMP/q.gir")
# Weight tiles and edges through DDR inside a segment: the full-size model on
# zcu104 streams some convs' weights in tiles; its top has readers that
# re-read a tiled conv's input once per tile (cfg_subs > 1), writers that
# place each tile's channels into every pixel (2-D rows), frame-gated
# readers of those buffers (avail from the writer's finished count), is
# lint-clean, and regmap.json lists the scratch buffers.  A replayed plan
# whose tile does not divide a layer's output groups gets an error naming
# the layer and no rtl/.
add_test(NAME pipeline_tiles_416 COMMAND ${PL_RUN} ${KILN_VERILATOR_BIN} ${PLT}/tiles
  "\$KILN compile ${KILN_MODELS_DIR}/yolov3-tiny.onnx --board zcu104 -o \$TMP/a > /dev/null"
  "grep -Eq '\"weights\":[[:space:]]*\"ddr\"' \$TMP/a/plan.json"
  "grep -Eq '[.]cfg_subs[(]32.d([2-9]|[1-9][0-9]+)[)]' \$TMP/a/rtl/kiln_top.v"
  "grep -Eq '[.]cfg_row_beats[(]32.d[1-9][0-9]*[)]' \$TMP/a/rtl/kiln_top.v"
  "grep -Eq '[.]avail[(]ch_out[0-9]+_fin[)]' \$TMP/a/rtl/kiln_top.v"
  "grep -q '\"scratch\": \\[\"out' \$TMP/a/rtl/regmap.json"
  "${PL_REGMAP} \$TMP/a/rtl \$TMP/a/plan.json"
  "test \"\$VERILATOR\" = none || (cd \$TMP/a/rtl && \$VERILATOR --lint-only -Wall --top-module kiln_top *.v)"
  "${SYSTEM_PYTHON3} -c \"import json,sys; p=json.load(open(sys.argv[1])); s=[x for x in p['stages'] if x.get('weights')=='ddr' and x['tog']>3][0]; s['tog']=3; json.dump(p,open(sys.argv[2],'w'))\" \$TMP/a/plan.json \$TMP/bad.json"
  "\$KILN compile ${KILN_MODELS_DIR}/yolov3-tiny.onnx --board zcu104 --plan \$TMP/bad.json -o \$TMP/b 2> \$TMP/err"
  "grep -Eq 'rtl: conv[0-9]+: weight tiles of 3 output groups .* a tile must divide the groups' \$TMP/err"
  "test ! -e \$TMP/b/rtl")
set_tests_properties(pipeline_tiles_416 PROPERTIES TIMEOUT 600)
# DMA channel loopback (tb_chan_iv.v): kiln_rd_chan -> kiln_wr_chan through a
# DDR model with random delays; padding dropped on read, zero-filled on write;
# SLVERR answers give one error pulse per channel; sub-runs (a tiled conv's
# input re-read per tile), the writer's 2-D rows (a tile's channels into each
# pixel) and the frame gate of an edge through DDR.
if(KILN_IVERILOG AND KILN_VVP)
  set(_chv ${RTLT}/kiln_rd_chan.v ${RTLT}/kiln_wr_chan.v ${RTLT}/kiln_chan_reps.v ${RTLT}/kiln_axi_rd.v
    ${RTLT}/kiln_axi_wr.v ${RTLT}/kiln_width.v ${RTLT}/kiln_fifo.v)
  string(REPLACE ";" " " _chv "${_chv}")
  # name: LANES DATA_W BYTES BEATS REPS STRIDE BP SEED ERR [SUBS ROWB GATE [CNT_W RANGE]]
  set(_chan_cases
    "l4_pad:4:64:48:10:3:64:60:1:0"
    "l16_pack_same:16:64:320:20:3:0:50:2:0"
    "l2_4k:2:64:8200:4097:2:8200:70:3:0"
    "l8_free:8:64:64:8:3:64:100:4:0"
    "l32_d128:32:128:512:16:2:1024:40:5:0"
    "l4_d128:4:128:112:27:2:112:30:6:0"
    "l8_slverr:8:64:256:30:2:256:50:7:1"
    "l8_subs_rows:8:64:192:24:2:192:60:8:0:3:1:0"
    "l16_d128_rows_gate:16:128:512:32:3:512:50:9:0:2:2:1"
    "l2_subs_gate:2:64:240:100:3:256:70:10:0:4:0:1"
    "l4_rows_pad_gate:4:64:96:20:2:96:40:11:0:3:3:1"
    "l2_d16_rows:2:16:24:12:2:32:60:12:0:4:1:1"
    "l8_d32_rows:8:32:96:12:3:96:50:13:0:2:3:0"
    "l2_d16_4k:2:16:8200:4097:2:8200:70:14:0"
    "l4_d32_pad:4:32:48:10:3:64:60:15:0"
    "l2_4k_cw13:2:64:8200:4097:2:8200:70:16:0:1:0:0:13:0"
    "l2_4k_cw12_refused:2:64:8200:4097:2:8200:70:17:0:1:0:0:12:1"
    "l16_d16_cw12_refused:16:16:8192:512:1:0:60:18:0:1:0:0:12:1"
    "l8_subs_cw12_refused:8:64:64:8:2:64:60:19:0:4096:0:0:12:1"
    "l4_d128_rows_cw12:4:128:112:27:2:112:30:20:0:2:1:1:12:0")
  foreach(_c ${_chan_cases})
    string(REPLACE ":" ";" _f "${_c}")
    list(GET _f 0 _n)
    list(GET _f 1 _l)
    list(GET _f 2 _d)
    list(GET _f 3 _by)
    list(GET _f 4 _be)
    list(GET _f 5 _r)
    list(GET _f 6 _s)
    list(GET _f 7 _bp)
    list(GET _f 8 _sd)
    list(GET _f 9 _e)
    list(LENGTH _f _nf)
    set(_x "")
    if(_nf GREATER 10)
      list(GET _f 10 _su)
      list(GET _f 11 _rb)
      list(GET _f 12 _g)
      set(_x "-Ptb_chan.SUBS=${_su} -Ptb_chan.ROWB=${_rb} -Ptb_chan.GATE=${_g}")
    endif()
    if(_nf GREATER 13)
      list(GET _f 13 _cw)
      list(GET _f 14 _rg)
      string(APPEND _x " -Ptb_chan.CNT_W=${_cw} -Ptb_chan.RANGE=${_rg}")
    endif()
    add_test(NAME pipeline_chan_iv_${_n} COMMAND sh -c
      "${KILN_IVERILOG} -g2005 -Wall -Wno-timescale ${_x} -Ptb_chan.ERR=${_e} -Ptb_chan.LANES=${_l} -Ptb_chan.DATA_W=${_d} -Ptb_chan.BYTES=${_by} -Ptb_chan.BEATS=${_be} -Ptb_chan.REPS=${_r} -Ptb_chan.STRIDE=${_s} -Ptb_chan.BP=${_bp} -Ptb_chan.SEED=${_sd} -o ${PLT}/chan_${_n}.vvp ${PLD}/tb_chan_iv.v ${_chv} && ${KILN_VVP} -n ${PLT}/chan_${_n}.vvp")
    set_tests_properties(pipeline_chan_iv_${_n} PROPERTIES
      PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 120)
  endforeach()
  # kiln_axi_rd / kiln_axi_wr at CNT_W 12: the longest transfer and row that
  # fit start, longer ones are refused with an error (tb_axi_range_iv.v).
  add_test(NAME pipeline_axi_cnt_range_iv COMMAND sh -c
    "${KILN_IVERILOG} -g2005 -Wall -Wno-timescale -o ${PLT}/axi_range.vvp ${PLD}/tb_axi_range_iv.v ${RTLT}/kiln_axi_rd.v ${RTLT}/kiln_axi_wr.v ${RTLT}/kiln_fifo.v && ${KILN_VVP} -n ${PLT}/axi_range.vvp")
  set_tests_properties(pipeline_axi_cnt_range_iv PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 60)
  # kiln_rq_stage against the requant formula (tb_rq_stage_iv.v).
  # name: PIPE SEED BP SHIFT (-1: random 8..23)
  foreach(_c "p0:0:1:60:-1" "p1_free:1:2:100:-1" "p2:2:3:40:-1" "p4_s0:4:4:70:0" "p3_s47:3:5:20:47")
    string(REPLACE ":" ";" _f "${_c}")
    list(GET _f 0 _n)
    list(GET _f 1 _p)
    list(GET _f 2 _sd)
    list(GET _f 3 _bp)
    list(GET _f 4 _sh)
    add_test(NAME pipeline_rq_stage_iv_${_n} COMMAND sh -c
      "${KILN_IVERILOG} -g2005 -Wall -Wno-timescale -Ptb_rq_stage.PIPE=${_p} -Ptb_rq_stage.SEED=${_sd} -Ptb_rq_stage.BP=${_bp} -Ptb_rq_stage.SHIFT=${_sh} -o ${PLT}/rq_${_n}.vvp ${PLD}/tb_rq_stage_iv.v ${RTLT}/kiln_rq_stage.v ${RTLT}/kiln_requant.v ${RTLT}/kiln_fifo.v && ${KILN_VVP} -n ${PLT}/rq_${_n}.vvp")
    set_tests_properties(pipeline_rq_stage_iv_${_n} PROPERTIES
      PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 120)
  endforeach()
endif()
