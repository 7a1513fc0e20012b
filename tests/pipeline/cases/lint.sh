# RUN: KILN VERILATOR PYTHON
# The top of yolov3-tiny-small on zcu104 is lint-clean under verilator -Wall
# and has the engines of its dataflow.dot: 13 conv, 6 maxpool, 1 upsample,
# 1 concat; two fan-outs (conv8, conv13), one skip FIFO (conv8 -> route20,
# of the depth plan.json gives it); DMA: one input, 13 weight sets, two
# outputs; no AXI-Stream ports left; every maxpool has top/left pad 0 (the
# 2x2 stride 1 layer pads bottom/right, through cfg_oh/cfg_ow).  Its
# regmap.json names every channel and weights.bin holds the int8 weights of
# the planned graph model.gir (check_regmap.py).  With KILN_SIM_BP defined
# (kiln simulate --backpressure) it is lint-clean as well.
$KILN compile $MODELS/yolov3-tiny-small.onnx --board zcu104 -o $TMP/a
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
# with KILN_SIM_BP (kiln simulate --backpressure): a kiln_bp_gate on each of
# the 24 streams into an engine or an output channel, lint-clean too
(cd $TMP/a/rtl && $VERILATOR --lint-only -Wall -DKILN_SIM_BP --top-module kiln_top *.v \
    $SRC/rtl-templates/kiln_bp_gate.v)
top=$TMP/a/rtl/kiln_top.v
$HERE/count.sh $top '^    kiln_bp_gate #' 24
$HERE/count.sh $top '^    kiln_conv #' 13
$HERE/count.sh $top '^    kiln_maxpool #' 6
$HERE/count.sh $top '^    kiln_upsample #' 1
$HERE/count.sh $top '^    kiln_concat #' 1
$HERE/count.sh $top '^    kiln_fork #' 2
$HERE/count.sh $top '^    kiln_fifo #' 1
d=$($PYTHON -c "import json,sys; print(json.load(open(sys.argv[1]))['fifos'][0]['depth'])" $TMP/a/plan.json)
$HERE/count.sh $top "[.]DEPTH\($d\)" 1
$HERE/count.sh $top '^    kiln_rd_chan #' 14
$HERE/count.sh $top '^    kiln_wr_chan #' 2
$HERE/count.sh $top 'output wire +m_axi_out[0-9]+_awvalid' 2
$HERE/count.sh $top 'output wire +m_axi_in[0-9]+_arvalid' 1
$HERE/count.sh $top 'output wire +m_axi_w[0-9]+_arvalid' 13
$HERE/count.sh $top 'axis' 0
$HERE/count.sh $top '[.]N_PERF\(21\)' 1
$HERE/count.sh $top 'localparam .7:0. S[0-9]+_CFG_PAD = 8.d0;' 6
grep -q "PLAN_HASH(64'h$(sed -n 's/.*KILN_PLAN_HASH *0x\([0-9a-f]*\)ull/\1/p' $TMP/a/rtl/regmap.h))" $top
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/a/model.gir
# With the shared engine in two parts (maxpool11 between conv10 and
# conv12): lint-clean too, each part's SEGMENT value mapped to its range of
# the table with constants, the engine's done the parts' segment done; a
# part starts on unit 0 or on the engine's unit 4 (CTRL bit5, after the four
# dataflow segments' units, each segment k > 0 starting on unit k too), and
# the engine's unit refuses a dataflow segment (ERROR bit 31).  On the
# fabric clock (--clk2x off), the engine the constants below are of.
$KILN compile $MODELS/yolov3-tiny-small.onnx --board zcu104 --clk2x off --fold conv10,conv12,conv13 -o $TMP/f > /dev/null
(cd $TMP/f/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
top=$TMP/f/rtl/kiln_top.v
grep -A1 '^    assign ts_go = seg4_go | seg5_go |$' $top |
    grep -q "^ *(rf_start_e && rf_cfg\[31:0\] >= 32'd4 && rf_cfg\[31:0\] < 32'd6);$"
grep -Eq "^ +rf_cfg\[31:0\] == 32'd5 \? 40'd128 :$" $top
grep -Eq "^ +rf_cfg\[31:0\] == 32'd5 \? 16'd2 :$" $top
grep -A1 "^    assign rf_err\[31\] = (rf_start && rf_cfg\[31:0\] >= 32'd6) ||$" $top |
    grep -q "^ *(rf_start_e && (rf_cfg\[31:0\] < 32'd4 || rf_cfg\[31:0\] >= 32'd6));$"
grep -q 'run_seg == 32.d5 ? (ch_ts2_done)' $top
grep -q '^        [.]UNITS(5),$' $top
grep -q '^        [.]start({rf_start_e, rf_start_s3, rf_start_s2, rf_start_s1, rf_start}),$' $top
grep -q "^    assign seg3_go = (rf_start && rf_cfg\[31:0\] == 32'd3) || rf_start_s3;$" $top
grep -q "^    assign seg4_go = (rf_start && rf_cfg\[31:0\] == 32'd4);$" $top
