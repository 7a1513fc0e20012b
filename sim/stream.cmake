# Verilator benches of the stream-family engines (max pooling, upsample,
# concat, add, lut, fifo, skid, width, AXI masters, register file).  Included at
# the end of sim/CMakeLists.txt; kiln_engine_tb and kiln_rtl_lint come from
# there.
# One Verilator build per engine; shapes are swept at run time.
set(KILN_STREAM_TB tb/tb_stream.c)

kiln_engine_tb(NAME maxpool TOP kiln_maxpool
  VERILOG kiln_maxpool.v kiln_fifo.v
  VFLAGS -GLANES=8 -GK_MAX=3 -GCG_MAX=8 -GROW_MAX=256
  SOURCES tb/tb_maxpool.c ${KILN_STREAM_TB} shim/maxpool_shim.cpp)
kiln_rtl_lint(NAME maxpool TOP kiln_maxpool VERILOG kiln_maxpool.v kiln_fifo.v)
# PIPE 0: no register after the max (shorter latency, longer logic path)
kiln_engine_tb(NAME maxpool_p0 TOP kiln_maxpool
  VERILOG kiln_maxpool.v kiln_fifo.v
  VFLAGS -GLANES=8 -GK_MAX=3 -GCG_MAX=8 -GROW_MAX=256 -GPIPE=0
  DEFINES KILN_TB_PIPE=0
  SOURCES tb/tb_maxpool.c ${KILN_STREAM_TB} shim/maxpool_shim.cpp ARGS --cases 40)
kiln_rtl_lint(NAME maxpool_p0 TOP kiln_maxpool VERILOG kiln_maxpool.v kiln_fifo.v VFLAGS -GPIPE=0)

kiln_engine_tb(NAME upsample TOP kiln_upsample
  VERILOG kiln_upsample.v kiln_fifo.v VFLAGS -GLANES=8 -GROW_MAX=256
  SOURCES tb/tb_upsample.c ${KILN_STREAM_TB} shim/upsample_shim.cpp)
kiln_rtl_lint(NAME upsample TOP kiln_upsample VERILOG kiln_upsample.v kiln_fifo.v)

kiln_engine_tb(NAME concat TOP kiln_concat
  VERILOG kiln_concat.v kiln_fifo.v VFLAGS -GLANES=8
  SOURCES tb/tb_concat.c ${KILN_STREAM_TB} shim/concat_shim.cpp)
kiln_rtl_lint(NAME concat TOP kiln_concat VERILOG kiln_concat.v kiln_fifo.v)

kiln_engine_tb(NAME add TOP kiln_add
  VERILOG kiln_add.v kiln_fifo.v VFLAGS -GLANES=8
  SOURCES tb/tb_add.c ${KILN_STREAM_TB} shim/add_shim.cpp)
kiln_rtl_lint(NAME add TOP kiln_add VERILOG kiln_add.v kiln_fifo.v)

# kiln_lut with the bench's table (tb_lut.c: entry k = (167 k + 91) mod 256),
# written as the TABLE parameter, entry 255 first.
set(_lut_table "")
foreach(k RANGE 255)
  math(EXPR _v "(${k} * 167 + 91) % 256" OUTPUT_FORMAT HEXADECIMAL)
  string(SUBSTRING "${_v}" 2 -1 _h)
  string(LENGTH "${_h}" _n)
  if(_n EQUAL 1)
    set(_h "0${_h}")
  endif()
  set(_lut_table "${_h}${_lut_table}")
endforeach()
kiln_engine_tb(NAME lut TOP kiln_lut
  VERILOG kiln_lut.v kiln_fifo.v VFLAGS -GLANES=8 "-GTABLE=2048'h${_lut_table}"
  SOURCES tb/tb_lut.c ${KILN_STREAM_TB} shim/lut_shim.cpp)
kiln_rtl_lint(NAME lut TOP kiln_lut VERILOG kiln_lut.v kiln_fifo.v)
# A table per channel (tb_lut.c with KILN_TB_CHANS): channel c's entry k =
# (167 k + 91 + 37 c) mod 256, the padding channels' tables zeros, NT tables
# in all; the last table's entry 255 first.
function(kiln_lut_chan_tb NAME LANES CHANS)
  math(EXPR nt "(${CHANS} + ${LANES} - 1) / ${LANES} * ${LANES}")
  math(EXPR last "${nt} - 1")
  math(EXPR bits "${nt} * 2048")
  set(table "")
  foreach(c RANGE ${last})
    foreach(k RANGE 255)
      if(c LESS ${CHANS})
        math(EXPR v "(${k} * 167 + 91 + 37 * ${c}) % 256 + 256" OUTPUT_FORMAT HEXADECIMAL)
      else()
        set(v "0x100")
      endif()
      string(SUBSTRING "${v}" 3 -1 h)
      string(PREPEND table "${h}")
    endforeach()
  endforeach()
  kiln_engine_tb(NAME ${NAME} TOP kiln_lut
    VERILOG kiln_lut.v kiln_fifo.v VFLAGS -GLANES=${LANES} -GCHANS=${CHANS} "-GTABLE=${bits}'h${table}"
    DEFINES KILN_TB_LANES=${LANES} KILN_TB_CHANS=${CHANS}
    SOURCES tb/tb_lut.c ${KILN_STREAM_TB} shim/lut_shim.cpp)
  kiln_rtl_lint(NAME ${NAME} TOP kiln_lut VERILOG kiln_lut.v kiln_fifo.v
    VFLAGS -GLANES=${LANES} -GCHANS=${CHANS})
