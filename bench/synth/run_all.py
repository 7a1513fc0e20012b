#!/usr/bin/env python3
"""Synthesize the conv-family engines listed in points_conv.txt with yosys and
write docs/rtl-resources.md: measured LUT/FF/DSP48E2/RAMB36E2/RAMB18E2 and
logic depth beside the hls/ descriptor's prediction and its error, then the
logic depth per pipeline setting.

usage: run_all.py HLS_RES_BINARY [OUT.md] [--quick]
Each point takes seconds (requant) to many minutes (16x16 conv); results are
cached in synth-cache.json next to OUT, keyed by the point and a hash of its
Verilog sources, so a rerun only synthesizes new or changed points.  --quick
stops after the first 8 points.  --bank synthesizes only the points of
kiln_conv's banked line buffer (LBBANK given) and rewrites only their
section of OUT ("Banked line buffer").  The stream engines have their own driver
and table (bench/synth/stream_synth.py, docs/rtl-stream-resources.md).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402
import dsp_chain_synth  # noqa: E402

TITLE = "# RTL resources (yosys) vs the hls/ descriptors"
TOL = {"lut": 30, "ff": 30, "dsp": 15, "bram": 15}


def err(pred, meas):
    if meas == 0:
        return 0.0 if pred == 0 else float("inf")
    return 100.0 * (pred - meas) / meas


def fmt_err(e):
    return "inf" if e == float("inf") else "%+.0f%%" % e


def point_key(mod, params):
    return "%s %s src=%s" % (mod, " ".join("%s=%s" % kv for kv in sorted(params.items())),
                             synth.source_hash(mod))


def run_point(cache, cache_path, mod, params):
    key = point_key(mod, params)
    if key not in cache:
        print("synth", key, flush=True)
        r = synth.synth(mod, params)
        r.pop("cells", None)
        cache[key] = r
        with open(cache_path, "w") as f:
            json.dump(cache, f, indent=1)
    return cache[key]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    hls_res = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else \
        os.path.join(HERE, "..", "..", "docs", "rtl-resources.md")
    cache_path = os.path.join(os.path.dirname(os.path.abspath(out)), "synth-cache.json")
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    files, points = synth.read_points(os.path.join(HERE, "points_conv.txt"))
    synth.SOURCES.update(files)
    # synthesize a snapshot, so edits during a long run cannot mix versions
    snap = tempfile.mkdtemp(prefix="kiln_rtl_")
    for fl in files.values():
        for fn in fl:
            shutil.copy(os.path.join(synth.RTL, fn), snap)
    synth.RTL = snap
    quick = "--quick" in sys.argv
    if quick:
        points = points[:8]
    bank = "--bank" in sys.argv
    try:
        if bank:
            return report_bank(hls_res, out, cache, cache_path, points)
        rc = report(hls_res, out, cache, cache_path, points)
        if not quick:
            # drop results of old sources and of points no longer listed
            used = set(point_key(m, p) for m, p in points)
            used |= dsp_chain_synth.keys()
            with open(cache_path, "w") as f:
                json.dump({k: v for k, v in cache.items() if k in used}, f, indent=1)
        return rc
    finally:
        shutil.rmtree(snap, ignore_errors=True)


# modules without a descriptor of their own: measured, not predicted
NO_DESC = ("kiln_mac2", "kiln_conv_window")


def measure(hls_res, cache, cache_path, mod, params):
    """(mod, params, measured, predicted, error %) of one point; the
    prediction and error None for a module of NO_DESC."""
    m = run_point(cache, cache_path, mod, params)
    p = None
    if mod not in NO_DESC:
        full = synth.param_defaults(mod)  # what the point leaves at its default
        full.update(params)
        res = subprocess.run([hls_res, mod] + ["%s=%s" % kv for kv in full.items()],
                             capture_output=True, text=True, check=True)
        p = json.loads(res.stdout)
    b36 = m["ramb36"] + m["ramb18"] / 2.0
    e = None
    if p:
        e = {"lut": err(p["lut"], m["lut"]), "ff": err(p["ff"], m["ff"]),
             "dsp": err(p["dsp"], m["dsp"]), "bram": err(p["bram36"], b36)}
    return (mod, params, m, p, e)


BANK_TITLE = "## Banked line buffer (kiln_conv LBBANK)"


def is_bank(mod, params):
    """A point of the banked line buffer's section: LBBANK given."""
    return mod in ("kiln_conv", "kiln_conv_window") and "LBBANK" in params


