#!/usr/bin/env python3
"""The glue of reading a page with the detector and the recognizer.

  page_ocr.py crop PAGE.png BOXES.json DIR
      crops each box (det_boxes.py --json) out of the page as DIR/cI.png
      and prints how many.
  page_ocr.py score GT.json BOXES.json READ.txt [GT.json BOXES.json READ.txt ...]
      each rendered line (text_page.py's JSON) takes the text read
      (ctc_decode.py's lines, one per box) from the box that overlaps it
      most at IoU >= 0.5, or nothing; prints "lines E of N cer C" over all
      pages: lines read exactly and the character error rate (edit
      distance over the reference's characters; a missed line counts all
      of its characters).
"""
import json
import re
import sys

from PIL import Image

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ctc_decode import edit_distance  # noqa: E402
from det_boxes import iou  # noqa: E402


def crop(page, boxes, out):
    img = Image.open(page).convert("RGB")
    with open(boxes) as f:
        bs = json.load(f)
    for i, b in enumerate(bs):
        img.crop(tuple(int(round(v)) for v in b)).save(f"{out}/c{i}.png")
    print(len(bs))


def score(triples):
    exact = errs = chars = lines = 0
    for gt_path, box_path, read_path in triples:
        with open(gt_path) as f:
            gt = json.load(f)
        with open(box_path) as f:
            boxes = json.load(f)
        with open(read_path, encoding="utf-8") as f:
            texts = []
            for k, line in enumerate(f):
                m = re.match(r"text '(.*)' conf", line)
                if not m:
                    raise ValueError(f"{read_path}:{k + 1}: not a ctc_decode.py line")
                texts.append(m.group(1))
        if len(texts) != len(boxes):
            raise ValueError(f"{read_path}: {len(texts)} texts for {len(boxes)} boxes")
        for g in gt:
            best = max(range(len(boxes)), key=lambda j: iou(g["box"], boxes[j]), default=-1)
            t = texts[best] if best >= 0 and iou(g["box"], boxes[best]) >= 0.5 else ""
            e = edit_distance(t, g["text"])
            exact += e == 0
            errs += e
            chars += len(g["text"])
            lines += 1
    print(f"lines {exact} of {lines} cer {errs / max(1, chars):.4f}")


def main():
    a = sys.argv[1:]
    try:
        if len(a) == 4 and a[0] == "crop":
            crop(*a[1:])
        elif len(a) >= 4 and a[0] == "score" and (len(a) - 1) % 3 == 0:
            score([a[i:i + 3] for i in range(1, len(a), 3)])
        else:
            sys.exit(__doc__)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"page_ocr.py: {e}")


if __name__ == "__main__":
    main()
