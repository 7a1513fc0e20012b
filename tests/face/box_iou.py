#!/usr/bin/python3
"""Check that two detection files hold the same boxes: IoU per box.

  box_iou.py GOT.json WANT.json [--min-iou 0.9]

Each file is a JSON object with a list "boxes" (or "detections"), or a bare
list.  A box is an object with x, y, w, h (or x, y, width, height; top-left
corner and size) or x0, y0, x1, y1 (kiln-infer's detections.json; or x1,
y1, x2, y2, or left, top, right, bottom), in image
pixels; other keys (score, class) are ignored.  Boxes are paired one to one,
the pair of highest IoU first.  Prints a line per box of WANT with its IoU
against the GOT box paired with it and the smallest IoU; exits 0 when both
files hold as many boxes and every pair's IoU >= --min-iou, 1 when not, 2
when a file cannot be read (with the file and the box named).
"""
import argparse
import json
import sys

TOOL = "box_iou.py"


class BoxError(Exception):
    """A file that cannot be read as boxes."""


def corners(box, where):
    """(x1, y1, x2, y2) of one box object."""
    if not isinstance(box, dict):
        raise BoxError("%s: not an object" % where)
    for keys in (("x", "y", "w", "h"), ("x", "y", "width", "height")):
        if all(k in box for k in keys):
            x, y, w, h = (number(box[k], where, k) for k in keys)
            return x, y, x + w, y + h
    for keys in (("x0", "y0", "x1", "y1"), ("x1", "y1", "x2", "y2"),
                 ("left", "top", "right", "bottom")):
        if all(k in box for k in keys):
            return tuple(number(box[k], where, k) for k in keys)
    raise BoxError("%s: needs x, y, w, h or x0, y0, x1, y1 or x1, y1, x2, y2" % where)


def number(v, where, key):
    """v as a float, or an error naming the box and key."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise BoxError("%s: %s is not a number" % (where, key))
    return float(v)


def load(path):
    """The boxes of a detection file, as corner tuples."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise BoxError("%s: cannot read: %s" % (path, e)) from e
    boxes = doc
    if isinstance(doc, dict):
        boxes = doc.get("boxes", doc.get("detections"))
    if not isinstance(boxes, list):
        raise BoxError("%s: no list of boxes (\"boxes\" or \"detections\")" % path)
    return [corners(b, "%s: box %d" % (path, i)) for i, b in enumerate(boxes)]


def iou(a, b):
    """Intersection over union of two corner boxes (0 when both are empty)."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def pair(got, want):
    """want index -> (got index, IoU), pairs of highest IoU first, one to one."""
    cands = sorted(((iou(g, w), gi, wi) for gi, g in enumerate(got) for wi, w in enumerate(want)),
                   reverse=True)
    used_g, paired = set(), {}
    for v, gi, wi in cands:
        if gi not in used_g and wi not in paired:
            used_g.add(gi)
            paired[wi] = (gi, v)
    return paired


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("got")
    ap.add_argument("want")
    ap.add_argument("--min-iou", type=float, default=0.9)
    a = ap.parse_args()
    try:
        got, want = load(a.got), load(a.want)
    except BoxError as e:
        print("%s: %s" % (TOOL, e), file=sys.stderr)
        return 2
    paired = pair(got, want)
    worst = 1.0
    for wi, w in enumerate(want):
        gi, v = paired.get(wi, (None, 0.0))
        worst = min(worst, v)
        print("box %d (%.1f %.1f %.1f %.1f): %s" % (
            wi, w[0], w[1], w[2] - w[0], w[3] - w[1],
            "IoU %.4f with got box %d" % (v, gi) if gi is not None else "no box paired"))
    ok = len(got) == len(want) and worst >= a.min_iou
    print("%s: %d boxes got, %d wanted, smallest IoU %.4f (min %g): %s" % (
        TOOL, len(got), len(want), worst, a.min_iou, "match" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
