"""Writes a photo twice as wide and twice as high as a given one (its 2 × 2 tiling) as binary
PPM, for `convert … big.ppm big.jpg`: a 96 MP photo from a 24 MP one in seconds, where
ImageMagick's policy here stops it making an image that large itself and plasma of 100 MP takes
it many minutes.

    convert photo.jpg photo.ppm && python3 scripts/lib/tile_photo.py photo.ppm big.ppm
"""
import sys


def main(source, target):
    magic, size, depth, pixels = open(source, "rb").read().split(b"\n", 3)
    if magic != b"P6" or depth != b"255":
        sys.exit(f"{source}: not an 8-bit binary PPM")
    w, h = map(int, size.split())
    with open(target, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (2 * w, 2 * h))
        for _ in range(2):
            for y in range(h):
                row = pixels[y * 3 * w:(y + 1) * 3 * w]
                f.write(row + row)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
