"""The app icons of the installable site, drawn in code so that no image tool is needed.

The emblem is a red ten-sided die in a white sun on the site's red field. It fills the whole
square, so the same image serves as a "maskable" icon (phones crop it to their own shape; the
sun and die stay inside the central safe circle). PNG files are written with ``zlib`` only.
``python -m kensei_ref.build.icons docs/assets/icons`` writes them; a test checks the committed files.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

from kensei_ref.site import ASSETS

RED = (0xB3, 0x26, 0x1E)
WHITE = (0xFF, 0xFF, 0xFF)
SIZES = (192, 512)
"""The sizes browsers ask of an installable web app (home screen and splash screen)."""

SUPERSAMPLE = 4
"""Samples per pixel side: smooth edges without an image library."""


def _near_segment(px: float, py: float, a: tuple[float, float], b: tuple[float, float], width: float) -> bool:
    """Whether (px, py) lies within ``width`` of the segment from ``a`` to ``b``."""
    (ax, ay), (bx, by) = a, b
    vx, vy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)))
    return (px - ax - t * vx) ** 2 + (py - ay - t * vy) ** 2 < width * width


KITE = {"top": (0.0, -0.20), "left": (-0.17, 0.06), "right": (0.17, 0.06), "bottom": (0.0, 0.18)}
"""A ten-sided die seen from above, centred on the icon: a kite, longer above its widest line."""

FACE_EDGES = ((KITE["top"], (0.0, 0.10)), (KITE["left"], (0.0, 0.10)), (KITE["right"], (0.0, 0.10)))
"""The edges of the die's front faces: the V below the top and the line down from the top."""


def _colour(x: float, y: float) -> tuple[int, int, int]:
    """The emblem at (x, y), both from 0 to 1: a red ten-sided die inside a white sun on the red field."""
    dx, dy = x - 0.5, y - 0.5
    top, side, bottom = KITE["top"][1], KITE["right"], KITE["bottom"][1]
    if dy < side[1]:
        inside = abs(dx) / side[0] + (side[1] - dy) / (side[1] - top) < 1
    else:
        inside = abs(dx) / side[0] + (dy - side[1]) / (bottom - side[1]) < 1
    if inside:
        edge = any(_near_segment(dx, dy, a, b, 0.011) for a, b in FACE_EDGES)
        return WHITE if edge else RED
    if dx * dx + dy * dy < 0.30 * 0.30:
        return WHITE
    return RED


def pixels(size: int) -> list[bytes]:
    """Rows of RGB bytes for a ``size`` × ``size`` icon."""
    rows = []
    step = 1 / (size * SUPERSAMPLE)
    offsets = [(i + 0.5) * step for i in range(SUPERSAMPLE)]
    samples = SUPERSAMPLE * SUPERSAMPLE
    for row in range(size):
        line = bytearray()
        for column in range(size):
            total = [0, 0, 0]
            for oy in offsets:
                for ox in offsets:
                    r, g, b = _colour(column / size + ox, row / size + oy)
                    total[0] += r
                    total[1] += g
                    total[2] += b
            line.extend(round(channel / samples) for channel in total)
        rows.append(bytes(line))
    return rows


def png(rows: list[bytes]) -> bytes:
    """An 8-bit RGB PNG of the given rows (no filter; zlib does the work)."""
    height, width = len(rows), len(rows[0]) // 3

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def icon_files() -> dict[str, bytes]:
    """File name -> PNG bytes, for every size."""
    return {f"icon-{size}.png": png(pixels(size)) for size in SIZES}


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else ASSETS / "icons"
    target.mkdir(parents=True, exist_ok=True)
    for name, data in icon_files().items():
        (target / name).write_bytes(data)
        print(f"{target / name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
