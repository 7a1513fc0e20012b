# Helpers of the gpu_* cases (sourced).
# ptx_check STEM NODES: STEM.ptx, STEM.json and STEM.bin from kiln lower
# --triple nvptx64-nvidia-cuda for a graph of NODES nodes: PTX ISA 7.8 for
# sm_90; one entry kiln_gpu_<id> per node but those a launch lists as
# fused into its Conv, which have none (and the _pre ones the plan
# launches); every load and store names its state space (kernel buffers in
# .global, never generic); the plan's launches, parameters and buffers
# agree with the PTX and the data file (a launch of run-time extent runs
# one thread, one of run-time shape has its range from the launcher, a
# Shape of such a value has no entry); ptxas assembles it when on PATH.
ptx_check() {
    local stem=$1 nodes=$2 generic
    grep -qx '.version 7.8' "$stem.ptx"
    grep -qx '.target sm_90' "$stem.ptx"
    generic=$(grep -E '^\s+(ld|st)\.(v[24]\.)?[bsuf](8|16|32|64)\b' "$stem.ptx" | head -3 || true)
    if [ -n "$generic" ]; then
        echo "$stem.ptx: generic loads or stores: $generic"
        return 1
    fi
    grep -q 'ld\.global\.' "$stem.ptx"
    grep -q 'st\.global\.' "$stem.ptx"
    "$PYTHON" - "$stem" "$nodes" <<'PY'
import json, os, re, sys
stem, nodes = sys.argv[1], int(sys.argv[2])
ptx = open(stem + ".ptx").read()
plan = json.load(open(stem + ".json"))
entries = dict(re.findall(r"^\.visible \.entry (\w+)\(\n((?:\t\.param[^\n]*\n)*)\)", ptx, re.M))
kernels = [l for l in plan["launches"] if not l.get("shape")]
assert len(entries) == len(kernels), (len(entries), len(kernels))
fused = [f["node"] for l in plan["launches"] for f in l.get("fused", [])]
assert len(fused) == len(set(fused)), fused
# a Shape of a value of run-time shape: the launcher writes it, no entry
host = {l["node"] for l in plan["launches"] if l.get("shape")}
for i in range(nodes):
    assert ("kiln_gpu_%d" % i in entries) != (i in fused or i in host), (stem, i)
bufs = {b["index"]: b for b in plan["buffers"]}
for l in plan["launches"]:
    assert all(a is None or a in bufs for a in l["args"]), l["entry"]
    if l.get("shape"):
        assert l["entry"] == "" and len(l["args"]) == 2, l
        continue
    params = entries[l["entry"]].count(".param .u64")
    assert params == len(l["args"]), (l["entry"], params, len(l["args"]))
    if "sized" in l:  # range and grid found by the launcher from the dims
        assert l["range"] == 0 and l["grid"][0] == 0 and l["sized"] in l["args"], l
        assert bufs[l["sized"]]["kind"] == "scratch", l
        continue
    assert l["grid"][0] * l["block"][0] >= l["range"] > (l["grid"][0] - 1) * l["block"][0], l
    if "count" in l:  # one thread: where an element goes depends on those before it
        assert l["range"] == 1 and l["count"] in l["args"] and bufs[l["count"]]["kind"] == "scratch", l
assert os.path.getsize(stem + ".bin") == plan["data_bytes"]
for b in bufs.values():
    if "offset" in b:
        assert b["offset"] % 64 == 0 and b["offset"] + b["bytes"] <= plan["data_bytes"], b
print("%s: %d entries for %d nodes (%d more fused), PTX %d bytes, data %d bytes" % (
    os.path.basename(stem), len(entries), len({l["node"] for l in plan["launches"]}),
    len(fused), len(ptx), plan["data_bytes"]))
PY
    if command -v ptxas > /dev/null; then
        ptxas -arch=sm_90 "$stem.ptx" -o "$stem.cubin"
        echo "ptxas: $stem.ptx assembled for sm_90"
    else
        echo "ptxas is not on PATH: $stem.ptx not assembled"
    fi
}
# lowered_nodes STDERR_FILE: the node count kiln lower printed.
lowered_nodes() {
    sed -n 's/.*(sm_90): \([0-9]*\) nodes.*/\1/p' "$1"
}
