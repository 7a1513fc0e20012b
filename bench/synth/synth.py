#!/usr/bin/env python3
"""Synthesize one kiln engine with yosys (synth_xilinx -family xcup) and print
its resources and logic depth.

usage: synth.py MODULE [PARAM=VALUE ...] [--json] [--log FILE]

Counts: LUT (LUT1..6 + LUTRAM), FF (FD*), DSP48E2, RAMB36E2, RAMB18E2, and
the logic depth: the longest register-to-register path in cells on the mapped
netlist (bench/synth/depth.py: yosys `ltp -noff` that also treats block RAM
and DSP48E2 pipeline registers as registers).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import depth as depth_mod

HERE = os.path.dirname(os.path.abspath(__file__))
RTL = os.path.join(HERE, "..", "..", "rtl-templates")

SOURCES = {
    "kiln_conv": ["kiln_conv.v", "kiln_conv_window.v", "kiln_mac2.v", "kiln_requant.v",
                  "kiln_add3.v"],
    "kiln_dwconv": ["kiln_dwconv.v", "kiln_conv_window.v", "kiln_requant.v"],
    "kiln_requant": ["kiln_requant.v"],
    "kiln_mac2": ["kiln_mac2.v"],
    "kiln_conv_window": ["kiln_conv_window.v"],
    "kiln_tsconv": ["kiln_tsconv.v", "kiln_conv.v", "kiln_conv_window.v", "kiln_mac2.v", "kiln_add3.v",
                    "kiln_requant.v", "kiln_axi_rd.v", "kiln_axi_wr.v", "kiln_rd_chan.v",
                    "kiln_wr_chan.v", "kiln_chan_reps.v", "kiln_width.v", "kiln_fifo.v"],
}


def read_points(path):
    """Read a points file: `files MODULE FILE...` lines (Verilog sources of
    MODULE) and `point MODULE NAME=VALUE...` lines; '#' starts a comment.
    Returns ({module: [files]}, [(module, {name: value})])."""
    files, points = {}, []
    with open(path) as f:
        for line in f:
            w = line.split("#", 1)[0].split()
            if not w:
                continue
            if w[0] == "files":
                files[w[1]] = w[2:]
            elif w[0] == "point":
                points.append((w[1], dict(kv.split("=", 1) for kv in w[2:])))
    return files, points


def param_defaults(module, rtl=None):
    """The integer-literal defaults of MODULE's parameters (its first source
    file's `parameter integer NAME = N`): what a synthesis point that leaves
    a parameter out gets, for kiln_hls_res, which wants every one."""
    path = os.path.join(rtl or RTL, SOURCES[module][0])
    with open(path) as f:
        text = f.read()
    return {m.group(1): m.group(2) for m in
            re.finditer(r"parameter\s+integer\s+(\w+)\s*=\s*(-?\d+)\s*[,)\n]", text)}


def source_hash(module, rtl=None):
    """Short hash of the module's Verilog sources without comments and blank
    lines (cache key part: editing a header comment keeps the cache)."""
    return text_hash(os.path.join(rtl or RTL, f) for f in SOURCES[module])


def text_hash(paths):
    """source_hash() of the Verilog files at paths."""
    h = hashlib.sha1()
    for p in paths:
        with open(p) as fh:
            text = re.sub(r"/\*.*?\*/", "", fh.read(), flags=re.S)
        for line in text.splitlines():
            line = line.split("//", 1)[0].rstrip()
            if line:
                h.update(line.encode() + b"\n")
    return h.hexdigest()[:12]


def synth(module, params, log=None):
    files = " ".join(os.path.join(RTL, f) for f in SOURCES[module])
    chparam = " ".join("-set %s %s" % (k, v) for k, v in params.items())
    # KILN_XILINX_PRIMS: kiln_add3 as LUT6_2 + CARRY8 instances, as the Vivado
    # project builds it (pipeline/bd_tcl.c)
    script = "read_verilog -DKILN_XILINX_PRIMS %s\n" % files
    if chparam:
        script += "chparam %s %s\n" % (chparam, module)
    jf = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    jf.close()
    script += ("synth_xilinx -family xcup -noiopad -flatten -top %s\n"
               "write_json %s\n" % (module, jf.name))
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write(script)
        ys = f.name
    try:
        out = subprocess.run(["yosys", "-q", "-p", "script %s; tee -o /dev/stdout stat" % ys],
                             capture_output=True, text=True, check=False)
        dep = None
        if out.returncode == 0:
            with open(jf.name) as fh:
                dep = depth_mod.depth(json.load(fh), module)
    finally:
        os.unlink(ys)
        os.unlink(jf.name)
    text = out.stdout + out.stderr
    if log:
        with open(log, "w") as f:
            f.write(text)
    if out.returncode != 0:
        raise RuntimeError("yosys failed:\n" + text[-3000:])
    r = count_cells(text)
    r.update({"module": module, "params": params, "depth": dep, "src": source_hash(module)})
    return r


# LUTs a distributed-RAM primitive takes (UltraScale+ LUTRAM: a RAM64X1S is
# one LUT6, a RAM64M four, RAM64M8 and RAM32M16 eight, ...).
LUTRAM_LUTS = {
    "RAM32X1S": 1, "RAM32X1D": 2, "RAM32M": 4, "RAM32M16": 8,
    "RAM64X1S": 1, "RAM64X1D": 2, "RAM64M": 4, "RAM64M8": 8,
    "RAM128X1S": 2, "RAM128X1D": 4, "RAM256X1S": 4, "RAM256X1D": 8, "RAM512X1S": 8,
}


def count_cells(text):
    """Resources from yosys `stat` output (the last block wins): LUT (LUT1..6,
    LUT6_2, LUTRAM primitives by the LUTs each takes, SRL), FF, DSP48E2, RAMB36E2,
    RAMB18E2, URAM288 and all cells."""
    cells = {}
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    lut = sum(v for k, v in cells.items() if re.match(r"LUT[1-6]$|LUT6_2$|SRL", k))
    lut += sum(v * LUTRAM_LUTS.get(k, 1) for k, v in cells.items() if re.match(r"RAM\d+[XSM]", k))
    ff = sum(v for k, v in cells.items() if re.match(r"FD[RSCP]E?$", k))
    return {
        "lut": lut,
        "ff": ff,
        "dsp": cells.get("DSP48E2", 0),
        "ramb36": cells.get("RAMB36E2", 0),
        "ramb18": cells.get("RAMB18E2", 0),
        "uram": cells.get("URAM288", 0),
        "cells": cells,
    }


def totals(text):
    """The resources of yosys `stat` output the planner counts: LUT, FF,
    DSP48E2, BRAM36 (RAMB36E2 + RAMB18E2/2), URAM288."""
    c = count_cells(text)
    return {"lut": c["lut"], "ff": c["ff"], "dsp": c["dsp"],
            "bram36": c["ramb36"] + c["ramb18"] / 2.0, "uram": c["uram"]}


def folder_args(doc):
    """The arguments of a tool that takes a `kiln compile` folder first, or
    None after printing its usage."""
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(doc)
        return None
    return args


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
        print("%s %s: LUT %d FF %d DSP48E2 %d RAMB36E2 %d RAMB18E2 %d depth %s" % (
            r["module"], " ".join("%s=%s" % kv for kv in params.items()), r["lut"], r["ff"],
            r["dsp"], r["ramb36"], r["ramb18"], r["depth"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