endfunction()
# 10 channels on 4 lanes: 3 beats a pixel, lanes 2 and 3 of the last
# padding, the ROMs in logic
kiln_lut_chan_tb(lut_chan 4 10)
# 15 channels on 2 lanes: 8 tables a lane, the ROMs in block RAM (BRAM_CG
# default 8, hls/hw.h HLS_HW_LUT_BRAM_CG)
kiln_lut_chan_tb(lut_chan_bram 2 15)

kiln_engine_tb(NAME fifo TOP kiln_fifo
  VERILOG kiln_fifo.v VFLAGS -GWIDTH=64 -GDEPTH=8 -GBRAM_MIN=128
  SOURCES tb/tb_fifo.c ${KILN_STREAM_TB} shim/fifo_shim.cpp)
kiln_engine_tb(NAME fifo_bram TOP kiln_fifo
  VERILOG kiln_fifo.v VFLAGS -GWIDTH=64 -GDEPTH=300 -GBRAM_MIN=128
  SOURCES tb/tb_fifo.c ${KILN_STREAM_TB} shim/fifo_bram_shim.cpp)
kiln_engine_tb(NAME skid TOP kiln_skid
  VERILOG kiln_skid.v VFLAGS -GWIDTH=64
  SOURCES tb/tb_fifo.c ${KILN_STREAM_TB} shim/skid_shim.cpp)
kiln_rtl_lint(NAME fifo TOP kiln_fifo VERILOG kiln_fifo.v VFLAGS -GDEPTH=300)
kiln_rtl_lint(NAME skid TOP kiln_skid VERILOG kiln_skid.v)

kiln_engine_tb(NAME width_pack TOP kiln_width
  VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=4 -GLO=16
  SOURCES tb/tb_width.c ${KILN_STREAM_TB} shim/width_pack_shim.cpp)
kiln_engine_tb(NAME width_unpack TOP kiln_width
  VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=16 -GLO=4
  SOURCES tb/tb_width.c ${KILN_STREAM_TB} shim/width_unpack_shim.cpp)
kiln_rtl_lint(NAME width_pack TOP kiln_width VERILOG kiln_width.v kiln_fifo.v)
kiln_rtl_lint(NAME width_unpack TOP kiln_width VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=16 -GLO=4)

kiln_engine_tb(NAME regfile TOP kiln_regfile
  VERILOG kiln_regfile.v VFLAGS -GN_CFG=8 -GN_PERF=3 "-GPLAN_HASH=64'hA5A5F00D12345678"
  SOURCES tb/tb_regfile.c shim/regfile_shim.cpp)
kiln_rtl_lint(NAME regfile TOP kiln_regfile VERILOG kiln_regfile.v)
# a map grown past the least one (hls/hw.h): 200 CFG registers move PERF to
# 0x400, 400 stages need 13 address bits
kiln_engine_tb(NAME regfile_wide TOP kiln_regfile
  VERILOG kiln_regfile.v VFLAGS -GN_CFG=200 -GN_PERF=400 -GPERF_BASE=1024 -GADDR_W=13
  "-GPLAN_HASH=64'hA5A5F00D12345678"
  DEFINES RF_N_CFG=200 RF_N_PERF=400 RF_PERF_BASE=0x400u RF_ADDR_W=13
  SOURCES tb/tb_regfile.c shim/regfile_shim.cpp)
kiln_rtl_lint(NAME regfile_wide TOP kiln_regfile VERILOG kiln_regfile.v
  VFLAGS -GN_CFG=200 -GN_PERF=400 -GPERF_BASE=1024 -GADDR_W=13)
# two run units (a top with the time-shared engine beside the dataflow)
kiln_engine_tb(NAME regfile_units TOP kiln_regfile
  VERILOG kiln_regfile.v VFLAGS -GUNITS=2 -GN_CFG=8 -GN_PERF=3 "-GPLAN_HASH=64'hA5A5F00D12345678"
  DEFINES RF_UNITS=2
  SOURCES tb/tb_regfile.c shim/regfile_shim.cpp)
