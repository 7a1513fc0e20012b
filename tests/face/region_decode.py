#!/usr/bin/python3
"""Decode a YOLOv2 region head of face-api's tiny face detector into boxes.

  region_decode.py HEAD.npy --width W --height H [--score-threshold 0.5]
                   [--iou-threshold 0.4] -o BOXES.json

HEAD.npy is the raw head, NCHW [1, 25, n, n] for an input of S = 32 n: 5
anchors, channel a*5+k is entry k (x, y, w, h, obj) of anchor a, one class
and no class entries.  W x H is the photo the input was made from: padded to
a square on the bottom or right, then resized to S.  Per cell (row, col) and
anchor: score = sigmoid(obj), kept when > the score threshold; centre
((col, row) + sigmoid(x, y)) / n, size anchor * exp(w, h) / n, then scaled by
S / round(W S / max(W, H)) across and S / round(H S / max(W, H)) down (the
padding undone) and by W, H to pixels.  Greedy non-maximum suppression by
descending score drops a box whose IoU with a kept one is > the IoU
threshold.  These are the facts docs/face.md gives for the driver; this
script checks them against face-api's own boxes (tests/face/cases).

Writes {"width", "height", "boxes": [{"x", "y", "w", "h", "score"}]} (x, y
the top-left corner, pixels; by descending score), box_iou.py's format.
"""
import argparse
import json
import os
import sys

import numpy as np

TOOL = "region_decode.py"
ANCHORS = [(1.603231, 2.094468), (6.041143, 7.080126), (2.882459, 3.518061),
           (4.266906, 5.178857), (9.041765, 10.66308)]


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def candidates(head, width, height, thresh):
    """(score, x1, y1, x2, y2) in pixels of every anchor over the threshold."""
    n = head.shape[2]
    size = 32 * n
    scale = size / max(width, height)
    cx_fix = size / round(width * scale)
    cy_fix = size / round(height * scale)
    out = []
    for row in range(n):
        for col in range(n):
            for a, (aw, ah) in enumerate(ANCHORS):
                t = head[0, a * 5:a * 5 + 5, row, col].astype(np.float64)
                score = sigmoid(t[4])
                if score <= thresh:
                    continue
                cx = (col + sigmoid(t[0])) / n * cx_fix
                cy = (row + sigmoid(t[1])) / n * cy_fix
                w = aw * np.exp(t[2]) / n * cx_fix
                h = ah * np.exp(t[3]) / n * cy_fix
                x, y = cx - w / 2, cy - h / 2
                out.append((float(score), x * width, y * height, (x + w) * width, (y + h) * height))
    return out


def iou(a, b):
    w = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    h = max(0.0, min(a[4], b[4]) - max(a[2], b[2]))
    inter = w * h
    union = (a[3] - a[1]) * (a[4] - a[2]) + (b[3] - b[1]) * (b[4] - b[2]) - inter
    return inter / union if union > 0 else 0.0


def nms(boxes, thresh):
    """Greedy by descending score: a box whose IoU with a kept box is above
    thresh is dropped."""
    kept = []
    for b in sorted(boxes, key=lambda b: -b[0]):
        if all(iou(b, k) <= thresh for k in kept):
            kept.append(b)
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("head")
    ap.add_argument("--width", type=int, required=True, help="the photo's width in pixels")
    ap.add_argument("--height", type=int, required=True, help="the photo's height in pixels")
    ap.add_argument("--score-threshold", type=float, default=0.5)
    ap.add_argument("--iou-threshold", type=float, default=0.4)
    ap.add_argument("-o", dest="out", required=True, help="boxes JSON to write")
    a = ap.parse_args()
    try:
        head = np.load(a.head)
    except (OSError, ValueError) as e:
        sys.exit("%s: %s: cannot read: %s" % (TOOL, a.head, e))
    if head.ndim != 4 or head.shape[0] != 1 or head.shape[1] != 5 * len(ANCHORS) \
            or head.shape[2] != head.shape[3]:
        sys.exit("%s: %s: shape %s, expected [1, 25, n, n]" % (TOOL, a.head, list(head.shape)))
    if a.width < 1 or a.height < 1:
        sys.exit("%s: --width and --height must be positive" % TOOL)
    kept = nms(candidates(head, a.width, a.height, a.score_threshold), a.iou_threshold)
    doc = {"width": a.width, "height": a.height,
           "boxes": [{"x": b[1], "y": b[2], "w": b[3] - b[1], "h": b[4] - b[2], "score": b[0]}
                     for b in kept]}
    with open(a.out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(a.out + ".tmp", a.out)
    print("%s: %d boxes -> %s" % (TOOL, len(kept), a.out))


if __name__ == "__main__":
    main()
