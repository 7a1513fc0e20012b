#!/usr/bin/env bash
# What yosys puts in kiln_conv's clk2x domain (DSP2X=1): synth_xilinx
# -family xcup of one engine, then per clock the registers and DSP48E2 it
# clocks and the logic feeding them (bench/synth/fastdom.py), beside the
# engine without DSP2X: cells, LUT, FF and DSP48E2 of both.
#   bench/clk2x_domain.sh [PE_IC PE_OC PACK]   (default 8 8 2; a few minutes)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
R=$HERE/../rtl-templates
PIC=${1:-8} POC=${2:-8} PACK=${3:-2}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for x in 1 0; do
  yosys -q -l "$OUT/log$x" -p "read_verilog -defer $R/kiln_conv.v $R/kiln_conv_window.v $R/kiln_mac2.v $R/kiln_requant.v;
    chparam -set PE_IC $PIC -set PE_OC $POC -set KMAX 3 -set WMAX 64 -set CIMAX 64 -set COMAX 64 -set PIPE 3 -set RQ_PIPE 4 -set PACK $PACK -set DSP2X $x kiln_conv;
    synth_xilinx -family xcup -flatten -noiopad -noclkbuf -top kiln_conv;
    tee -q -o $OUT/stat$x stat; write_json $OUT/n$x.json" > /dev/null
  lut=$(awk '/LUT[1-6] /{s+=$2} END{print s}' "$OUT/stat$x")
  ff=$(awk '/FD[RSCP]E /{s+=$2} END{print s}' "$OUT/stat$x")
  dsp=$(awk '/DSP48E2 /{print $2}' "$OUT/stat$x")
  echo "kiln_conv PE ${POC}x${PIC} PACK $PACK DSP2X $x: LUT $lut, FF $ff, DSP48E2 $dsp"
done
/usr/bin/python3 "$HERE/synth/fastdom.py" "$OUT/n1.json" clk2x
/usr/bin/python3 "$HERE/synth/fastdom.py" "$OUT/n1.json" clk
