#!/usr/bin/python3
"""Replay a plan.json with one fold.hw key set (or removed), each folded
layer's tog moved to what the replay asks for (a tile size follows from
the engine), up to four tries; prints the last compile's stderr and exits
with its status.

  replay_hw.py SRC.json KEY VALUE|- BOARD OUT KILN GIR    (-: KEY removed)
"""
import json
import re
import subprocess
import sys

src, key, value, board, out, kiln, gir = sys.argv[1:8]
p = json.load(open(src))
if value == "-":
    del p["fold"]["hw"][key]
else:
    p["fold"]["hw"][key] = int(value)
for _ in range(4):
    json.dump(p, open(out + ".json", "w"))
    r = subprocess.run([kiln, "compile", gir, "--board", board, "--plan", out + ".json",
                        "--plan-only", "-o", out], capture_output=True, text=True)
    m = re.search(r"\$\.fold\.layers\[(\d+)\]\.tog: \d+, the \d+x\d+ engine takes (\d+)", r.stderr)
    if not m:
        break
    p["fold"]["layers"][int(m.group(1))]["tog"] = int(m.group(2))
sys.stdout.write(r.stderr)
sys.exit(r.returncode)
