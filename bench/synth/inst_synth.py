#!/usr/bin/env python3
"""Synthesize the instances of a generated accelerator one by one, each as
kiln_top.v instantiates it, and set their resources beside the plan's.

usage: inst_synth.py DIR [--only REGEX] [--json]

DIR is `kiln compile`'s -o folder (plan.json and rtl/).  For every engine,
DMA channel, lane converter and the register file of rtl/kiln_top.v, a
wrapper keeps the instance's parameters and its constant connections (the
run-time cfg values the top ties off, its localparams resolved) and makes
every other connection a port, so yosys folds what the top folds; then
synth_xilinx -family xcup as bench/synth/synth.py.  Prints per instance LUT
(LUTRAM by the LUTs it takes), FF, DSP48E2, BRAM36 (RAMB18E2 = 0.5) and, for
the stages, the plan's figures and the LUT error; then the sums.  What lies
between the instances (forks, run control, PERF counters) is not measured
here: bench/synth/top_synth.py synthesizes the whole top.  --only keeps the
instances whose name matches REGEX.  Seconds to minutes per instance; a
benchmark, never a test.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402

CONST = re.compile(r"\d+'[sS]?[dhbDHB][0-9a-fA-F_xzXZ]+|\d+")


def instances(top):
    """(module, parameter text, instance name, [(port, expression)]) of every
    kiln_* instance of the top, in order."""
    out = []
    for m in re.finditer(r"\b(kiln_\w+)\s*#\((.*?)\)\s*(u_\w+)\s*\((.*?)\);", top, re.S):
        conns = re.findall(r"\.(\w+)\s*\(\s*(.*?)\s*\)\s*(?:,|$)", m.group(4), re.S)
        out.append((m.group(1), m.group(2).strip(), m.group(3), conns))
    return out


def port_dirs(rtl_dir, module):
    with open(os.path.join(rtl_dir, module + ".v")) as f:
        src = f.read()
    pat = r"\b(input|output)\s+(?:wire|reg)?\s*(?:signed\s*)?(?:\[[^\]]*\]\s*)?(\w+)"
    return {n: d for d, n in re.findall(pat, src)}


def wrapper(module, params, conns, dirs, lparams):
    """Verilog of module xw around one instance."""
    ports, body = [], []
    for port, expr in conns:
        e = lparams.get(expr, expr).strip()
        if e == "" or CONST.fullmatch(e):
            body.append(".%s(%s)" % (port, e))
        else:
            ports.append("%s wire [1023:0] p_%s" % (dirs.get(port, "input"), port))
            body.append(".%s(p_%s)" % (port, port))
    return ("module xw(\n    %s\n);\n    %s #(%s) u (\n        %s\n    );\nendmodule\n" %
            (",\n    ".join(ports), module, params, ",\n        ".join(body)))


def run(wrap, rtl_files):
    with tempfile.TemporaryDirectory() as d:
        w = os.path.join(d, "xw.v")
        with open(w, "w") as f:
            f.write(wrap)
        script = ("read_verilog -DKILN_XILINX_PRIMS %s %s\nsynth_xilinx -family xcup -noiopad -flatten -top xw\n" %
                  (w, " ".join(rtl_files)))
        ys = os.path.join(d, "s.ys")
        with open(ys, "w") as f:
            f.write(script)
        res = subprocess.run(["yosys", "-q", "-p", "script %s; tee -o /dev/stdout stat" % ys],
                             capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise RuntimeError("yosys failed:\n" + (res.stdout + res.stderr)[-2000:])
    return synth.totals(res.stdout + res.stderr)


def main():
    args = synth.folder_args(__doc__)
    if args is None:
        return 2
    out_dir = args[0]
    only = re.compile(args[args.index("--only") + 1]) if "--only" in args else None
    rtl_dir = os.path.join(out_dir, "rtl")
    try:
        with open(os.path.join(out_dir, "plan.json")) as f:
            plan = json.load(f)
        with open(os.path.join(rtl_dir, "kiln_top.v")) as f:
            top = f.read()
        stages = plan["stages"]
    except (OSError, ValueError, KeyError) as e:
        print("inst_synth: %s: %s" % (out_dir, e), file=sys.stderr)
        return 2
    lparams = dict(re.findall(r"localparam\s*(?:\[[^\]]*\])?\s*(\w+)\s*=\s*([^;]+);", top))
    files = sorted(os.path.join(rtl_dir, f) for f in os.listdir(rtl_dir)
                   if f.endswith(".v") and f != "kiln_top.v")
    rows, sums = [], {"meas": {}, "plan": {}}
    print("%-18s %-16s %-18s %7s %7s %5s %7s %5s | %7s %7s %7s" %
          ("instance", "module", "layer", "LUT", "FF", "DSP", "BRAM36", "URAM", "plan LUT", "FF",
           "LUT err"))
    for module, params, name, conns in instances(top):
        if only and not only.search(name):
            continue
        t0 = time.time()
        try:
            m = run(wrapper(module, params, conns, port_dirs(rtl_dir, module), lparams), files)
        except (OSError, RuntimeError) as e:
            print("inst_synth: %s: %s" % (name, e), file=sys.stderr)
            return 2
        st = re.fullmatch(r"u_s(\d+)", name)
        p = stages[int(st.group(1))]["resources"] if st and int(st.group(1)) < len(stages) else None
        layer = stages[int(st.group(1))]["node"] if p else ""
        err = "%+.0f%%" % (100.0 * (p["lut"] - m["lut"]) / m["lut"]) if p and m["lut"] else "-"
        print("%-18s %-16s %-18s %7d %7d %5d %7.1f %5d | %7s %7s %7s   (%.0f s)" %
              (name, module, layer, m["lut"], m["ff"], m["dsp"], m["bram36"], m["uram"],
               "%.0f" % p["lut"] if p else "-", "%.0f" % p["ff"] if p else "-", err,
               time.time() - t0), flush=True)
        kind = "stage" if p else "other"
        for k, v in m.items():
            sums["meas"].setdefault(kind, {}).setdefault(k, 0.0)
            sums["meas"][kind][k] += v
        if p:
            for k in m:
                sums["plan"].setdefault(k, 0.0)
                sums["plan"][k] += p.get(k, 0.0)
        rows.append({"instance": name, "module": module, "layer": layer, "measured": m,
                     "plan": p})
    ms, mo = sums["meas"].get("stage", {}), sums["meas"].get("other", {})
    if ms:
        print("stages: measured LUT %.0f FF %.0f DSP %.0f BRAM36 %.1f; plan LUT %.0f FF %.0f "
              "DSP %.0f BRAM36 %.1f" % (ms["lut"], ms["ff"], ms["dsp"], ms["bram36"],
                                        sums["plan"]["lut"], sums["plan"]["ff"],
                                        sums["plan"]["dsp"], sums["plan"]["bram36"]))
    if mo:
        inf = plan.get("figures", {}).get("infrastructure", {})
        print("channels, converters, register file: measured LUT %.0f FF %.0f BRAM36 %.1f; "
              "plan's infrastructure (also forks, PERF, run control) LUT %.0f FF %.0f BRAM36 %.1f" %
              (mo["lut"], mo["ff"], mo["bram36"], inf.get("lut", 0), inf.get("ff", 0),
               inf.get("bram36", 0)))
    if "--json" in args:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
