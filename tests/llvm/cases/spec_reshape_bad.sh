# RUN: KILN
# Run-time shape specialization (cases/spec.gir) with a Reshape shape
# input of [5, 5] for 24 elements: the shape rule's error on the bound
# values names the node, exit 2, as the interpreter's.
$SRC/tests/cli/expect.sh 2 "kiln: $HERE/cases/spec.gir: node 'r': Reshape: cannot reshape 24 elements into 25" \
    -- $KILN run $HERE/cases/spec.gir -i $HERE/cases/spec-x.npy -i $HERE/cases/spec-s-bad.npy \
    -i $HERE/cases/spec-k-a.npy --target cpu
