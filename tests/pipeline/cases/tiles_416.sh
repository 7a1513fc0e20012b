# RUN: KILN PYTHON
# TIMEOUT: 600
# Weight tiles and edges through DDR inside a segment: the full-size model on
# zcu104 streams some convs' weights in tiles; its top has readers that
# re-read a tiled conv's input once per tile (cfg_subs > 1), writers that
# place each tile's channels into every pixel (2-D rows), frame-gated
# readers of those buffers (avail from the writer's finished count), is
# lint-clean (where verilator is found), and regmap.json lists the scratch
# buffers.  A replayed plan whose tile does not divide a layer's output
# groups fails the compile (exit 2) with an error naming the layer, and
# leaves no folder.
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 -o $TMP/a > /dev/null
grep -Eq '"weights":[[:space:]]*"ddr"' $TMP/a/plan.json
grep -Eq '[.]cfg_subs[(]32.d([2-9]|[1-9][0-9]+)[)]' $TMP/a/rtl/kiln_top.v
grep -Eq '[.]cfg_row_beats[(]32.d[1-9][0-9]*[)]' $TMP/a/rtl/kiln_top.v
grep -Eq '[.]avail[(]ch_out[0-9]+_fin[)]' $TMP/a/rtl/kiln_top.v
grep -q '"scratch": \["out' $TMP/a/rtl/regmap.json
$PYTHON $HERE/check_regmap.py $TMP/a/rtl $TMP/a/plan.json $TMP/a/model.gir
if [ "$VERILATOR" != none ]; then
    (cd $TMP/a/rtl && $VERILATOR --lint-only -Wall --top-module kiln_top *.v)
fi
$PYTHON -c "import json,sys; p=json.load(open(sys.argv[1])); s=[x for x in p['stages'] if x.get('weights')=='ddr' and x['tog']>3][0]; s['tog']=3; json.dump(p,open(sys.argv[2],'w'))" $TMP/a/plan.json $TMP/bad.json
set +e
$KILN compile $MODELS/yolov3-tiny.onnx --calib-random 1 --board zcu104 --plan $TMP/bad.json -o $TMP/b 2> $TMP/err
rc=$?
set -e
test $rc = 2
grep -Eq 'rtl: conv[0-9]+: weight tiles of 3 output groups .* a tile must divide the groups' $TMP/err
test ! -e $TMP/b
