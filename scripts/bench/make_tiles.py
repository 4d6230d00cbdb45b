#!/usr/bin/env python3
"""Tiles for the map benchmark: every tile of zooms LO..HI that a map of the given size and
scale around (LAT, LON) can touch, drawn with Pillow so that they compress like real map tiles
(flat land colour, roads, water, a label), and seeded so every run makes the same bytes."""
import math, os, random, sys
from PIL import Image, ImageDraw

out, lat, lon, lo, hi, half_km = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])


def tile_xy(lat, lon, z):
    n = 2 ** z
    x = (lon + 180) / 360 * n
    y = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n
    return x, y


count = 0
for z in range(lo, hi + 1):
    dlat = half_km / 111.32
    dlon = half_km / (111.32 * math.cos(math.radians(lat)))
    x0, y0 = tile_xy(lat + dlat, lon - dlon, z)
    x1, y1 = tile_xy(lat - dlat, lon + dlon, z)
    for x in range(int(x0) - 1, int(x1) + 2):
        os.makedirs(f"{out}/{z}/{x}", exist_ok=True)
        for y in range(int(y0) - 1, int(y1) + 2):
            rnd = random.Random(z * 1_000_003 + x * 1009 + y)
            im = Image.new("RGB", (256, 256), (242, 239, 233))
            d = ImageDraw.Draw(im)
            if rnd.random() < 0.3:
                d.polygon([(rnd.randrange(256), rnd.randrange(256)) for _ in range(5)], fill=(170, 211, 223))
            for _ in range(rnd.randrange(3, 9)):
                colour = rnd.choice([(255, 255, 255), (247, 250, 191), (252, 214, 164), (200, 200, 200)])
                d.line([(rnd.randrange(-20, 276), rnd.randrange(-20, 276)) for _ in range(3)], fill=colour, width=rnd.randrange(2, 7))
            d.text((rnd.randrange(10, 180), rnd.randrange(10, 230)), f"{z}/{x}/{y}", fill=(80, 80, 80))
            im.quantize(64).save(f"{out}/{z}/{x}/{y}.png", optimize=False)
            count += 1
print(count)
