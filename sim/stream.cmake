# Verilator benches of the stream-family engines (pool, upsample, concat, add,
# split, fifo, skid, width, AXI masters, register file).  Included at the end
# of sim/CMakeLists.txt; kiln_engine_tb and kiln_rtl_lint come from there.
# One Verilator build per engine; shapes are swept at run time.
set(KILN_STREAM_TB tb/tb_stream.c)

kiln_engine_tb(NAME maxpool TOP kiln_maxpool
  VERILOG kiln_maxpool.v kiln_fifo.v
  VFLAGS -GLANES=8 -GK_MAX=3 -GCG_MAX=8 -GROW_MAX=256
  SOURCES tb/tb_maxpool.c ${KILN_STREAM_TB} shim/maxpool_shim.cpp)
kiln_rtl_lint(NAME maxpool TOP kiln_maxpool VERILOG kiln_maxpool.v kiln_fifo.v)

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

kiln_engine_tb(NAME split TOP kiln_split
  VERILOG kiln_split.v kiln_fifo.v VFLAGS -GLANES=8
  SOURCES tb/tb_split.c ${KILN_STREAM_TB} shim/split_shim.cpp)
kiln_rtl_lint(NAME split TOP kiln_split VERILOG kiln_split.v kiln_fifo.v)

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

kiln_engine_tb(NAME avgpool TOP kiln_avgpool
  VERILOG kiln_avgpool.v kiln_fifo.v VFLAGS -GLANES=8 -GCG_MAX=8 -GROW_MAX=128 -GACC_W=24
  SOURCES tb/tb_avgpool.c ${KILN_STREAM_TB} shim/avgpool_shim.cpp)
kiln_rtl_lint(NAME avgpool TOP kiln_avgpool VERILOG kiln_avgpool.v kiln_fifo.v)

kiln_engine_tb(NAME width_pack TOP kiln_width
  VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=4 -GLO=16
  SOURCES tb/tb_width.c ${KILN_STREAM_TB} shim/width_pack_shim.cpp)
kiln_engine_tb(NAME width_unpack TOP kiln_width
  VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=16 -GLO=4
  SOURCES tb/tb_width.c ${KILN_STREAM_TB} shim/width_unpack_shim.cpp)
kiln_rtl_lint(NAME width_pack TOP kiln_width VERILOG kiln_width.v kiln_fifo.v)
kiln_rtl_lint(NAME width_unpack TOP kiln_width VERILOG kiln_width.v kiln_fifo.v VFLAGS -GLI=16 -GLO=4)

kiln_engine_tb(NAME regfile TOP kiln_regfile
  VERILOG kiln_regfile.v VFLAGS -GN_CFG=8 "-GPLAN_HASH=64'hA5A5F00D12345678"
  SOURCES tb/tb_regfile.c shim/regfile_shim.cpp)
kiln_rtl_lint(NAME regfile TOP kiln_regfile VERILOG kiln_regfile.v)
