#!/usr/bin/env bash
# The int8 depthwise Conv and MatMul kernels of the CPU back end with and
# without VNNI, one kiln, one run (a benchmark, never a test): for each
# one-node graph of llvm_dw_matmul_vnni.py (PP-OCRv4's depthwise Convs, 3x3
# and 5x5, 16 to 480 channels, the rec's MatMuls, and ONNX's MatMulInteger,
# QLinearMatMul, ConvInteger and QLinearConv), `kiln bench --target cpu
# --threads 2` with KILN_VNNI=0 (the kernels without vpdpbusd) and
# without it (the host's VNNI) in turn, ROUNDS times; checks first that
# both give --target int8's bytes.  Prints per graph the min and p50 of
# each and their ratios, and the load average before and after.
#   bench/llvm_dw_matmul_vnni.sh [KILN] [ITERS] [ROUNDS] [ONLY]
set -euo pipefail
kiln=${1:-build/tools/kiln/kiln}
iters=${2:-50}
rounds=${3:-3}
only=${4:-.}
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/kiln-dw-matmul-vnni
mkdir -p "$out"
grep -qw -e avx512_vnni -e avx_vnni /proc/cpuinfo || echo "note: this CPU has no VNNI: both columns are the same kernels"
/usr/bin/python3 "$here/llvm_dw_matmul_vnni.py" "$out" | grep -E "^[^ ]*($only)" > "$out/list.txt"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
while read -r name kind shape; do
  g=$out/$name.gir
  ref=int8
  [ "$kind" = qonnx ] && ref=ref
  "$kiln" run "$g" -i "$out/$name.npy" --target $ref -o "$out/$name-ref.npy" > /dev/null
  "$kiln" run "$g" -i "$out/$name.npy" --target cpu -o "$out/$name-on.npy" > /dev/null 2>&1
  KILN_VNNI=0 "$kiln" run "$g" -i "$out/$name.npy" --target cpu -o "$out/$name-off.npy" > /dev/null 2>&1
  cmp "$out/$name-on.npy" "$out/$name-ref.npy"
  cmp "$out/$name-off.npy" "$out/$name-ref.npy"
  for ((r = 1; r <= rounds; r++)); do
    KILN_VNNI=0 "$kiln" bench "$g" -i "$out/$name.npy" --target cpu --threads 2 --warmup 5 \
      --iters "$iters" --json > "$out/$name-off-$r.json" 2> /dev/null
    "$kiln" bench "$g" -i "$out/$name.npy" --target cpu --threads 2 --warmup 5 \
      --iters "$iters" --json > "$out/$name-on-$r.json" 2> /dev/null
  done
done < "$out/list.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "every graph: --target cpu with and without KILN_VNNI=0 byte for byte --target int8 (qonnx: ref)"
/usr/bin/python3 - "$out" "$rounds" <<'PY'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print(f"{'graph':24s} {'shape':28s} {'off min':>8s} {'on min':>8s} {'x':>6s} {'off p50':>8s} {'on p50':>8s} {'x':>6s}  (ms)")
for line in open(f"{out}/list.txt"):
    name, kind, shape = line.split(None, 2)
    f = {}
    for tag in ("off", "on"):
        rs = [json.load(open(f"{out}/{name}-{tag}-{r}.json"))["results"][0] for r in range(1, rounds + 1)]
        f[tag] = (min(r["min_ms"] for r in rs), min(r["p50_ms"] for r in rs))
    (a, b), (c, d) = f["off"], f["on"]
    print(f"{name:24s} {shape.strip():28s} {a:8.3f} {c:8.3f} {a / c:5.2f}x {b:8.3f} {d:8.3f} {b / d:5.2f}x")
PY
