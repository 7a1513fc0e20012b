# RUN: KILN PYTHON
# TIMEOUT: 150
# What the FPGA takes of the PP-OCRv4 detector (docs/ocr.md).  On zcu104 at
# 1,3,160,160 kiln compile --plan-only plans it whole: the fp32 graph
# planned before calibration (more CPU nodes and segments, so more DMA
# channels) breaks the LUT budget, which used to refuse the model there;
# now layers of that fp32 plan move to the CPU (hls/plan_fit.c), the model
# is quantized, and the int8 plan fits with every layer on the FPGA and no
# move.  On zcu102 at 1,3,64,64 it compiles end to end
# (rtl/, vivado/, driver/): 117 FPGA layers (48 kiln_conv, 14 kiln_dwconv,
# 38 kiln_lut: each conv's affine * a + b with its HardSwish, and the
# squeeze-and-excite HardSigmoids, 11 kiln_add, 6 kiln_upsample) in 22
# segments (the CPU nodes run between segments, never inside one), 123 DMA
# channels: the register map grows past the least one (PERF at 0x600,
# check_regmap.py) and a second level of SmartConnects takes the masters to
# the four HP ports.  The rest runs on the CPU, listed here by op and
# reason: the squeeze-and-excite GlobalAveragePool and channel Mul, the
# head's ConvTranspose and Sigmoid, and the int8 conversions between
# segments.
# The plans are on the fabric clock (--clk2x off: auto plans twice, and
# takes clk2x on zcu102).
. $HERE/lib.sh
ocr_need
$KILN compile $DET --input-shape 1,3,160,160 --board zcu104 --clk2x off --plan-only -o $TMP/c104 | tee $TMP/c104.out
grep -q '; 117 FPGA layers, 60 CPU nodes, 22 segment(s)$' $TMP/c104.out
if grep -q 'moved to the CPU' $TMP/c104.out; then exit 1; fi
$PYTHON - $TMP/c104/plan.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = p["figures"]
assert "cpu_fit" not in p, p["cpu_fit"]
for r in ("dsp", "bram36", "uram", "lut", "ff"):
    assert f["used"][r] <= f["budget"][r] + 1e-6, (r, f["used"][r], f["budget"][r])
PY

$KILN quantize $DET --input-shape 1,3,64,64 --calib-random 1 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board zcu102 --clk2x off -o $TMP/c102 2> $TMP/c102.err | tee $TMP/c102.out
cat $TMP/c102.err
grep -q '; 117 FPGA layers, 60 CPU nodes, 22 segment(s)$' $TMP/c102.out
if grep -q 'not written' $TMP/c102.err; then exit 1; fi
test -f $TMP/c102/vivado/build.tcl
test -f $TMP/c102/driver/model.c
$PYTHON $SRC/tests/pipeline/check_regmap.py $TMP/c102/rtl $TMP/c102/plan.json \
    $TMP/c102/model.gir
grep -q '^#define KILN_REG_PERF(i) (0x600u + 8u \* (i))' $TMP/c102/rtl/regmap.h
grep -q '^#define KILN_N_CHANNELS  123$' $TMP/c102/rtl/regmap.h
grep -q 'sc_hp3/M00_AXI' $TMP/c102/vivado/build.tcl
# the package's structural checks (tests/package/package_test.sh's)
KILN_TCL_LOG=$TMP/tcl.log tclsh $SRC/tests/package/vivado_stubs.tcl $TMP/c102/vivado/build.tcl \
    $TMP/c102/vivado/kiln.xdc > /dev/null
$PYTHON $SRC/tests/package/check_package.py $TMP/c102 xilinx.com:zcu102:part0:3.3 $TMP/tcl.log
test "$(grep -cE '"engine":[[:space:]]*"kiln_lut"' $TMP/c102/plan.json)" = 38
test -f $TMP/c102/plan.json
# the CPU nodes, by op and reason
awk '/^## CPU nodes/ { on = 1; next } on && /^- / { print }' $TMP/c102/report.md > $TMP/cpu.txt
test "$(wc -l < $TMP/cpu.txt)" = 60
echo "CPU nodes by op and reason:"
sed -E 's/^- [^ ]+ \(([A-Za-z0-9]+)\): /\1: /' $TMP/cpu.txt | sort | uniq -c | sort -rn | tee $TMP/cpu_ops.txt
grep -q ' ConvTranspose: no FPGA engine for ConvTranspose$' $TMP/cpu_ops.txt
grep -q ' GlobalAveragePool: no FPGA engine for GlobalAveragePool$' $TMP/cpu_ops.txt
if grep -q LutI8 $TMP/cpu_ops.txt; then echo "LutI8 on the CPU"; exit 1; fi
echo "CPU nodes:"
cat $TMP/cpu.txt
