#!/usr/bin/env bash
# package_same.sh: two compiles of the same int8 model into two folders give
# byte-identical vivado/ (and rtl/) folders.
#   package_same.sh KILN MODEL.onnx BOARD WORKDIR
set -euo pipefail
kiln=$1 model=$2 board=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$kiln" quantize "$model" --calib-random 2 -o m.gir >/dev/null
"$kiln" compile m.gir --board "$board" -o a >/dev/null
"$kiln" compile m.gir --board "$board" -o b >/dev/null
test -f a/vivado/component.xml
diff -r a/vivado b/vivado
diff -r a/rtl b/rtl
echo "package_same: $(ls a/vivado | wc -l) entries of vivado/ identical"
