# RUN: KILN
# Malformed records: exit 2 and one line naming the file and the line.
m=$MODELS/cpumid.onnx
in=$MODELS/cpumid-input.npy
. $HERE/tune_lib.sh
ok='{"workload":"k","schedule":{"owb":8,"vl":16,"order":1,"unroll":1,"out":1,"threads":2},"ok":true,"min_ms":1,"median_ms":1}'
printf '%s\n\n%s\n' "$ok" '{"workload":"k",' > $TMP/trunc.jsonl
records_bad "kiln: run: $TMP/trunc.jsonl:3: bad tuning record: not a JSON object" \
    run $m -i $in --target cpu --records $TMP/trunc.jsonl
printf '%s\n' '{"workload":"k","schedule":{"owb":8,"vl":16,"order":1,"unroll":1,"out":1,"threads":2},"ok":true}' > $TMP/notime.jsonl
records_bad "kiln: bench: $TMP/notime.jsonl:1: bad tuning record: a measured record (\"ok\": true) needs \"min_ms\" and \"median_ms\" numbers >= 0" \
    bench $m --target cpu --records $TMP/notime.jsonl
printf '%s\n%s\n' "$ok" '{"workload":"k","schedule":{"owb":0,"vl":16,"order":1,"unroll":1,"out":1,"threads":2},"ok":false,"error":"x"}' > $TMP/owb.jsonl
records_bad "kiln: tune: $TMP/owb.jsonl:2: bad tuning record: schedule \"owb\" must be a whole number from 1 to 64" \
    tune $m --records $TMP/owb.jsonl
printf '%s\n' '{"workload":"k","schedule":{"owb":8,"vl":16,"order":1,"unroll":1,"out":1,"threads":2},"ok":"yes"}' > $TMP/okstr.jsonl
records_bad "kiln: lower: $TMP/okstr.jsonl:1: bad tuning record: \"ok\" must be true or false" \
    lower $m --triple x86_64-linux-gnu --records $TMP/okstr.jsonl -o $TMP/x.o
test ! -e $TMP/x.o
records_bad "kiln: run: cannot read records file $TMP/none.jsonl: No such file or directory" \
    run $m -i $in --target cpu --records $TMP/none.jsonl
records_bad "kiln: run: --records applies to --target cpu, not 'ref'" \
    run $m -i $in --records $TMP/owb.jsonl
records_bad "kiln: compile: $TMP/okstr.jsonl:1: bad tuning record: \"ok\" must be true or false" \
    compile $m --board zcu104 -o $TMP/c --records $TMP/okstr.jsonl
test ! -e $TMP/c
