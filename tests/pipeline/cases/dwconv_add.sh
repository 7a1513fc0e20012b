# RUN: KILN VERILATOR PYTHON
# Depthwise conv and residual Add (resdw, int8): two kiln_dwconv, one
# kiln_add with the node's rescale (rq_m_a, rq_m_b, rq_shift), their weight
# sets rebuilt in kiln_dwconv order.
$KILN quantize $MODELS/resdw.onnx --calib-random 4 -o $TMP/q.gir
$KILN compile $TMP/q.gir --board zcu104 -o $TMP/a
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
$HERE/count.sh $TMP/a/rtl/kiln_top.v '^    kiln_dwconv #' 2
$HERE/count.sh $TMP/a/rtl/kiln_top.v '^    kiln_add #' 1
$HERE/count.sh $TMP/a/rtl/kiln_top.v 'output wire +m_axi_w[0-9]+_arvalid' 6
a=$(sed -n 's/.*= Add(.*rq_m_a=\[\([0-9]*\)\].*/\1/p' $TMP/q.gir)
test -n "$a"
grep -q "CFG_MA = 16'd$a;" $TMP/a/rtl/kiln_top.v
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/q.gir
