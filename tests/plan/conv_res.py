#!/usr/bin/env python3
"""The conv-family resource model (hls/desc_conv.c and the other
descriptors, through kiln_hls_res) against the yosys figures recorded in
docs/synth-cache.json, without running yosys: every point of
bench/synth/points_conv.txt with a recorded result must be within
bench/synth/run_all.py's tolerances (TOL: DSP and BRAM36 15 %, LUT and FF
30 %).  A point is matched by its module and parameters; the cache key's
source hash is not compared (the figures are the last ones
bench/synth/run_all.py or its points recorded).  Points the cache does not
hold are listed and not checked, but a point that sets a parameter named
by --require (e.g. LBBANK) must be recorded, and at least one point must
be checked.  Modules without a descriptor (run_all.NO_DESC) are skipped,
but the recorded kiln_conv_window points with the PP copies (LBBANK=0)
that differ only in GMAX check the copies' read multiplexers across block
ranges (hls_bram_mux_luts): yosys's LUT and FF differences between the two
against kiln_conv's predicted differences at CIMAX = LANES x GMAX, within
5% or 32 LUT (FF within 4); at least one such pair must differ.

usage: conv_res.py HLS_RES [--require NAME]...
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(SRC, "bench", "synth"))
import synth  # noqa: E402
import run_all  # noqa: E402

POINTS = os.path.join(SRC, "bench", "synth", "points_conv.txt")
CACHE = os.path.join(SRC, "docs", "synth-cache.json")


def point_name(mod, params):
    """run_all.point_key() without its source hash."""
    return "%s %s" % (mod, " ".join("%s=%s" % kv for kv in sorted(params.items())))


def conv_pred(hls_res, params):
    """kiln_conv's predicted resources (a dict) for params over its defaults."""
    full = synth.param_defaults("kiln_conv")
    full.update(params)
    res = subprocess.run([hls_res, "kiln_conv"] + ["%s=%s" % kv for kv in full.items()],
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise ValueError(res.stderr.strip())
    return json.loads(res.stdout)


def check_lb_mux(hls_res, recorded):
    """The copies' read multiplexers: (pairs checked, pairs outside)."""
    groups = {}
    for name, m in recorded.items():
        f = name.split()
        if f[0] != "kiln_conv_window":
            continue
        q = dict(kv.split("=", 1) for kv in f[1:])
        if q.get("LBBANK") != "0":
            continue
        g = int(q.pop("GMAX"))
        groups.setdefault(tuple(sorted(q.items())), {})[g] = m
    checked = bad = moved = 0
    for key, byg in sorted(groups.items()):
        if len(byg) < 2:
            continue
        q = dict(key)
        lo, hi = min(byg), max(byg)
        conv = {"PE_IC": q["LANES"], "KMAX": q["KMAX"], "WMAX": q["WMAX"], "PP": q["PP"],
                "SPAN": q["SPAN"], "LBBANK": "0", "WDEPTH": "512"}
        pa = conv_pred(hls_res, dict(conv, CIMAX=str(int(q["LANES"]) * lo)))
        pb = conv_pred(hls_res, dict(conv, CIMAX=str(int(q["LANES"]) * hi)))
        dl, df = byg[hi]["lut"] - byg[lo]["lut"], byg[hi]["ff"] - byg[lo]["ff"]
        ml, mf = pb["lut"] - pa["lut"], pb["ff"] - pa["ff"]
        out = abs(ml - dl) > max(0.05 * abs(dl), 32) or abs(mf - df) > 4
        print("kiln_conv_window %s LBBANK=0, GMAX %d -> %d: yosys LUT %+d FF %+d; model LUT %+.0f "
              "FF %+.0f%s" % (" ".join("%s=%s" % kv for kv in key if kv[0] != "LBBANK"), lo, hi,
                              dl, df, ml, mf, "  OUTSIDE" if out else ""))
        checked += 1
        bad += out
        moved += ml != 0
    if not moved:
        print("conv_res: no recorded pair of kiln_conv_window copies across block ranges")
        bad += 1
    return checked, bad


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    hls_res = args[0]
    require = [args[i + 1] for i, a in enumerate(args) if a == "--require" and i + 1 < len(args)]
    try:
        files, points = synth.read_points(POINTS)
    except (OSError, ValueError) as e:
        print("conv_res: %s: %s" % (POINTS, e), file=sys.stderr)
        return 2
    synth.SOURCES.update(files)
    try:
        with open(CACHE) as f:
            cache = json.load(f)
    except (OSError, ValueError) as e:
        print("conv_res: %s: %s" % (CACHE, e), file=sys.stderr)
        return 2
    recorded = {}
    for key, v in cache.items():
        recorded[key.rsplit(" src=", 1)[0]] = v
    checked = bad = 0
    for mod, params in points:
        if mod in run_all.NO_DESC:
            continue  # measured only
        name = point_name(mod, params)
        m = recorded.get(name)
        if m is None:
            if any(r in params for r in require):
                print("conv_res: %s: not recorded in %s (bench/synth/run_all.py)" % (name, CACHE))
                bad += 1
            else:
                print("not recorded: %s" % name)
            continue
        full = synth.param_defaults(mod)
        full.update(params)
        res = subprocess.run([hls_res, mod] + ["%s=%s" % kv for kv in full.items()],
                             capture_output=True, text=True, check=False)
        if res.returncode != 0:
            print("conv_res: %s: %s" % (name, res.stderr.strip()))
            bad += 1
            continue
        p = json.loads(res.stdout)
        b36 = m["ramb36"] + m["ramb18"] / 2.0
        e = {"lut": run_all.err(p["lut"], m["lut"]), "ff": run_all.err(p["ff"], m["ff"]),
             "dsp": run_all.err(p["dsp"], m["dsp"]), "bram": run_all.err(p["bram36"], b36)}
        out = [k for k in e if abs(e[k]) > run_all.TOL[k]]
        print("%s: yosys LUT %d FF %d DSP %d BRAM36 %.1f; model LUT %.0f FF %.0f DSP %.0f "
              "BRAM36 %.1f; err %s%s" % (
                  name, m["lut"], m["ff"], m["dsp"], b36, p["lut"], p["ff"], p["dsp"],
                  p["bram36"], " ".join("%s %s" % (k, run_all.fmt_err(v)) for k, v in e.items()),
                  "  OUTSIDE (%s)" % ", ".join(out) if out else ""))
        checked += 1
        bad += bool(out)
    try:
        c, b = check_lb_mux(hls_res, recorded)
    except ValueError as e:
        print("conv_res: kiln_conv_window copies: %s" % e)
        c, b = 0, 1
    checked += c
    bad += b
    print("%d points checked, %d outside the tolerance or missing" % (checked, bad))
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
