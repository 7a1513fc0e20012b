# RUN: KILN
# An edge through DDR inside a segment is written in its producer's output
# lanes and read in its consumer's input lanes, with no converter between:
# the two must pad a pixel alike.  ddr18 on a copy of Ultra96-V2 with 30
# BRAM36 streams conv1's weights from DDR in tiles, so conv0's 18-channel
# map goes through DDR; PE_OC 2 (18 bytes a pixel) against PE_IC 4 (20) is
# what the search would leave there.  The plan compiles to rtl/ with the
# lanes made to agree, and the same plan with conv0 at PE_OC 2 replayed is
# refused with one line naming the edge.
sed 's/bram36="216"/bram36="30"/; s/name="ultra96v2"/name="u96-bram30"/' \
    $SRC/boards/zynq-ultrascale/ultra96v2.xml > $TMP/bram30.xml
$KILN quantize $MODELS/ddr18.onnx --calib-random 1 -o $TMP/q.gir
$KILN compile $TMP/q.gir --board $TMP/bram30.xml -o $TMP/a
test -f $TMP/a/rtl/kiln_top.v
$HERE/check_plan.py ddr_pad $TMP/a conv0 conv1 18
$HERE/check_plan.py mutate $TMP/a/plan.json $TMP/bad.json 0 pe_oc 2
$SRC/tests/cli/expect.sh 2 "kiln: plan: conv1: input 0 from conv0 goes through DDR in 2 lanes but is read in 4 (18 channels): the padded pixels differ; give both ends lanes that pad them alike" -- $KILN compile $TMP/q.gir --board $TMP/bram30.xml --plan $TMP/bad.json -o $TMP/bad
test ! -e $TMP/bad/rtl
