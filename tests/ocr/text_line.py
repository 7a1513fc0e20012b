#!/usr/bin/env python3
"""Renders a line of text as a PNG the recognizer can read: dark text on a
light background, the line's height about two thirds of the image's, the
font size shrunk until the line fits the width.

usage: text_line.py OUT.png TEXT [--font TTF] [--size WxH] [--fg R,G,B] [--bg R,G,B]
"""
import argparse
import sys

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"


def size(s):
    """WxH as (w, h): --size of this script and of text_page.py."""
    try:
        w, h = (int(x) for x in s.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, got '{s}'") from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"expected WxH above 0, got '{s}'")
    return w, h


def rgb(s):
    v = [int(x) for x in s.split(",")]
    if len(v) != 3 or any(c < 0 or c > 255 for c in v):
        raise argparse.ArgumentTypeError(f"expected R,G,B in 0..255, got '{s}'")
    return tuple(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("text")
    ap.add_argument("--font", default=FONT_DIR + "DejaVuSans.ttf")
    ap.add_argument("--size", type=size, default="320x48")
    ap.add_argument("--fg", type=rgb, default=(20, 20, 20))
    ap.add_argument("--bg", type=rgb, default=(245, 245, 240))
    a = ap.parse_args()
    w, h = a.size
    img = Image.new("RGB", (w, h), a.bg)
    draw = ImageDraw.Draw(img)
    pt = int(h * 0.75)
    while pt > 6:
        font = ImageFont.truetype(a.font, pt)
        x0, y0, x1, y1 = draw.textbbox((0, 0), a.text, font=font)
        if x1 - x0 <= w - 8 and y1 - y0 <= h - 6:
            break
        pt -= 1
    else:
        sys.exit(f"text_line.py: '{a.text}' does not fit {w}x{h}")
    draw.text((4 - x0, (h - (y1 - y0)) // 2 - y0), a.text, font=font, fill=a.fg)
    img.save(a.out)


if __name__ == "__main__":
    main()
