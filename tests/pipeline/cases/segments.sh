# RUN: KILN VERILATOR PYTHON
# Two FPGA segments (cpumid: a dilated conv on the CPU between them), int8:
# one top, each segment with its own channels; weights.bin rebuilt.
$KILN quantize $MODELS/cpumid.onnx --calib-random 4 -o $TMP/q.gir
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
$HERE/count.sh $TMP/a/rtl/kiln_top.v 'assign seg[0-9]+_go' 2
$HERE/count.sh $TMP/a/rtl/kiln_top.v 'output wire +m_axi_in[01]_arvalid' 2
$HERE/count.sh $TMP/a/rtl/kiln_top.v 'output wire +m_axi_out[01]_awvalid' 2
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/q.gir
