#!/usr/bin/env python3
"""Writes the picture fixtures of Fixtures/pictures/ (the project's own pictures, no third-party
images): one small drawing in each format shopy decodes, plus the 1000×1000 JPEG the benchmark
draws. Needs Pillow (pip install Pillow); the files are committed, so tests do not need it.

    python3 Scripts/make-picture-fixtures.py
"""
import os
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Fixtures", "pictures")


def drawing(width, height):
    """Four coloured quadrants and a white disc: easy to recognise in symbols, exact in tests."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    w, h = width // 2, height // 2
    draw.rectangle([0, 0, w - 1, h - 1], fill=(220, 40, 40))
    draw.rectangle([w, 0, width - 1, h - 1], fill=(40, 180, 60))
    draw.rectangle([0, h, w - 1, height - 1], fill=(40, 80, 220))
    draw.rectangle([w, h, width - 1, height - 1], fill=(240, 200, 40))
    r = min(width, height) // 5
    draw.ellipse([width // 2 - r, height // 2 - r, width // 2 + r, height // 2 + r], fill=(255, 255, 255))
    return image


def main():
    os.makedirs(OUT, exist_ok=True)
    small = drawing(64, 48)
    small.save(os.path.join(OUT, "quadrants.jpg"), quality=90)
    small.save(os.path.join(OUT, "quadrants.png"))
    small.save(os.path.join(OUT, "quadrants.webp"), lossless=True)
    # A GIF of two frames: the first is the drawing, the second solid black (shopy shows the first).
    black = Image.new("RGB", (64, 48))
    small.convert("P", palette=Image.ADAPTIVE, colors=8).save(
        os.path.join(OUT, "quadrants.gif"), save_all=True,
        append_images=[black.convert("P", palette=Image.ADAPTIVE, colors=2)], duration=500, loop=0)
    small.save(os.path.join(OUT, "quadrants-progressive.jpg"), quality=90, progressive=True)
    # The benchmark's picture: a 1000×1000 JPEG with some texture (a smooth one is unusually cheap).
    big = drawing(1000, 1000)
    draw = ImageDraw.Draw(big)
    for i in range(0, 1000, 25):
        draw.line([(i, 0), (1000 - i, 1000)], fill=(i % 255, (i * 3) % 255, (i * 7) % 255), width=3)
    big.save(os.path.join(OUT, "bench-1000.jpg"), quality=85)


if __name__ == "__main__":
    main()
