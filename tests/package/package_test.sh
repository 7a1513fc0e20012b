#!/usr/bin/env bash
# package_test.sh: compile an int8 model for one board and check its Vivado
# package (DIR/vivado): component.xml well formed (xmllint), the overlay
# compiles (dtc -@), build.tcl and kiln.xdc run in tclsh against recording
# stubs (vivado_stubs.tcl), check_package.py's structural checks, a Kria
# board's shell.json, and the IP top lint-clean with the RTL when verilator
# is given.
#   package_test.sh KILN PYTHON MODEL.onnx BOARD BOARD_PART WORKDIR [VERILATOR]
# (KILN_PACKAGE_OPTS: more kiln compile options, e.g. "--clk2x on";
# KILN_PKG_WCH=2: the plan those options give replayed with the shared
# engine's WCH 2, its second weight master ts3 on an HP port of its own)
set -euo pipefail
kiln=$1 py=$2 model=$3 board=$4 part=$5 work=$6 verilator=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$kiln" quantize "$model" --calib-random 2 -o m.gir >/dev/null
if [ "${KILN_PKG_WCH:-1}" = 2 ]; then
  # the shared engine's weights on two masters: the plan replayed with WCH 2
  "$kiln" compile m.gir --board "$board" ${KILN_PACKAGE_OPTS:-} --plan-only -o p >/dev/null
  "$py" -c 'import json,sys; p=json.load(open(sys.argv[1])); p["fold"]["hw"]["WCH"]=2; json.dump(p,open(sys.argv[2],"w"))' \
    p/plan.json w.json
  "$kiln" compile m.gir --board "$board" --plan w.json -o out >/dev/null
  grep -q '^        .m3_axi_arvalid(m_axi_ts3_arvalid),$' out/rtl/kiln_top.v ||
    { echo "kiln_top.v does not wire master 3 to m_axi_ts3"; exit 1; }
else
  "$kiln" compile m.gir --board "$board" ${KILN_PACKAGE_OPTS:-} -o out >/dev/null
fi
test -f out/rtl/kiln_top.v || { echo "no rtl/kiln_top.v"; exit 1; }
xmllint --noout out/vivado/component.xml
dtc -@ -q -I dts -O dtb -o kiln.dtbo out/vivado/kiln.dtso
test -s kiln.dtbo
KILN_TCL_LOG=$work/tcl.log tclsh "$here/vivado_stubs.tcl" out/vivado/build.tcl out/vivado/kiln.xdc >/dev/null
"$py" "$here/check_package.py" out "$part" tcl.log
case $part in
  *:kv260_som:*)
    "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d != {"shell_type": "XRT_FLAT", "num_slots": "1"})' \
      out/vivado/kv260/shell.json || { echo "kv260/shell.json is not the XRT_FLAT one-slot shell"; exit 1; }
    grep -q 'kv260/kiln.bit.bin' out/vivado/build.tcl || { echo "build.tcl does not fill kv260/"; exit 1; }
    ;;
  *)
    test ! -e out/vivado/kv260 || { echo "kv260/ written for $board"; exit 1; } ;;
esac
if [ -n "$verilator" ]; then
  (cd out/rtl && "$verilator" --lint-only -Wall -Wno-UNUSEDSIGNAL --top-module kiln_ip ../vivado/kiln_ip.v ./*.v)
fi
echo "package_test: $board ok"
