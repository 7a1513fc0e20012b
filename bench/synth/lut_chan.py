#!/usr/bin/env python3
"""kiln_lut with a table per channel (CHANS > 0) through yosys synth_xilinx
-family xcup (bench/synth/synth.py's counting) against its descriptor
(hls/desc_stream.c, through kiln_hls_res): LUT and FF per point, measured,
predicted and the error.  The tables are HardSwish-shaped, each channel on
its own scale (a seeded spread over three decades), as --channel-scales
auto makes them; the padding channels' tables zeros, as the generated top
writes them.

usage: lut_chan.py HLS_RES [LANES,CHANS ...]   (default 8,8 8,16 8,32 4,16 2,16 4,96)
"""
import json
import os
import random
import re
import subprocess
import sys

import synth

synth.SOURCES.setdefault("kiln_lut", ["kiln_lut.v", "kiln_fifo.v"])


def bram_cg():
    """The plan's BRAM_CG for every kiln_lut: hls/hw.h's HLS_HW_LUT_BRAM_CG."""
    with open(os.path.join(synth.HERE, "..", "..", "hls", "hw.h")) as f:
        return int(re.search(r"#define HLS_HW_LUT_BRAM_CG (\d+)", f.read()).group(1))


def table_param(lanes, chans):
    """TABLE of a kiln_lut with CHANS chans on LANES lanes: the last
    table's entry 255 first."""
    nt = (chans + lanes - 1) // lanes * lanes
    r = random.Random(5)
    ent = []
    for c in range(nt):
        s = 10 ** r.uniform(-2, 1)
        for k in range(256):
            if c >= chans:
                ent.append(0)
                continue
            x = (k - 128) * s * 0.05
            y = x * min(max(x + 3, 0), 6) / 6
            ent.append(max(-128, min(127, round(y / (s * 0.05 * 1.2)))) & 0xFF)
    return "%d'h%s" % (2048 * nt, "".join("%02x" % v for v in reversed(ent)))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    res = sys.argv[1]
    points = [tuple(int(v) for v in a.split(",")) for a in sys.argv[2:]] or \
        [(8, 8), (8, 16), (8, 32), (4, 16), (2, 16), (4, 96)]
    print("| LANES | CHANS | LUT yosys | LUT model | err | FF yosys | FF model | err | BRAM36 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    cg = bram_cg()
    for lanes, chans in points:
        m = synth.synth("kiln_lut", {"LANES": lanes, "CHANS": chans, "BRAM_CG": cg,
                                     "TABLE": table_param(lanes, chans)})
        out = subprocess.run([res, "kiln_lut", "LANES=%d" % lanes, "CHANS=%d" % chans,
                              "BRAM_CG=%d" % cg],
                             capture_output=True, text=True, check=True).stdout
        p = json.loads(out)
        bram = m["ramb36"] + m["ramb18"] / 2.0
        print("| %d | %d | %d | %.0f | %+.1f%% | %d | %.0f | %+.1f%% | %.1f (model %.1f) |" % (
            lanes, chans, m["lut"], p["lut"], 100.0 * (p["lut"] - m["lut"]) / m["lut"],
            m["ff"], p["ff"], 100.0 * (p["ff"] - m["ff"]) / m["ff"], bram, p["bram36"]),
            flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
