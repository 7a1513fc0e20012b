# RUN: KILN
# The region decoder (decode.c, as kiln compile copies it) on a hand-made
# head in face-api's tiny face detector configuration (--detect region
# --classes 0, its 5 anchors, --resize pad, --iou-threshold 0.4): the two
# boxes face-api's formulas give for a 1920x1350 picture, the overlapping
# weaker one dropped, a score of exactly 0.5 not kept.
T=$SRC/pipeline/driver-templates
R=$SRC/host-runtime
cc -std=c11 -O1 -Wall -Wextra -Werror -ffp-contract=off -I$T -I$R $HERE/region_decode.c \
    $T/decode.c $T/kiln_driver.c $R/rt.c $R/json.c $R/transport/sim.c $R/transport/uio.c \
    -o $TMP/region_decode -lm
$TMP/region_decode
