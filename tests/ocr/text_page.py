#!/usr/bin/env python3
"""Renders lines of text onto a page for the text detector: dark text on a
light, slightly textured background, each line at its own place and size,
and writes the page (PNG) and the lines' boxes and texts (JSON: a list of
{"text", "box": [x0, y0, x1, y1]} in page pixels).

usage: text_page.py OUT.png OUT.json [--size WxH] [--seed S] TEXT...
"""
import argparse
import json
import random

from PIL import Image, ImageDraw, ImageFont

from text_line import FONT_DIR, size

FONTS = ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Bold.ttf"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("png")
    ap.add_argument("json")
    ap.add_argument("texts", nargs="+")
    ap.add_argument("--size", type=size, default="640x640")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    w, h = a.size
    rng = random.Random(a.seed)
    img = Image.new("RGB", (w, h), (240, 238, 230))
    draw = ImageDraw.Draw(img)
    for _ in range(w * h // 200):  # paper grain
        x, y, g = rng.randrange(w), rng.randrange(h), rng.randrange(215, 240)
        draw.point((x, y), fill=(g, g, g - 8))
    pitch = h // len(a.texts)
    out = []
    for i, text in enumerate(a.texts):
        pt = rng.randrange(max(10, pitch // 3), max(11, pitch * 3 // 5))
        font = ImageFont.truetype(FONT_DIR + FONTS[i % len(FONTS)], pt)
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
        while x1 - x0 > w - 16 and pt > 8:
            pt -= 1
            font = ImageFont.truetype(FONT_DIR + FONTS[i % len(FONTS)], pt)
            x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
        px = rng.randrange(8, max(9, w - 8 - (x1 - x0)))
        py = i * pitch + (pitch - (y1 - y0)) // 2
        draw.text((px - x0, py - y0), text, font=font, fill=(25, 25, 30))
        out.append({"text": text, "box": [px, py, px + x1 - x0, py + y1 - y0]})
    img.save(a.png)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
