#!/usr/bin/env bash
# Verilator speed on one 416x416 frame of YOLOv3-tiny (the bundled model,
# int8) compiled for a board (default zcu104): quantizes and compiles as
# bench/sim_yolov3_416.sh does, removes any cached Verilator build, runs
# `kiln simulate --frames 1` on the bundled input and prints
#   build s   the Verilator build (verilator + g++ of the model and harness)
#   run s     the one-frame start (`lat`: weights on chip, one frame from
#             start to done), and its cycles and cycles/s
#   total s   the three starts of the run (cold, lat, warm) and the whole
#             `kiln simulate` wall time
# and the load average before and after (the machine may be shared: read
# the figures beside it).  Every output byte must match the int8
# interpreter (the script fails otherwise).
#   bench/sim_speed.sh [BUILD_DIR] [BOARD] [OUT_DIR]
set -euo pipefail
BUILD=${1:-build}
BOARD=${2:-zcu104}
KILN=$BUILD/tools/kiln/kiln
MODEL=$BUILD/models/yolov3-tiny.onnx
INPUT=$BUILD/models/yolov3-tiny-input.npy
OUT=${3:-$BUILD/bench/sim-speed-$BOARD}
for f in "$KILN" "$MODEL" "$INPUT"; do
  [ -e "$f" ] || { echo "sim_speed.sh: $f: not found (build the kiln and models targets)" >&2; exit 2; }
done
mkdir -p "$(dirname "$OUT")"
"$KILN" quantize "$MODEL" --calib-random 8 -o "$OUT.gir" >/dev/null
rm -rf "$OUT"
"$KILN" compile "$OUT.gir" --board "$BOARD" -o "$OUT" >/dev/null
load0=$(cut -d' ' -f1-3 /proc/loadavg)
# each progress line of kiln simulate (stderr) with the time it came
"$KILN" simulate "$OUT" -i "$INPUT" --frames 1 2>&1 >"$OUT.sim.log" |
  while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$OUT.progress"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/python3 - "$OUT" "$load0" "$load1" <<'PY'
import json, sys
out, load0, load1 = sys.argv[1:4]
t = {}
for line in open(f"{out}.progress"):
    ts, _, msg = line.partition(" ")
    if "building the Verilator model" in msg:
        t["build"] = float(ts)
    elif "segment 0:" in msg and "build" in t and "run" not in t:
        t["run"] = float(ts)
if "build" not in t or "run" not in t:
    sys.exit(f"sim_speed.sh: {out}.progress: no build and run lines")
starts = {}
for line in open(f"{out}/sim/seg0/result.txt"):
    f = line.split()
    if len(f) == 3 and f[0] in ("cold", "lat", "warm"):
        starts[f[0]] = (int(f[1]), float(f[2]))
r = json.load(open(f"{out}/sim/result.json"))
if not r["bit_exact"]:
    sys.exit("sim_speed.sh: NOT bit-exact")
cyc, wall = starts["lat"]
print(f"{out}: one frame in Verilator, bit-exact with the int8 interpreter")
print(f"  build s     {t['run'] - t['build']:.1f} (verilator, g++ of the model and harness)")
print(f"  run s       {wall:.2f} (one frame: {cyc} cycles, {cyc / wall:.0f} cycles/s)")
print(f"  total s     {sum(w for _, w in starts.values()):.2f} for cold + lat + warm "
      f"({r['sim_cycles']} cycles, {r['sim_cycles_per_s']:.0f} cycles/s); "
      f"kiln simulate wall {r['wall_s']:.1f}")
print(f"  load avg    {load0} before, {load1} after (2 cores)")
PY
