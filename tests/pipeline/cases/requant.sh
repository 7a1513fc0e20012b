# RUN: KILN VERILATOR PYTHON
# A standalone Requantize (inserted into int8 yolov3-tiny-small after
# conv0, negative multiplier) runs on kiln_rq_stage with the node's values.
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 4 -o $TMP/q.gir
sed -e 's/^%maxpool1 = MaxPool(%conv0_leaky)/%conv0_rq = Requantize(%conv0_leaky) {rq_m=[-20000], rq_shift=[14]} : i8[1,2,64,64] scale(0.1) loc(source node "conv0")\n%maxpool1 = MaxPool(%conv0_rq)/' $TMP/q.gir > $TMP/rq.gir
grep -q '= Requantize' $TMP/rq.gir
$KILN compile $TMP/rq.gir --board zcu104 -o $TMP/a
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
$HERE/count.sh $TMP/a/rtl/kiln_top.v '^    kiln_rq_stage #' 1
$HERE/count.sh $TMP/a/rtl/kiln_top.v 'CFG_M = 16.d45536;' 1
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/rq.gir
