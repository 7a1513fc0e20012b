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
be checked.  Modules without a descriptor (run_all.NO_DESC) are skipped.

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
    print("%d points checked, %d outside the tolerance or missing" % (checked, bad))
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
