#!/usr/bin/env python3
"""Greedy CTC decoding of a PP-OCR recognizer's output, as PaddleOCR's
CTCLabelDecode does: the argmax class of every time step, repeats merged,
blanks dropped; class 0 is the blank, 1..N the lines of the key file and
N+1 the space.

usage: ctc_decode.py OUT.npy KEYS.txt [--ref TEXT]
prints the text, its mean probability, and with --ref the character error
rate (edit distance over the reference's length).
"""
import argparse
import sys

import numpy as np


def decode(probs, keys):
    chars = [""] + keys + [" "]
    if probs.ndim != 3 or probs.shape[0] != 1 or probs.shape[2] != len(chars):
        raise ValueError(f"expected [1, T, {len(chars)}] probabilities, got {list(probs.shape)}")
    idx = probs[0].argmax(axis=1)
    out, conf, prev = [], [], -1
    for t, c in enumerate(idx):
        if c != prev and c != 0:
            out.append(chars[c])
            conf.append(float(probs[0, t, c]))
        prev = c
    return "".join(out), (sum(conf) / len(conf) if conf else 0.0)


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(b)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("npy")
    ap.add_argument("keys")
    ap.add_argument("--ref")
    a = ap.parse_args()
    try:
        probs = np.load(a.npy)
        with open(a.keys, encoding="utf-8") as f:
            keys = f.read().split("\n")
        if keys and keys[-1] == "":
            keys.pop()
        text, conf = decode(probs, keys)
    except (OSError, ValueError) as e:
        sys.exit(f"ctc_decode.py: {a.npy}: {e}")
    line = f"text '{text}' conf {conf:.4f}"
    if a.ref is not None:
        cer = edit_distance(text, a.ref) / max(1, len(a.ref))
        line += f" cer {cer:.4f}"
    print(line)


if __name__ == "__main__":
    main()
