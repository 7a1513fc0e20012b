#!/usr/bin/env python3
"""Write N image-like calibration inputs (.npy) for the bundled YOLOv3-tiny.

RUN: /usr/bin/python3 bench/quant/make_calib.py OUT_DIR [--n 32] [--size 416]

The images come from the same generator as the bundled model's input
(tests/models/gen_yolov3_tiny.py image_like), with seeds 5000.. so none is
the evaluation input (seed 1001).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "models"))
from gen_yolov3_tiny import image_like  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=32)
    ap.add_argument("--size", type=int, default=416)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.n):
        x = image_like(np.random.RandomState(5000 + i), 3, a.size)
        np.save(os.path.join(a.out, "calib%03d.npy" % i), x)


if __name__ == "__main__":
    main()
