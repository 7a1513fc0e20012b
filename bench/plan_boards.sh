#!/usr/bin/env bash
# Predicted YOLOv3-tiny 416x416 figures on the four bundled boards (kiln
# compile's cycle and resource models, not measurements), and the comparison
# with Xilinx's DPU on each board (ZCU104 329.2 fps 8.14 ms, ZCU102 393 fps
# 8.45 ms, KV260 166 fps 7.92 ms).
#   bench/plan_boards.sh [BUILD_DIR] [COMPILE_OPTION...]   (default: build;
#   options go to kiln compile, e.g. --pp-max 2 or --max-latency-ms 12 (a
#   board whose plan cannot meet the bound shows the compile's message), or
#   --clk2x off: every DSP on the fabric clock (the default, auto, puts them
#   at twice the clock where the board's DSP48E2 FMAX allows it and that is
#   faster: "2x" beside the MHz, the DSP efficiency then counted at the DSP
#   clock), or --fold auto --plan-only: the convs of the smallest map on a
#   time-shared engine (kiln_tsconv) where that is faster; the folded
#   layers are listed under the table); then where each board's DSP cycles
#   go (report.md's DSP use: idle, in busy, packing, requant)
set -eu
BUILD=${1:-build}
shift $(($# < 1 ? $# : 1))
KILN=$BUILD/tools/kiln/kiln
MODEL=$BUILD/models/yolov3-tiny.onnx
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for b in ultra96v2 kv260 zcu104 zcu102; do
  # a board the model does not fit: the compile's message goes in the table
  "$KILN" compile "$MODEL" --board "$b" "$@" -o "$OUT/$b" > "$OUT/$b.log" 2> "$OUT/$b.err" ||
    [ "$?" -eq 2 ] || { cat "$OUT/$b.err" >&2; exit 1; }
done
/usr/bin/python3 - "$OUT" "$*" <<'PY'
import json, re, sys
out, opts = sys.argv[1], sys.argv[2]
print("YOLOv3-tiny 416x416, predicted by the kiln models (not measured)" +
      (f"; kiln compile {opts}" if opts else "") + "\n")
print(f"{'board':10} {'MHz':>7} {'fps':>8} {'lat ms':>8} {'DSP eff':>8} {'DSP':>11} {'BRAM36':>13} {'URAM':>9} {'LUT':>15}  compile   limit")
fig = {}
for b in ("ultra96v2", "kv260", "zcu104", "zcu102"):
    try:
        p = json.load(open(f"{out}/{b}/plan.json"))
    except FileNotFoundError:
        print(f"{b:10} does not fit: {open(f'{out}/{b}.err').read().strip()}")
        continue
    f, u, g = p["figures"], p["figures"]["used"], p["figures"]["budget"]
    ms = re.search(r"compile time: (\d+) ms", open(f"{out}/{b}.log").read()).group(1)
    fig[b] = f
    f["clk2x"] = p.get("clk2x", False)
    print(f"{b:10} {p['clock_mhz']:4.0f}{' 2x' if f['clk2x'] else '   '} {f['fps']:8.1f} {f['latency_ms']:8.2f} {100*f['dsp_efficiency']:7.1f}% "
          f"{u['dsp']:5.0f}/{g['dsp']:<5.0f} {u['bram36']:6.1f}/{g['bram36']:<6.0f} {u['uram']:4.0f}/{g['uram']:<4.0f} "
          f"{u['lut']:7.0f}/{g['lut']:<7.0f} {ms:>5} ms  {f['limit']}")
print("\n(used/budget; budget = 90% of DSP, BRAM, URAM and 75% of LUT)")
for b in ("ultra96v2", "kv260", "zcu104", "zcu102"):
    try:
        fo = json.load(open(f"{out}/{b}/plan.json")).get("fold")
    except FileNotFoundError:
        continue
    if fo:
        names = ", ".join(l["node"] for l in fo.get("layers", []))
        print(f"{b:10} fold: {fo['why']}" + (f" ({names}; {fo['cycles']} cycles a frame"
              f"{', sets the interval' if fo['sets_interval'] else ''})" if names else ""))
# Vitis AI DPU figures on the same boards (fps, ms) and the issue's targets
# (fps above, latency below; Ultra96-V2: fps alone)
dpu = {"zcu104": (329.2, 8.14), "zcu102": (393.0, 8.45), "kv260": (166.0, 7.92)}
target = {"zcu104": (330, 8.0), "zcu102": (393, 8.0), "kv260": (166, 7.9), "ultra96v2": (60, None)}
print("\nAgainst the Vitis AI DPU (fps and latency as published for YOLOv3-tiny 416):")
print(f"{'board':10} {'kiln fps':>9} {'DPU fps':>8} {'ratio':>6} {'kiln ms':>9} {'DPU ms':>7} {'ratio':>6}  targets")
for b in ("ultra96v2", "kv260", "zcu104", "zcu102"):
    tf, tl = target[b]
    if b not in fig:
        print(f"{b:10} no plan (above)")
        continue
    f = fig[b]
    met = [f"> {tf} fps {'met' if f['fps'] > tf else 'NOT met (%.1fx short)' % (tf / f['fps'])}"]
    if tl is not None:
        met.append(f"< {tl} ms {'met' if f['latency_ms'] < tl else 'NOT met (%.1fx over)' % (f['latency_ms'] / tl)}")
    if b in dpu:
        df, dl = dpu[b]
        print(f"{b:10} {f['fps']:9.1f} {df:8.1f} {f['fps']/df:5.2f}x {f['latency_ms']:9.2f} {dl:7.2f} "
              f"{f['latency_ms']/dl:5.2f}x  {', '.join(met)}")
    else:
        print(f"{b:10} {f['fps']:9.1f} {'-':>8} {'-':>6} {f['latency_ms']:9.2f} {'-':>7} {'-':>6}  {', '.join(met)}")
# where the DSP cycles go (report.md's DSP use: shares of every DSP's
# capacity over the interval; the engines of most loss named)
print("\nDSP use (share of every DSP x 2 MACs x DSP clock x interval; report.md's DSP use):")
print(f"{'board':10} {'eff':>6} {'idle':>6} {'in busy':>8} {'packing':>8} {'requant':>8}  most idle")
for b in ("ultra96v2", "kv260", "zcu104", "zcu102"):
    if b not in fig:
        continue
    sec = open(f"{out}/{b}/report.md").read().split("## DSP use", 1)[1].split("\n## ", 1)[0]
    rows = [[x.strip().strip("*") for x in l.strip().strip("|").split("|")]
            for l in sec.splitlines() if l.startswith("| ") and not l.startswith("| engine")]
    tot = [r for r in rows if r[0] == "total"][0]
    idle = sorted((r for r in rows if r[0] != "total"), key=lambda r: -float(r[7].rstrip("%")))[:3]
    print(f"{b:10} {tot[6]:>6} {tot[7]:>6} {tot[8]:>8} {tot[9]:>8} {tot[10]:>8}  " +
          ", ".join(f"{r[0]} {r[7]} (busy {r[5]})" for r in idle))
if "zcu104" not in fig:
    sys.exit(0)
z = fig["zcu104"]
# What the DSP budget allows at all: every budgeted DSP48E2 doing two int8
# MACs (PACK=2) every cycle at the DSP clock, nothing else using DSPs.
zb = z["budget"]["dsp"]
dmhz = 600 if z["clk2x"] else 300
bound = zb * 2 * dmhz * 1e6 / z["macs"]
print(f"\nZCU104 ceiling: {zb:.0f} budgeted DSPs x 2 MACs x {dmhz} MHz / {z['macs']/1e9:.3f} G MACs per frame "
      f"= {bound:.1f} fps at 100% DSP efficiency; 330 fps needs {100*330/bound:.1f}% of it")
PY
