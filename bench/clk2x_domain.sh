#!/usr/bin/env bash
# What yosys puts in kiln_conv's clk2x domain (DSP2X=1, or 2: pixel pairs): synth_xilinx
# -family xcup of one engine, then per clock the registers and DSP48E2 it
# clocks and the logic feeding them (bench/synth/fastdom.py), beside the
# engine without DSP2X: cells, LUT, FF and DSP48E2 of both; and how yosys
# maps a chain of registered post-adders (DSP cascades) for xc7 and xcup.
#   bench/clk2x_domain.sh [PE_IC PE_OC PACK [PP [DSP2X]]]
#   (default 8 8 2 1 1; DSP2X 2 needs an even PP; a few minutes)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
R=$HERE/../rtl-templates
PIC=${1:-8} POC=${2:-8} PACK=${3:-2} PP=${4:-1} X2=${5:-1}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for x in $X2 0; do
  yosys -q -l "$OUT/log$x" -p "read_verilog -defer $R/kiln_conv.v $R/kiln_conv_window.v $R/kiln_mac2.v $R/kiln_requant.v $R/kiln_add3.v;
    chparam -set PE_IC $PIC -set PE_OC $POC -set KMAX 3 -set WMAX 64 -set CIMAX 64 -set COMAX 64 -set PIPE 3 -set RQ_PIPE 4 -set PACK $PACK -set PP $PP -set DSP2X $x kiln_conv;
    synth_xilinx -family xcup -flatten -noiopad -noclkbuf -top kiln_conv;
    tee -q -o $OUT/stat$x stat; write_json $OUT/n$x.json" > /dev/null 2> "$OUT/err$x" ||
    { cat "$OUT/err$x" >&2; exit 1; }
  lut=$(awk '/LUT[1-6] /{s+=$2} END{print s}' "$OUT/stat$x")
  ff=$(awk '/FD[RSCP]E /{s+=$2} END{print s}' "$OUT/stat$x")
  dsp=$(awk '/DSP48E2 /{print $2}' "$OUT/stat$x")
  echo "kiln_conv PE ${POC}x${PIC} PACK $PACK PP $PP DSP2X $x: LUT $lut, FF $ff, DSP48E2 $dsp"
done
/usr/bin/python3 "$HERE/synth/fastdom.py" "$OUT/n$X2.json" clk2x
/usr/bin/python3 "$HERE/synth/fastdom.py" "$OUT/n$X2.json" clk
# Accumulation in DSP cascades: four MACs through registered post-adders,
# as yosys maps them for DSP48E1 (xc7) and DSP48E2 (xcup)
for fam in xc7 xcup; do
  yosys -q -p "read_verilog $HERE/synth/cascade_probe.v; synth_xilinx -family $fam -noiopad -noclkbuf -top cascade_probe;
    tee -q -o $OUT/casc_$fam stat" > /dev/null
  echo "cascade_probe on $fam: $(awk '/^ +(DSP48E[12]|FD[RSCP]E|LUT[1-6]|CARRY[48]) /{printf "%s %s, ", $1, $2}' "$OUT/casc_$fam")"
done
