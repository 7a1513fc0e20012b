#!/usr/bin/env bash
# YOLOv3-tiny 416x416 (the bundled model, int8) compiled for a board and run
# in Verilator: two frames back to back, every output byte (both heads and
# every map kept in DDR) against the int8 interpreter, measured cycles beside
# the plan.  Prints compile time, simulation wall time, frames/s and latency
# from the measured cycles, DSP efficiency, resources against the board's
# budget, and on ZCU104 the comparison with Xilinx's DPU (2 x B4096 at
# 300 MHz: 329.2 fps, 8.14 ms).  KILN_SIM_THREADS=T runs a T-thread Verilator
# model (default 1: on this design 2 threads ran no faster, docs/simulate.md).
#   bench/sim_yolov3_416.sh [BUILD_DIR] [BOARD] [OUT_DIR] [COMPILE_OPTION...]
# (COMPILE_OPTIONs go to kiln compile, e.g. --pp-max 2, or --clk2x off: the
# DSPs on the fabric clock; with the default --clk2x auto a plan that takes
# clk2x has its DSP efficiency counted at the DSP clock, twice the fabric
# clock)
set -euo pipefail
BUILD=${1:-build}
BOARD=${2:-zcu104}
KILN=$BUILD/tools/kiln/kiln
MODEL=$BUILD/models/yolov3-tiny.onnx
OUT=${3:-$BUILD/bench/yolov3-tiny-416-$BOARD}
THREADS=${KILN_SIM_THREADS:-1}
shift $(($# < 3 ? $# : 3))
mkdir -p "$(dirname "$OUT")"
for f in "$KILN" "$MODEL"; do
  [ -e "$f" ] || { echo "sim_yolov3_416.sh: $f: not found (build the kiln and models targets)" >&2; exit 2; }
done
echo "== kiln quantize $MODEL (8 random calibration inputs)"
"$KILN" quantize "$MODEL" --calib-random 8 -o "$OUT.gir"
echo "wrote $OUT.gir"
rm -rf "$OUT"
echo "== kiln compile for $BOARD $*"
"$KILN" compile "$OUT.gir" --board "$BOARD" "$@" -o "$OUT" | tee "$OUT.compile.log"
echo "== kiln simulate: 2 frames back to back (Verilator threads: $THREADS)"
start=$(date +%s)
"$KILN" simulate "$OUT" -i "$BUILD/models/yolov3-tiny-input.npy" --frames 2 --threads "$THREADS"
end=$(date +%s)
/usr/bin/python3 - "$OUT" "$OUT.compile.log" "$BOARD" "$((end - start))" "$THREADS" <<'PY'
import json, re, sys
out, log, board, wall, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
p = json.load(open(f"{out}/plan.json"))
r = json.load(open(f"{out}/sim/result.json"))
f = p["figures"]
mhz = p["clock_mhz"]
ms = re.search(r"compile time: (\d+) ms", open(log).read()).group(1)
ii, lat = r["interval_cycles"], r["latency_cycles"]
fps = mhz * 1e6 / ii
dsp = f["used"]["dsp"]
x2 = 2 if p.get("clk2x") else 1  # DSP clock: twice the clock with --clk2x
eff = f["macs"] * fps / (dsp * 2 * x2 * mhz * 1e6)
errs = [abs(s["measured_t_done"] - s["predicted_t_done"]) / s["predicted_t_done"] for s in r["stages"]]
print(f"\nYOLOv3-tiny 416x416 int8 on {board} at {mhz:.0f} MHz, measured in Verilator "
      f"({'bit-exact' if r['bit_exact'] else 'NOT bit-exact'}, {r['frames']} frames):")
print(f"  compile time            {ms} ms")
print(f"  simulation wall time    {wall} s for cold + latency + {r['frames']}-frame runs "
      f"({r['sim_cycles']} cycles, {r['sim_cycles_per_s']:.0f} cycles/s, Verilator threads: {threads}); "
      f"one frame ~ {lat / r['sim_cycles_per_s']:.0f} s")
print(f"  interval                {ii:.0f} cycles (predicted {r['predicted_interval_cycles']:.0f}, "
      f"{100 * (ii - r['predicted_interval_cycles']) / r['predicted_interval_cycles']:+.1f}%) "
      f"-> {fps:.1f} frames/s")
print(f"  latency                 {lat} cycles (predicted {r['predicted_latency_cycles']}, "
      f"{100 * (lat - r['predicted_latency_cycles']) / r['predicted_latency_cycles']:+.1f}%) "
      f"-> {lat / mhz / 1e3:.2f} ms")
print(f"  per-stage t_done error  worst {100 * max(errs):.2f}% over {len(errs)} stages")
print(f"  DSP efficiency          {100 * eff:.1f}% ({f['macs'] / 1e9:.3f} G MACs x {fps:.1f} fps / "
      f"({dsp:.0f} DSP x 2 x {x2 * mhz:.0f} MHz DSP clock))")
u, g = f["used"], f["budget"]
print("  resources (used/budget) " + ", ".join(
    f"{k.upper()} {u[k]:.0f}/{g[k]:.0f}" for k in ("dsp", "bram36", "uram", "lut", "ff")))
if board == "zcu104":
    print("\nvs Vitis AI DPU on ZCU104 (2 x B4096, 300 MHz): 329.2 fps, 8.14 ms")
    print(f"  kiln (measured): {fps:.1f} fps ({fps / 329.2:.2f}x), {lat / mhz / 1e3:.2f} ms "
          f"({lat / mhz / 1e3 / 8.14:.2f}x), DSP efficiency {100 * eff:.1f}%")
    print(f"  targets: > 330 fps {'met' if fps > 330 else 'NOT met'}, < 8 ms "
          f"{'met' if lat / mhz / 1e3 < 8 else 'NOT met'}, DSP efficiency > 90% "
          f"{'met' if eff > 0.9 else 'NOT met'}")
PY