kiln_rtl_lint(NAME regfile_units TOP kiln_regfile VERILOG kiln_regfile.v VFLAGS -GUNITS=2)
# four: a run unit per dataflow segment of a folded top and the engine's
kiln_engine_tb(NAME regfile_units4 TOP kiln_regfile
  VERILOG kiln_regfile.v VFLAGS -GUNITS=4 -GN_CFG=8 -GN_PERF=3 "-GPLAN_HASH=64'hA5A5F00D12345678"
  DEFINES RF_UNITS=4
  SOURCES tb/tb_regfile.c shim/regfile_shim.cpp)
kiln_rtl_lint(NAME regfile_units4 TOP kiln_regfile VERILOG kiln_regfile.v VFLAGS -GUNITS=4)

# AXI4 burst masters against C models of DDR (sim/tb/tb_axi_rd.c, tb_axi_wr.c):
# 128-bit bus, 64-beat bursts, 4 in flight (BRAM FIFO); 64-bit bus, 256-beat
# bursts, 2 in flight (512-beat 4 KiB pages); 64-bit, 8-beat bursts, 1 in
# flight (LUTRAM FIFO, many bursts, the outstanding limit binds); 16-bit bus,
# 16-beat bursts, 3 in flight (a narrow stream's channel).
foreach(cfg "128;64;4;" "64;256;2;_w64" "64;8;1;_b8" "16;16;3;_d16")
  list(GET cfg 0 dw)
  list(GET cfg 1 bm)
  list(GET cfg 2 mo)
  list(GET cfg 3 sfx)
  foreach(dir rd wr)
    kiln_engine_tb(NAME axi_${dir}${sfx} TOP kiln_axi_${dir}
      VERILOG kiln_axi_${dir}.v kiln_fifo.v
      VFLAGS -GDATA_W=${dw} -GBURST_MAX=${bm} -GMAX_OUT=${mo}
      DEFINES KILN_TB_DATA_W=${dw} KILN_TB_BURST_MAX=${bm} KILN_TB_MAX_OUT=${mo}
      SOURCES tb/tb_axi_${dir}.c shim/axi_${dir}_shim.cpp ARGS --cases 80)
    kiln_rtl_lint(NAME axi_${dir}${sfx} TOP kiln_axi_${dir} VERILOG kiln_axi_${dir}.v kiln_fifo.v
      VFLAGS -GDATA_W=${dw} -GBURST_MAX=${bm} -GMAX_OUT=${mo})
  endforeach()
endforeach()

# iverilog (4-state) runs of maxpool, concat, add and the AXI read master from
# vectors their Verilator benches write (--vec): outputs equal the C
# reference, no X on outputs or handshakes, with and without back-pressure.
find_program(KILN_IVERILOG iverilog)
find_program(KILN_VVP vvp)
if(KILN_IVERILOG AND KILN_VVP)
  function(kiln_stream_iv NAME TB DEFINE)
    set(iv_v)
    foreach(v ${ARGN})
      list(APPEND iv_v ${KILN_RTL_DIR}/${v})
    endforeach()
    set(vvp ${CMAKE_CURRENT_BINARY_DIR}/tb_${NAME}_iv.vvp)
    add_custom_command(OUTPUT ${vvp}
      COMMAND ${KILN_IVERILOG} -g2005 -Wall -Wno-timescale -Wno-sensitivity-entire-array
              ${DEFINE} -o ${vvp} ${CMAKE_CURRENT_SOURCE_DIR}/tb/${TB} ${iv_v}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tb/${TB} ${iv_v})
    add_custom_target(tb_${NAME}_iv ALL DEPENDS ${vvp})
    foreach(seed 3 4)
      foreach(bp 0 1)
        add_test(NAME rtl_${NAME}_iverilog_s${seed}_bp${bp}
          COMMAND sh -c "$<TARGET_FILE:tb_${NAME}> --quiet --cases 1 --seed ${seed} --vec iv_${NAME}_${seed}_bp${bp}.hex >/dev/null && ${KILN_VVP} -n ${vvp} +vec=iv_${NAME}_${seed}_bp${bp}.hex +seed=${seed} +bp=${bp}"
          WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
        set_tests_properties(rtl_${NAME}_iverilog_s${seed}_bp${bp} PROPERTIES
          PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 30)
      endforeach()
    endforeach()
  endfunction()
  if(TARGET tb_maxpool)
    kiln_stream_iv(maxpool tb_stream_iv.v -DKILN_IV_MAXPOOL kiln_maxpool.v kiln_fifo.v)
  endif()
  if(TARGET tb_concat)
    kiln_stream_iv(concat tb_stream_iv.v -DKILN_IV_CONCAT kiln_concat.v kiln_fifo.v)
  endif()
  if(TARGET tb_add)
    kiln_stream_iv(add tb_stream_iv.v -DKILN_IV_ADD kiln_add.v kiln_fifo.v)
  endif()
  if(TARGET tb_axi_rd)
    kiln_stream_iv(axi_rd tb_axi_rd_iv.v "" kiln_axi_rd.v kiln_fifo.v)
  endif()
endif()