def bank_section(rows):
    """The section of kiln_conv's banked line buffer: each point with LBBANK
    > 0 beside the same point with LBBANK=0 (PP copies), measured and (the
    engine) predicted, and the difference the banks make."""
    by = {}
    for r in rows:
        if is_bank(r[0], r[1]):
            key = (r[0],) + tuple((k, v) for k, v in r[1].items() if k != "LBBANK")
            by.setdefault(key, {})[r[1]["LBBANK"]] = r
    sec = [BANK_TITLE, "",
           "The points of `bench/synth/points_conv.txt` that set `LBBANK`: kiln_conv as the "
           "planner folds it into kiln_tsconv (`kiln compile ... --fold auto --clk2x auto`, "
           "plan.json `fold.hw`) and its kiln_conv_window alone, each with its banks "
           "(LBBANK > 0) and with the PP copies (LBBANK=0); cfg inputs free, as in the "
           "table above.  `bench/synth/run_all.py HLS_RES --bank` synthesizes these points "
           "only and rewrites this section; `plan_conv_res` (tests/plan/conv_res.py) checks "
           "the model against the recorded figures in CI.  `conv_lut_bank` and "
           "`conv_ff_bank` (hls/desc_conv.c) are fitted on the windows' differences "
           "against copies of one block range (GMAX 2, or 8 at PP 8); against the deep "
           "copies the engines keep (GMAX 64) the differences also hold the copies' read "
           "multiplexers across block ranges, counted by `hls_bram_mux_luts` "
           "(hls/res_util.h: an n:1 multiplexer a bit of the n ranges of the block shape, "
           "eight of 4,096 x 9 at 32,768 words, 256 LUT a copy of 128 bits; the windows' "
           "copies at GMAX 64 against GMAX 2 take 515 and 1,034 LUT at PP 2 and 4, "
           "predicted 512 and 1,024; `plan_conv_res` checks these pairs too).", "",
           "| engine | parameters | LBBANK | LUT | pred | err | FF | pred | err | DSP48E2 | "
           "pred | RAMB36E2 | RAMB18E2 | BRAM36 pred | err |",
           "|" + "---|" * 15]
    diffs = []

    def opt(p, k, f):
        return f % p[k] if p else ""

    for key in by:
        mod, ps = key[0], " ".join("%s=%s" % kv for kv in key[1:])
        for lb in sorted(by[key], key=int, reverse=True):
            mod, params, m, p, e = by[key][lb]
            sec.append("| %s | %s | %s | %d | %s | %s | %d | %s | %s | %d | %s | %d | %d | "
                       "%s | %s |" % (
                           mod, ps, lb, m["lut"], opt(p, "lut", "%.0f"),
                           fmt_err(e["lut"]) if e else "", m["ff"], opt(p, "ff", "%.0f"),
                           fmt_err(e["ff"]) if e else "", m["dsp"], opt(p, "dsp", "%.0f"),
                           m["ramb36"], m["ramb18"], opt(p, "bram36", "%.1f"),
                           fmt_err(e["bram"]) if e else ""))
        banked = [lb for lb in by[key] if lb != "0"]
        if "0" in by[key] and banked:
            a, b = by[key][banked[0]], by[key]["0"]
            pd = (lambda k: "%+.0f" % (a[3][k] - b[3][k])) if a[3] else (lambda k: "")
            diffs.append("| %s | %s | %s | %+d | %s | %+d | %s | %+d | %s | %+.1f | %s |" % (
                mod, ps, banked[0], a[2]["lut"] - b[2]["lut"], pd("lut"),
                a[2]["ff"] - b[2]["ff"], pd("ff"), a[2]["dsp"] - b[2]["dsp"], pd("dsp"),
                a[2]["ramb36"] + a[2]["ramb18"] / 2.0 - b[2]["ramb36"] - b[2]["ramb18"] / 2.0,
                ("%+.1f" % (a[3]["bram36"] - b[3]["bram36"])) if a[3] else ""))
    if diffs:
        sec += ["", "The banks against the copies (LBBANK > 0 minus LBBANK=0):", "",
                "| engine | parameters | LBBANK | LUT | pred | FF | pred | DSP48E2 | pred | "
                "BRAM36 | pred |",
                "|" + "---|" * 11] + diffs
    return sec


def report_bank(hls_res, out, cache, cache_path, points):
    """--bank: the banked points only, their section of out rewritten."""
    rows = [measure(hls_res, cache, cache_path, mod, params) for mod, params in points
            if is_bank(mod, params)]
    with open(out) as f:
        lines = f.read().split("\n")
    sec = bank_section(rows)
    if BANK_TITLE in lines:
        i = lines.index(BANK_TITLE)
        j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
        lines[i:j] = sec + [""]
    else:
        i = next((k for k, l in enumerate(lines) if l.startswith("## ")), len(lines))
        lines[i:i] = sec + [""]
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("wrote", out, "(%d banked points)" % len(rows))
    return 0


