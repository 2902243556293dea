"""Draw the page's app icons (issue 39, item 16) into src/hearts/server/static/icons/:
a red heart on the table's green, as PNG at the sizes home screens ask for and as
SVG; ``maskable`` keeps the heart inside the middle 80 % that every mask shows.

    python3 scripts/make_icons.py

Made here, with the standard library only (zlib for PNG), so nothing is fetched.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "hearts" / "server" / "static" / "icons"
GREEN = (13, 74, 44)  # the page's theme colour, #0d4a2c
RED = (214, 40, 57)
WHITE = (255, 255, 255)
SAMPLES = 3  # per side, for smooth edges


def in_heart(x: float, y: float) -> bool:
    """The heart curve (x² + y² − 1)³ ≤ x² y³, y upwards, about [-1.2, 1.2]²."""
    return (x * x + y * y - 1) ** 3 - x * x * y**3 <= 0


def draw(size: int, heart: float, rounded: bool) -> bytes:
    """RGBA rows of a ``size`` icon: the heart's width a ``heart`` share of the side,
    a white rim around it; a rounded square (``rounded``) or the full square."""
    rows = bytearray()
    radius = size * 0.22
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            red = rim = inside = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    fx = px + (sx + 0.5) / SAMPLES
                    fy = py + (sy + 0.5) / SAMPLES
                    if rounded and not in_rounded(fx, fy, size, radius):
                        continue
                    inside += 1
                    x = (fx / size - 0.5) * 2.4 / heart
                    y = -(fy / size - 0.52) * 2.4 / heart
                    if in_heart(x, y):
                        red += 1
                    elif in_heart(x * 0.9, y * 0.9 + 0.02):
                        rim += 1
            n = SAMPLES * SAMPLES
            green = inside - red - rim
            colour = [
                round((red * RED[i] + rim * WHITE[i] + green * GREEN[i]) / max(inside, 1))
                for i in range(3)
            ]
            rows += bytes(colour) + bytes([round(255 * inside / n)])
    return bytes(rows)


def in_rounded(x: float, y: float, size: int, r: float) -> bool:
    cx = min(max(x, r), size - r)
    cy = min(max(y, r), size - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def png(size: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="22" fill="#0d4a2c"/>
<path d="M50 82 C20 62 14 46 18 35 C22 22 40 18 50 32 C60 18 78 22 82 35 C86 46 80 62 50 82Z"
 fill="#d62839" stroke="#fff" stroke-width="4" stroke-linejoin="round"/>
</svg>
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, heart, rounded in [
        ("icon-192.png", 192, 0.62, True),
        ("icon-512.png", 512, 0.62, True),
        ("apple-touch-icon.png", 180, 0.62, False),
        ("icon-maskable-512.png", 512, 0.5, False),
    ]:
        (OUT / name).write_bytes(png(size, draw(size, heart, rounded)))
    (OUT / "icon.svg").write_text(SVG)


if __name__ == "__main__":
    main()
