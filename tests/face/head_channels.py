#!/usr/bin/python3
"""How far one face head is from another, per entry of the anchors.

  head_channels.py GOT.npy WANT.npy [--max-wh-rel-l2 R]

Both are [1, 25, n, n] heads of the tiny face detector: channel a*5+k is
entry k (x, y, w, h, obj) of anchor a (docs/face.md).  Prints the relative
L2 distance of GOT from WANT over the five anchors' x, y, w, h and obj
channels, and over w and h together (the box sizes, exp(w) and exp(h));
exits 1 when that last figure is above --max-wh-rel-l2, 2 when a file cannot
be read.
"""
import argparse
import sys

import numpy as np

TOOL = "head_channels.py"
ENTRIES = ("x", "y", "w", "h", "obj")


def load(path):
    """The head as [25, n*n] float64."""
    try:
        a = np.load(path)
    except (OSError, ValueError) as e:
        print("%s: %s: cannot read: %s" % (TOOL, path, e), file=sys.stderr)
        sys.exit(2)
    if a.ndim != 4 or a.shape[0] != 1 or a.shape[1] != 25:
        print("%s: %s: shape %s, not [1, 25, n, n]" % (TOOL, path, a.shape), file=sys.stderr)
        sys.exit(2)
    return a.reshape(25, -1).astype(np.float64)


def rel_l2(got, want, chans):
    """Relative L2 of got from want over the channels chans."""
    num = float(((got[chans] - want[chans]) ** 2).sum())
    den = float((want[chans] ** 2).sum())
    return (num / den) ** 0.5 if den > 0 else float("inf")


def main():
    ap = argparse.ArgumentParser(description="per-entry distance of two face heads")
    ap.add_argument("got")
    ap.add_argument("want")
    ap.add_argument("--max-wh-rel-l2", type=float, default=None)
    a = ap.parse_args()
    got, want = load(a.got), load(a.want)
    if got.shape != want.shape:
        print("%s: shapes %s and %s differ" % (TOOL, got.shape, want.shape), file=sys.stderr)
        sys.exit(2)
    parts = ["%s %.4f" % (e, rel_l2(got, want, [k + 5 * i for i in range(5)]))
             for k, e in enumerate(ENTRIES)]
    wh = rel_l2(got, want, [k + 5 * i for i in range(5) for k in (2, 3)])
    print("%s: rel-L2 per entry: %s; w and h together %.4f" % (TOOL, ", ".join(parts), wh))
    if a.max_wh_rel_l2 is not None and not wh <= a.max_wh_rel_l2:
        print("%s: w and h rel-L2 %.4f above %g" % (TOOL, wh, a.max_wh_rel_l2))
        sys.exit(1)


main()
