#!/usr/bin/env python3
"""Synthesize one kiln engine with yosys (synth_xilinx -family xcup) and print
its resources and logic depth.

usage: synth.py MODULE [PARAM=VALUE ...] [--json] [--log FILE]

Counts: LUT (LUT1..6 + LUTRAM), FF (FD*), DSP48E2, RAMB36E2, RAMB18E2, and
the `ltp -noff` longest topological path (cells between flip-flops / ports,
a proxy for logic depth) on the mapped netlist.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RTL = os.path.join(HERE, "..", "..", "rtl-templates")

SOURCES = {
    "kiln_conv": ["kiln_conv.v", "kiln_conv_window.v", "kiln_mac2.v", "kiln_requant.v"],
    "kiln_dwconv": ["kiln_dwconv.v", "kiln_conv_window.v", "kiln_requant.v"],
    "kiln_requant": ["kiln_requant.v"],
    "kiln_mac2": ["kiln_mac2.v"],
}


def synth(module, params, log=None):
    files = " ".join(os.path.join(RTL, f) for f in SOURCES[module])
    chparam = " ".join("-set %s %s" % (k, v) for k, v in params.items())
    script = "read_verilog %s\n" % files
    if chparam:
        script += "chparam %s %s\n" % (chparam, module)
    script += ("synth_xilinx -family xcup -noiopad -flatten -top %s\n"
               "stat\nltp -noff\n" % module)
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write(script)
        ys = f.name
    try:
        out = subprocess.run(["yosys", "-q", "-p", "script %s; tee -o /dev/stdout stat; "
                              "tee -o /dev/stdout ltp -noff" % ys],
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(ys)
    text = out.stdout + out.stderr
    if log:
        with open(log, "w") as f:
            f.write(text)
    if out.returncode != 0:
        raise RuntimeError("yosys failed:\n" + text[-3000:])
    # the last 'stat' block is the one we teed
    cells = {}
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    lut = sum(v for k, v in cells.items() if re.match(r"LUT[1-6]$|RAM\d+[XSMD]|SRL", k))
    ff = sum(v for k, v in cells.items() if re.match(r"FD[RSCP]E?$", k))
    ltp = [int(x) for x in re.findall(r"Longest topological path in \S+ \(length=(\d+)\)", text)]
    return {
        "module": module,
        "params": params,
        "lut": lut,
        "ff": ff,
        "dsp": cells.get("DSP48E2", 0),
        "ramb36": cells.get("RAMB36E2", 0),
        "ramb18": cells.get("RAMB18E2", 0),
        "ltp": ltp[-1] if ltp else None,
        "cells": cells,
    }


def main():
    args = sys.argv[1:]
    if not args or args[0] not in SOURCES:
        print(__doc__)
        return 2
    as_json = "--json" in args
    log = None
    if "--log" in args:
        log = args[args.index("--log") + 1]
    params = {}
    for a in args[1:]:
        if "=" in a:
            k, v = a.split("=", 1)
            params[k] = v
    r = synth(args[0], params, log)
    if as_json:
        print(json.dumps(r))
    else:
        print("%s %s: LUT %d FF %d DSP48E2 %d RAMB36E2 %d RAMB18E2 %d ltp %s" % (
            r["module"], " ".join("%s=%s" % kv for kv in params.items()), r["lut"], r["ff"],
            r["dsp"], r["ramb36"], r["ramb18"], r["ltp"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