def report(hls_res, out, cache, cache_path, points):
    rows, bad = [], 0
    for mod, params in points:
        r = measure(hls_res, cache, cache_path, mod, params)
        mod, params, m, p, e = r
        if e and any(abs(e[k]) > TOL[k] for k in e):
            bad += 1
        rows.append(r)
        print("%-12s %-70s LUT %6d FF %6d DSP %4d B36 %3d B18 %3d depth %s%s" % (
            mod, " ".join("%s=%s" % kv for kv in params.items()), m["lut"], m["ff"], m["dsp"],
            m["ramb36"], m["ramb18"], m["depth"],
            "" if not e else "  err " + " ".join("%s %s" % (k, fmt_err(v)) for k, v in e.items())),
            flush=True)
    sec = [TITLE, "",
           "Generated by `bench/synth/run_all.py` from `bench/synth/points_conv.txt` (yosys 0.23, "
           "`synth_xilinx -family xcup -noiopad -flatten`). Do not edit by hand.", "",
           "BRAM36 = RAMB36E2 + RAMB18E2/2. `depth` is the longest register-to-register path in "
           "cells of the mapped netlist (`bench/synth/depth.py`: yosys `ltp -noff`, but block RAM "
           "and DSP48E2 with MREG/PREG count as registers). Predicted values come from "
           "`resources()` in hls/desc_conv.c; tolerance: DSP and BRAM 15 %%, LUT and FF 30 %%. "
           "%d of %d points outside it. The LUT constants were first fitted on these points "
           "except the two 16x16 ones with RQ_PIPE=4 (PIPE 0 and 4), which check them; FF, "
           "DSP and BRAM follow from the structure (register widths, one DSP48E2 per "
           "multiply or packed pair, block RAM aspect ratios). kiln_conv's LUT base has since "
           "been refitted on the engines as the generated top instantiates them "
           "(`bench/synth/inst_synth.py`: the cfg inputs tied to the plan's constants, whose "
           "shape arithmetic yosys folds), so these points, whose cfg inputs stay free, "
           "measure above the prediction; the in-context figures are in docs/plan.md "
           "(resource model). Every conv point has one requant lane per result (RQS=1) and "
           "its pixel groups row by row (SPAN=0)." % (bad, sum(1 for r in rows if r[3])), "",
           "| engine | parameters | LUT | pred | err | FF | pred | err | DSP48E2 | pred | err | "
           "RAMB36E2 | RAMB18E2 | BRAM36 pred | err | depth |",
           "|" + "---|" * 16]
    for mod, params, m, p, e in rows:
        ps = " ".join("%s=%s" % kv for kv in params.items())
        if p:
            sec.append("| %s | %s | %d | %.0f | %s | %d | %.0f | %s | %d | %.0f | %s | %d | %d | "
                       "%.1f | %s | %s |" % (
                           mod, ps, m["lut"], p["lut"], fmt_err(e["lut"]), m["ff"], p["ff"],
                           fmt_err(e["ff"]), m["dsp"], p["dsp"], fmt_err(e["dsp"]), m["ramb36"],
                           m["ramb18"], p["bram36"], fmt_err(e["bram"]), m["depth"]))
        else:
            sec.append("| %s | %s | %d | | | %d | | | %d | | | %d | %d | | | %s |" % (
                mod, ps, m["lut"], m["ff"], m["dsp"], m["ramb36"], m["ramb18"], m["depth"]))
    sec += [""] + bank_section(rows)
    # logic depth per pipeline setting
    sec += ["", "## Logic depth per pipeline setting", "",
            "Cells on the longest register-to-register path (same points as above). "
            "`kiln_requant` PIPE is the requant stage count; in `kiln_conv` PIPE registers "
            "adder-tree levels and RQ_PIPE is the requant's.", "",
            "| engine | PE / lanes | PP | WBANKS | PACK | PIPE | RQ_PIPE | depth | latency |",
            "|---|---|---|---|---|---|---|---|---|"]
    for mod, params, m, p, e in rows:
        if mod == "kiln_requant":
            sec.append("| kiln_requant | %s | | | | %s | | %s | %s |" % (
                params["LANES"], params["PIPE"], m["depth"], p["latency"]))
        elif mod == "kiln_conv":
            sec.append("| kiln_conv | %sx%s | %s | %s | %s | %s | %s | %s | %s |" % (
                params["PE_OC"], params["PE_IC"], params["PP"], params["WBANKS"],
                params["PACK"], params["PIPE"],
                params["RQ_PIPE"], m["depth"], p["latency"]))
    sec += [""] + dsp_chain_synth.section(cache, cache_path)
    sec += ["", "Stream engines: `docs/rtl-stream-resources.md` (`bench/synth/stream_synth.py`)."]
    with open(out, "w") as f:
        f.write("\n".join(sec) + "\n")
    print("wrote", out, "(%d points outside tolerance)" % bad)
    return 0


if __name__ == "__main__":
    sys.exit(main())
