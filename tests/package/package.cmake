# The Vivado package (kiln compile -> DIR/vivado, docs/package.md): for each
# bundled board an int8 model's package passes the structural checks of
# package_test.sh (xmllint, dtc -@, build.tcl and kiln.xdc under tclsh with
# recording stubs, check_package.py); the IP top kiln_ip is lint-clean with
# the RTL (verilator); YOLOv3-tiny's 17 masters take two SmartConnects and two
# HP ports; two compiles give identical folders; a board without HP ports
# gets a one-line error and no folder.  Vivado itself is not run here.
set(PKD ${CMAKE_CURRENT_LIST_DIR})
set(PKT ${CMAKE_BINARY_DIR}/tests/package)
find_program(KILN_PKG_VERILATOR verilator)
set(PK_TEST ${PKD}/package_test.sh $<TARGET_FILE:kiln> ${SYSTEM_PYTHON3})
set(PK_RESDW ${CMAKE_BINARY_DIR}/models/resdw.onnx)
set(PK_Y3S ${CMAKE_BINARY_DIR}/models/yolov3-tiny-small.onnx)

add_test(NAME package_zcu104 COMMAND ${PK_TEST} ${PK_RESDW} zcu104
  xilinx.com:zcu104:part0:1.1 ${PKT}/zcu104 ${KILN_PKG_VERILATOR})
# the same with the DSPs at twice the clock: a second clock interface, one
# MMCM giving clk and clk2x in build.tcl, the IP top lint-clean with both
add_test(NAME package_zcu104_clk2x COMMAND ${CMAKE_COMMAND} -E env "KILN_PACKAGE_OPTS=--clk2x on"
  ${PK_TEST} ${PK_RESDW} zcu104 xilinx.com:zcu104:part0:1.1 ${PKT}/zcu104_clk2x ${KILN_PKG_VERILATOR})
add_test(NAME package_zcu102 COMMAND ${PK_TEST} ${PK_Y3S} zcu102
  xilinx.com:zcu102:part0:3.3 ${PKT}/zcu102)
add_test(NAME package_ultra96v2 COMMAND ${PK_TEST} ${PK_Y3S} ultra96v2
  avnet.com:ultra96v2:part0:1.2 ${PKT}/ultra96v2)
add_test(NAME package_kv260 COMMAND ${PK_TEST} ${PK_RESDW} kv260
  xilinx.com:kv260_som:part0:1.3 ${PKT}/kv260)
add_test(NAME package_two_hp COMMAND ${PK_TEST} ${CMAKE_BINARY_DIR}/models/yolov3-tiny.onnx
  zcu104 xilinx.com:zcu104:part0:1.1 ${PKT}/two_hp)
set_tests_properties(package_two_hp PROPERTIES ENVIRONMENT KILN_PKG_HP=2)
# the shared engine's weights on two read masters (WCH 2, the plan of
# yolov3-tiny-small's six folded layers replayed with it): m_axi_ts3 on a
# SmartConnect and HP port of its own beside the others' two
add_test(NAME package_zcu104_wch2 COMMAND ${PK_TEST} ${PK_Y3S} zcu104 xilinx.com:zcu104:part0:1.1
  ${PKT}/zcu104_wch2 ${KILN_PKG_VERILATOR})
set_tests_properties(package_zcu104_wch2 PROPERTIES ENVIRONMENT
  "KILN_PKG_WCH=2;KILN_PKG_HP=3;KILN_PACKAGE_OPTS=--pp-max 1 --fold conv10,conv12,conv13,conv14,conv15,conv18")
add_test(NAME package_same COMMAND ${PKD}/package_same.sh $<TARGET_FILE:kiln> ${PK_Y3S} kv260
  ${PKT}/same)
add_test(NAME package_no_hp_bad COMMAND ${PKD}/package_no_hp_bad.sh $<TARGET_FILE:kiln>
  ${PK_RESDW} ${PKD}/no_hp.xml ${PKT}/no_hp)
