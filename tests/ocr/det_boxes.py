#!/usr/bin/env python3
"""Text boxes from a PP-OCR detector's probability map, as PaddleOCR's
DBPostProcess starts: pixels above the threshold (0.3), 4-connected
regions, each region's bounding box grown by the unclip ratio the
detector's shrunk text kernels need (PaddleOCR's 1.5: the box grows by
area x 1.5 / perimeter on every side), boxes smaller than 3 pixels or
with a mean probability below 0.6 dropped.

usage: det_boxes.py MAP.npy [--gt GT.json] [--ref MAP2.npy] [--json OUT]
prints the boxes; with --gt the recall and precision at IoU >= 0.5 against
the JSON's boxes (text_page.py's); with --ref the same against MAP2's
boxes.
"""
import argparse
import json
import os
import sys

import numpy as np

# the IoU of two corner boxes, as the face detector's checks compute it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "face"))
from box_iou import iou  # noqa: E402


def boxes_of(prob, thresh=0.3, box_thresh=0.6, unclip=1.5):
    h, w = prob.shape
    mask = prob > thresh
    label = np.zeros((h, w), dtype=np.int32)
    boxes, n = [], 0
    for sy, sx in zip(*np.nonzero(mask)):
        if label[sy, sx]:
            continue
        n += 1
        stack, pts = [(sy, sx)], []
        label[sy, sx] = n
        while stack:
            y, x = stack.pop()
            pts.append((y, x))
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not label[ny, nx]:
                    label[ny, nx] = n
                    stack.append((ny, nx))
        ys, xs = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
        x0, y0, x1, y1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
        if min(x1 - x0, y1 - y0) < 3 or prob[ys, xs].mean() < box_thresh:
            continue
        d = (x1 - x0) * (y1 - y0) * unclip / (2 * ((x1 - x0) + (y1 - y0)))
        boxes.append([float(max(0, x0 - d)), float(max(0, y0 - d)),
                      float(min(w, x1 + d)), float(min(h, y1 + d))])
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def agree(found, ref):
    """(matched, mean IoU of the matches): greedy one-to-one at IoU >= 0.5."""
    used, ious = set(), []
    for r in ref:
        best, bj = 0.5, -1
        for j, f in enumerate(found):
            if j not in used and iou(r, f) >= best:
                best, bj = iou(r, f), j
        if bj >= 0:
            used.add(bj)
            ious.append(best)
    return len(ious), (sum(ious) / len(ious) if ious else 0.0)


def load_map(path):
    m = np.load(path)
    if m.ndim != 4 or m.shape[0] != 1 or m.shape[1] != 1:
        raise ValueError(f"expected a [1, 1, H, W] map, got {list(m.shape)}")
    return m[0, 0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("map")
    ap.add_argument("--gt")
    ap.add_argument("--ref")
    ap.add_argument("--json")
    a = ap.parse_args()
    try:
        found = boxes_of(load_map(a.map))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(found, f)
        print(f"{len(found)} boxes")
        for name, path in (("gt", a.gt), ("ref", a.ref)):
            if not path:
                continue
            if name == "gt":
                with open(path) as f:
                    ref = [t["box"] for t in json.load(f)]
            else:
                ref = boxes_of(load_map(path))
            m, mi = agree(found, ref)
            print(f"{name}: recall {m}/{len(ref)} precision {m}/{len(found)} mean IoU {mi:.4f}")
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"det_boxes.py: {e}")


if __name__ == "__main__":
    main()
