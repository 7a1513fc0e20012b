# RUN: KILN
# kiln lower on a model with a node the back end has no lowering for
# (cases/unlowered.gir: a Gather of computed indices): exit 2 naming the node, no files left.
. $HERE/aot_lib.sh
lower_bad "kiln: lower: node 'h': Gather has no lowering in the CPU back end, and an object has no interpreter to run it" \
    $TMP/u.o $HERE/cases/unlowered.gir --triple x86_64-linux-gnu
