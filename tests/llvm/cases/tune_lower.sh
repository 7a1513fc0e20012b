# RUN: KILN
# kiln lower --records: a record for one of cpumid's Conv workloads (its
# key from kiln tune --list) changes the object made for this machine
# (--cpu host, the target kiln tune measures) and leaves the one for the
# generic x86-64 as it was (another target: the key does not match).
m=$MODELS/cpumid.onnx
key=$($KILN tune $m --list | sed -n 's/^   4  1 node , [0-9.]* GMAC: //p')
test -n "$key"
echo "{\"workload\":\"$key\",\"schedule\":{\"owb\":4,\"vl\":8,\"order\":2,\"unroll\":2,\"out\":2,\"threads\":1},\"ok\":true,\"min_ms\":0.01,\"median_ms\":0.01}" > $TMP/r.jsonl
l=(lower $m --triple x86_64-linux-gnu --symbol s)
$KILN "${l[@]}" --cpu host -o $TMP/host.o 2> /dev/null
$KILN "${l[@]}" --cpu host --records $TMP/r.jsonl -o $TMP/host-tuned.o 2> /dev/null
if cmp -s $TMP/host.o $TMP/host-tuned.o; then
    echo "the record did not change the object for --cpu host"
    exit 1
fi
$KILN "${l[@]}" -o $TMP/generic.o 2> /dev/null
$KILN "${l[@]}" --records $TMP/r.jsonl -o $TMP/generic-tuned.o 2> /dev/null
cmp $TMP/generic.o $TMP/generic-tuned.o
