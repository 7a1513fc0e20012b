#!/usr/bin/env bash
# Predicted YOLOv3-tiny 416x416 figures on the four bundled boards (kiln
# compile's cycle and resource models, not measurements), and the ZCU104
# comparison with Xilinx's DPU (2 x B4096 at 300 MHz: 329.2 fps, 8.14 ms).
#   bench/plan_boards.sh [BUILD_DIR] [COMPILE_OPTION...]   (default: build;
#   options go to kiln compile, e.g. --pp-max 2, or --clk2x: DSPs at twice
#   the clock where the board's DSP48E2 FMAX allows it, "2x" beside the MHz;
#   the DSP efficiency is then counted at the DSP clock)
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
z = fig["zcu104"]
print("\nZCU104 at 300 MHz vs Vitis AI DPU (2 x B4096, 300 MHz): 329.2 fps, 8.14 ms")
print(f"  kiln (predicted): {z['fps']:.1f} fps ({z['fps']/329.2:.2f}x), {z['latency_ms']:.2f} ms "
      f"({z['latency_ms']/8.14:.2f}x), DSP efficiency {100*z['dsp_efficiency']:.1f}%")
print(f"  targets: > 330 fps {'met' if z['fps'] > 330 else 'NOT met'}, < 8 ms "
      f"{'met' if z['latency_ms'] < 8 else 'NOT met'}, DSP efficiency > 90% "
      f"{'met' if z['dsp_efficiency'] > 0.9 else 'NOT met'}")
# What the DSP budget allows at all: every budgeted DSP48E2 doing two int8
# MACs (PACK=2) every cycle at the DSP clock, nothing else using DSPs.
zb = z["budget"]["dsp"]
dmhz = 600 if z["clk2x"] else 300
bound = zb * 2 * dmhz * 1e6 / z["macs"]
print(f"  ceiling: {zb:.0f} budgeted DSPs x 2 MACs x {dmhz} MHz / {z['macs']/1e9:.3f} G MACs per frame "
      f"= {bound:.1f} fps at 100% DSP efficiency; 330 fps needs {100*330/bound:.1f}% of it")
PY
