# RTL generation (kiln compile -> DIR/rtl/).  Shell cases (tests/pipeline/
# cases/*.sh, test pipeline_CASE each): the top of yolov3-tiny-small is
# lint-clean under verilator -Wall, has the engines the plan lists and one DMA
# channel per segment input, conv weight set and segment output, is
# byte-identical across compiles, and its regmap.json names every channel
# (check_regmap.py); an int8 compile writes weights.bin, rebuilt there from
# the graph; a plan with two FPGA segments gets one top; a plan it does not
# handle gets a note and no rtl/ folder.  Below: the templates the top
# instantiates, lint-clean for every parameter set, and the DMA channel
# templates copying frames DDR -> stream -> DDR under random delays
# (iverilog).
set(PLD ${CMAKE_CURRENT_LIST_DIR})
set(PLT ${CMAKE_BINARY_DIR}/tests/pipeline)
file(MAKE_DIRECTORY ${PLT})
set(RTLT ${PROJECT_SOURCE_DIR}/rtl-templates)
kiln_case_tests(pipeline)

if(KILN_VERILATOR_BIN)
  # kiln_rq_stage (a standalone Requantize) at PIPE 0, 2 and 4.
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
