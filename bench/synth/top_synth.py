#!/usr/bin/env python3
"""Synthesize the whole generated accelerator of a `kiln compile` output
folder with yosys (synth_xilinx -family xcup) and set its resources beside the
plan's prediction and the board's budget.

usage: top_synth.py DIR [--kiln KILN] [--log FILE] [--json]

DIR is `kiln compile`'s -o folder (plan.json and rtl/); the board's totals
come from `KILN boards NAME --json` (default: build/tools/kiln/kiln).  Prints per resource
(LUT, FF, DSP48E2, BRAM36 = RAMB36E2 + RAMB18E2/2, URAM288): measured, the
plan's prediction and its error, the board's total and the plan's budget
(90% DSP/BRAM/URAM/FF, 75% LUT), and whether the design fits.  Exit 0 when it
fits the board's totals, 1 when not, 2 on bad input.  Minutes to hours for a
large design; a benchmark, never a test.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402


def main():
    args = synth.folder_args(__doc__)
    if args is None:
        return 2
    out_dir = args[0]
    log = args[args.index("--log") + 1] if "--log" in args else None
    plan_path = os.path.join(out_dir, "plan.json")
    rtl = sorted(glob.glob(os.path.join(out_dir, "rtl", "*.v")))
    try:
        with open(plan_path) as f:
            plan = json.load(f)
        used, budget = plan["figures"]["used"], plan["figures"]["budget"]
    except (OSError, ValueError, KeyError) as e:
        print("top_synth: %s: %s" % (plan_path, e), file=sys.stderr)
        return 2
    if not rtl:
        print("top_synth: %s/rtl: no Verilog (kiln compile wrote no rtl/)" % out_dir,
              file=sys.stderr)
        return 2
    kiln = args[args.index("--kiln") + 1] if "--kiln" in args else "build/tools/kiln/kiln"
    try:
        board = json.loads(subprocess.run([kiln, "boards", str(plan["board"]), "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        if isinstance(board, list):
            board = board[0]
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print("top_synth: %s boards %s: %s" % (kiln, plan.get("board"), e), file=sys.stderr)
        return 2
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write("read_verilog -DKILN_XILINX_PRIMS %s\n" % " ".join(rtl))
        f.write("synth_xilinx -family xcup -noiopad -flatten -top kiln_top\n")
        ys = f.name
    t0 = time.time()
    try:
        res = subprocess.run(["yosys", "-q", "-p", "script %s; tee -o /dev/stdout stat" % ys],
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(ys)
    secs = time.time() - t0
    text = res.stdout + res.stderr
    if log:
        with open(log, "w") as f:
            f.write(text)
    if res.returncode != 0:
        print("top_synth: yosys failed:\n" + text[-3000:], file=sys.stderr)
        return 2
    meas = synth.totals(text)
    totals = {"lut": board.get("lut"), "ff": board.get("ff"), "dsp": board.get("dsp48e2"),
              "bram36": board.get("bram36"), "uram": board.get("uram")}
    if "--json" in args:
        print(json.dumps({"measured": meas, "predicted": used, "budget": budget,
                          "board": totals, "yosys_seconds": round(secs, 1)}))
    print("%s on %s: yosys synth_xilinx -family xcup, %.0f s" %
          (plan.get("model", "?"), board.get("name", "?"), secs))
    print("%-7s %10s %10s %8s %10s %10s" % ("", "measured", "plan", "error", "budget", "board"))
    fits = True
    for k in ("lut", "ff", "dsp", "bram36", "uram"):
        p, b, t = used.get(k, 0), budget.get(k), totals.get(k)
        e = "-" if meas[k] == 0 else "%+.1f%%" % (100.0 * (p - meas[k]) / meas[k])
        print("%-7s %10.1f %10.1f %8s %10s %10s" % (k, meas[k], p, e, b, t))
        if t is not None and meas[k] > t:
            fits = False
    print("fits the board: %s" % ("yes" if fits else "NO"))
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main())
