#!/usr/bin/env python3
"""Synthesize kiln_dsp_chain (the DSP48E2 instances, -DKILN_DSP48E2) and the
LUT adder tree of the same N (bench/synth/dsp_tree_probe.v, kiln_conv's tree
with every level registered) with yosys synth_xilinx -family xcup, and print
LUT (SRL included), SRL, FF, CARRY and DSP48E2 of each.

usage: dsp_chain_synth.py [N ...] [--md]     (default N: 8 16 32; a minute)
       dsp_chain_synth.py --section           docs/rtl-resources.md's section,
                                              through docs/synth-cache.json

The chain is synthesized twice: ISKEW=1 (its own input delay lines, the
skew a systolic chain needs) and ISKEW=0 (the caller skews the operands:
the sum alone).  bench/synth/run_all.py writes the same table into
docs/rtl-resources.md (function section()).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402

CHAIN_V = os.path.join(HERE, "..", "..", "rtl-templates", "kiln_dsp_chain.v")
TREE_V = os.path.join(HERE, "dsp_tree_probe.v")
NS = [8, 16, 32]


def synth_one(kind, n):
    """kind: "chain1" (ISKEW 1), "chain0" (ISKEW 0) or "tree"."""
    if kind == "tree":
        script = ("read_verilog %s; chparam -set N %d dsp_tree_probe; "
                  "synth_xilinx -family xcup -noiopad -flatten -top dsp_tree_probe" % (TREE_V, n))
    else:
        script = ("read_verilog -DKILN_DSP48E2 %s; chparam -set N %d -set ISKEW %s "
                  "kiln_dsp_chain; synth_xilinx -family xcup -noiopad -flatten "
                  "-top kiln_dsp_chain" % (CHAIN_V, n, kind[-1]))
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write(script.replace("; ", "\n") + "\n")
        ys = f.name
    try:
        out = subprocess.run(["yosys", "-q", "-p", "script %s; tee -o /dev/stdout stat" % ys],
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(ys)
    if out.returncode != 0:
        raise RuntimeError("yosys failed:\n" + (out.stdout + out.stderr)[-3000:])
    c = synth.count_cells(out.stdout)
    cells = c["cells"]
    return {"lut": c["lut"], "ff": c["ff"], "dsp": c["dsp"],
            "srl": sum(v for k, v in cells.items() if k.startswith("SRL")),
            "carry": sum(v for k, v in cells.items() if re.match(r"CARRY[48]$", k))}


def point_key(kind, n):
    return "dsp_chain %s N=%d src=%s" % (kind, n, synth.text_hash([TREE_V if kind == "tree" else CHAIN_V]))


def keys():
    """The cache keys section() uses (the others are stale)."""
    return set(point_key(k, n) for n in NS for k in ("tree", "chain1", "chain0"))


def measure(ns, cache=None, cache_path=None):
    """[(n, {kind: figures})]; cache (a dict, saved to cache_path) is keyed
    by the point and the source's hash."""
    rows = []
    for n in ns:
        r = {}
        for kind in ("tree", "chain1", "chain0"):
            key = point_key(kind, n)
            if cache is not None and key in cache:
                r[kind] = cache[key]
                continue
            print("synth", key, file=sys.stderr, flush=True)
            r[kind] = synth_one(kind, n)
            if cache is not None:
                cache[key] = r[kind]
                if cache_path:
                    with open(cache_path, "w") as f:
                        json.dump(cache, f, indent=1)
        rows.append((n, r))
    return rows


def table(rows):
    t = ["| N | sum | LUT (SRL) | FF | CARRY4 | DSP48E2 |", "|---|---|---|---|---|---|"]
    names = {"tree": "LUT adder tree (dsp_tree_probe)",
             "chain1": "kiln_dsp_chain ISKEW=1",
             "chain0": "kiln_dsp_chain ISKEW=0"}
    for n, r in rows:
        for kind in ("tree", "chain1", "chain0"):
            m = r[kind]
            t.append("| %d | %s | %d (%d) | %d | %d | %d |" % (
                n, names[kind], m["lut"], m["srl"], m["ff"], m["carry"], m["dsp"]))
    return t


def section(cache, cache_path):
    """The docs/rtl-resources.md section (lines)."""
    rows = measure(NS, cache, cache_path)
    return ["## Dot products: DSP48E2 cascade vs LUT adder tree", "",
            "`bench/synth/dsp_chain_synth.py`: `rtl-templates/kiln_dsp_chain.v` with "
            "`-DKILN_DSP48E2` (N DSP48E2 slices, PCOUT -> PCIN) beside the adder tree "
            "kiln_conv sums a lane's PE_IC products with (`bench/synth/dsp_tree_probe.v`, "
            "every level registered, each product a registered multiply).  Both take one "
            "DSP48E2 per product; the tree pays LUT and CARRY4 for its adders, the chain "
            "none: with ISKEW=1 its LUT are shift registers (SRL16E/SRLC32E) of the input "
            "delay lines a systolic chain needs (lane i delayed i cycles), with ISKEW=0 "
            "(the caller skews the operands) it has no fabric logic but the m_valid "
            "pipeline.", ""] + table(rows)


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    if "--section" in args:
        cache_path = os.path.join(HERE, "..", "..", "docs", "synth-cache.json")
        with open(cache_path) as f:
            cache = json.load(f)
        print("\n".join(section(cache, cache_path)))
        return 0
    ns = [int(a) for a in args if a.isdigit()] or NS
    rows = measure(ns)
    if "--md" in args:
        print("\n".join(table(rows)))
        return 0
    for n, r in rows:
        for kind in ("tree", "chain1", "chain0"):
            m = r[kind]
            print("N %2d %-6s LUT %5d (SRL %4d) FF %5d CARRY %4d DSP48E2 %3d" % (
                n, kind, m["lut"], m["srl"], m["ff"], m["carry"], m["dsp"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
