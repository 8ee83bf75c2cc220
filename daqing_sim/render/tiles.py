"""One tile as SVG: any tile of any rule family, drawn without a font.

Codes 0-33 (docs/RULES.md, the preamble of every family): 0-8 = 1m-9m, 9-17 = 1p-9p,
18-26 = 1s-9s, 27 = 中, 28-31 = 东 南 西 北, 32 = 白, 33 = 发 (Daqing uses 0-27). Dots are
circles, bamboo sticks are rounded bars, characters are the rank digit over 萬; the CJK
glyphs and digits are path data extracted once from Noto Serif CJK (:mod:`.glyphs`, OFL), so a
picture looks the same on any machine. 白 is the traditional empty framed tile.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from numbers import Integral

from daqing_sim.render.glyphs import GLYPHS

N_ALL_KINDS = 34
NAMES = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple("中东南西北白发")
CODES_HELP = "0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27 中, 28-31 东南西北, 32 白, 33 发"
MARKS = ("drawn", "declared", "claimed", "highlight")
SVG_NS = ' xmlns="http://www.w3.org/2000/svg"'
W, H = 60, 80  # the face's own units; pictures are scaled by their height

FACE = "#fbf7ea"
EDGE = "#8c8271"
BACK = "#2e7d55"
RED, GREEN, BLUE, INK, GOLD = "#c3272b", "#1d7a3e", "#1f4e9c", "#1c1c28", "#e0a100"

_WINDS = {28: "东", 29: "南", 30: "西", 31: "北"}
_DOTS = {
    1: [(30, 40)],
    2: [(30, 22), (30, 58)],
    3: [(16, 17), (30, 40), (44, 63)],
    4: [(18, 22), (42, 22), (18, 58), (42, 58)],
    5: [(17, 18), (43, 18), (30, 40), (17, 62), (43, 62)],
    6: [(19, 16), (41, 16), (19, 40), (41, 40), (19, 63), (41, 63)],
    7: [(14, 13), (30, 21), (46, 29), (19, 47), (41, 47), (19, 66), (41, 66)],
    8: [(19, 12), (41, 12), (19, 31), (41, 31), (19, 50), (41, 50), (19, 68), (41, 68)],
    9: [(x, y) for y in (15, 40, 65) for x in (14, 30, 46)],
}
_DOT_R = {1: 17, 2: 11, 3: 9, 4: 10, 5: 8.5, 6: 8, 7: 7, 8: 7, 9: 7}
_DOT_COLORS = {  # which dots are red / green, as on the usual sets (the rest blue)
    1: [RED],
    3: [BLUE, RED, GREEN],
    5: [BLUE, GREEN, RED, GREEN, BLUE],
    6: [GREEN, GREEN, RED, RED, RED, RED],
    7: [GREEN, GREEN, GREEN, RED, RED, RED, RED],
    9: [BLUE, BLUE, BLUE, RED, RED, RED, GREEN, GREEN, GREEN],
}
_STICKS = {  # (x, y) centre of each stick, all 20 high
    2: [(30, 23), (30, 57)],
    3: [(30, 23), (18, 57), (42, 57)],
    4: [(19, 23), (41, 23), (19, 57), (41, 57)],
    5: [(16, 23), (44, 23), (30, 40), (16, 57), (44, 57)],
    6: [(x, y) for y in (23, 57) for x in (15, 30, 45)],
    7: [(30, 14), *((x, y) for y in (40, 64) for x in (15, 30, 45))],
    8: [(x, y) for y in (23, 57) for x in (10, 23, 37, 50)],
    9: [(x, y) for y in (15, 40, 65) for x in (15, 30, 45)],
}
_RED_STICKS = {5: {2}, 7: {0}, 9: {1, 4, 7}}


def check_tile(tile: object) -> int:
    """The tile code as an ``int``, or a one-line ``ValueError``."""
    if isinstance(tile, bool) or not isinstance(tile, Integral):
        raise ValueError(f"tile must be an integer code ({CODES_HELP}), not {type(tile).__name__} {tile!r}")
    if not 0 <= int(tile) < N_ALL_KINDS:
        raise ValueError(f"tile {int(tile)} is out of range: tile codes are {CODES_HELP}")
    return int(tile)


def tile_label(tile: int) -> str:
    """Notation of a code 0-33: ``"4m"``, ``"中"``, ``"东"``."""
    return NAMES[check_tile(tile)]


def _el(tag: str, **attrs) -> str:
    """``<tag a="v" .../>``; ``stroke_width`` is written ``stroke-width``, floats shortened."""
    parts = " ".join(
        f'{k.replace("_", "-")}="{round(v, 2) if isinstance(v, float) else v}"' for k, v in attrs.items()
    )
    return f"<{tag} {parts}/>"


def _frame(fill: str = "none", **attrs) -> str:
    """A rounded rectangle inside the tile's edge (the frame, or an overlay on the whole face)."""
    return _el("rect", x=1.5, y=1.5, width=W - 3, height=H - 3, rx=7, fill=fill, **attrs)


def _glyph(ch: str, x: float, y: float, w: float, h: float, color: str) -> str:
    """The glyph ``ch`` fitted (aspect kept) and centred in the box ``(x, y, w, h)``."""
    g = GLYPHS[ch]
    x0, y0, x1, y1 = g["bbox"]
    s = min(w / (x1 - x0), h / (y1 - y0))
    tx = x + (w - (x1 - x0) * s) / 2 - x0 * s
    ty = y + (h - (y1 - y0) * s) / 2 + y1 * s
    return (
        f'<path fill="{color}" transform="translate({tx:.2f} {ty:.2f}) scale({s:.4f} {-s:.4f})" '
        f'd="{g["d"]}"/>'
    )


def _dots(n: int) -> str:
    r = _DOT_R[n]
    colors = _DOT_COLORS.get(n, [BLUE] * n)
    out = []
    for (x, y), c in zip(_DOTS[n], colors, strict=True):
        out.append(_el("circle", cx=x, cy=y, r=r, fill=c))
        out.append(_el("circle", cx=x, cy=y, r=r * 0.55, fill="none", stroke=FACE, stroke_width=1.6))
        if n == 1:
            out.append(_el("circle", cx=x, cy=y, r=r * 1.25, fill="none", stroke=GREEN, stroke_width=3))
    return "".join(out)


def _stick(x: float, y: float, color: str, w: float = 7, h: float = 20) -> str:
    x0 = x - w / 2
    return _el("rect", x=x0, y=y - h / 2, width=w, height=h, rx=w / 2, fill=color) + _el(
        "line", x1=x0, y1=y, x2=x0 + w, y2=y, stroke=FACE, stroke_width=1.4
    )


def _bamboo(n: int) -> str:
    if n == 1:  # the one of bamboo: a single tall stick with a red crown (the bird on real sets)
        return (
            _stick(30, 44, GREEN, w=12, h=46)
            + _el("circle", cx=30, cy=15, r=7, fill=RED)
            + _el("path", d="M22 12 L30 4 L38 12", fill="none", stroke=RED, stroke_width=3)
        )
    red = _RED_STICKS.get(n, set())
    return "".join(_stick(x, y, RED if i in red else GREEN) for i, (x, y) in enumerate(_STICKS[n]))


@cache
def _face(tile: int) -> str:
    """The face's drawing (inside the tile's frame) in the 60 x 80 units."""
    if tile < 9:
        return _glyph(str(tile + 1), 14, 7, 32, 30, INK) + _glyph("萬", 9, 41, 42, 33, RED)
    if tile < 18:
        return _dots(tile - 8)
    if tile < 27:
        return _bamboo(tile - 17)
    if tile == 27:
        return _glyph("中", 8, 10, 44, 60, RED)
    if tile == 33:
        return _glyph("发", 8, 10, 44, 60, GREEN)
    if tile == 32:
        return _el("rect", x=12, y=12, width=36, height=56, rx=3, fill="none", stroke=BLUE, stroke_width=3.5)
    return _glyph(_WINDS[tile], 8, 10, 44, 60, INK)


def tile_body(tile: int, face_down: bool = False) -> str:
    """The drawing of a tile's frame and face (or back) in its 60 x 80 units, y down."""
    tile = check_tile(tile)
    fill = BACK if face_down else FACE
    body = _frame(fill, stroke=EDGE, stroke_width=2)
    if face_down:
        inner = dict(x=7, y=7, width=W - 14, height=H - 14, rx=4, fill="none")
        return body + _el("rect", **inner, stroke="#5fa882", stroke_width=1.5)
    return body + _face(tile)


def mark_body(mark: str) -> str:
    """The drawing of one mark (:data:`MARKS`) over a tile, in the same units."""
    if mark == "drawn":
        return f'<path d="M{W - 22} 2 H{W - 8} Q{W - 2} 2 {W - 2} 8 V22 Z" fill="#8f8f8f"/>'
    if mark == "declared":
        return _el("rect", x=4, y=H - 9, width=W - 8, height=6, rx=2, fill=RED)
    if mark == "claimed":
        return _frame("#ffffff", fill_opacity=0.6)
    if mark == "highlight":
        return _el(
            "rect", x=2.5, y=2.5, width=W - 5, height=H - 5, rx=7, fill="none", stroke=GOLD, stroke_width=5
        )
    raise ValueError(f"unknown tile mark {mark!r}: use {', '.join(MARKS)}")


def symbols_svg() -> str:
    """A hidden ``<svg>`` of ``<symbol>`` s: ``tile-0`` .. ``tile-33``, ``tile-back`` and
    ``mark-drawn`` etc. (for a page that draws many tiles with ``<use>``)."""
    parts = [
        f'<symbol id="tile-{t}" viewBox="0 0 {W} {H}">{tile_body(t)}</symbol>' for t in range(N_ALL_KINDS)
    ]
    parts.append(f'<symbol id="tile-back" viewBox="0 0 {W} {H}">{tile_body(0, face_down=True)}</symbol>')
    parts += [f'<symbol id="mark-{m}" viewBox="0 0 {W} {H}">{mark_body(m)}</symbol>' for m in MARKS]
    hidden = 'width="0" height="0" style="position:absolute" aria-hidden="true"'
    return f"<svg {hidden}><defs>{''.join(parts)}</defs></svg>"


def tile_svg(
    tile: int,
    *,
    height: float = 40,
    sideways: bool = False,
    face_down: bool = False,
    marks: Iterable[str] = (),
    standalone: bool = False,
) -> str:
    """One tile as an ``<svg>`` element.

    Parameters
    ----------
    tile : int
        Tile code 0-33 (module docstring).
    height : float
        Height in CSS pixels of the upright tile (width 3/4 of it); a sideways tile is as
        high as an upright one is wide.
    sideways : bool
        Turned a quarter to the left: the claimed tile of a meld, the ready-declaring discard.
    face_down : bool
        The back (the outer tiles of a concealed kong); ``data-tile`` still names the tile.
    marks : iterable of str
        ``"drawn"`` (thrown straight after its draw, 摸打: a grey corner), ``"declared"`` (the
        discard that declared ready: a red bar), ``"claimed"`` (taken by another seat:
        faded), ``"highlight"`` (a gold frame: the winning tile, the advised discard).
    standalone : bool
        Add the SVG namespace, for a ``.svg`` file of its own (inline in HTML it is not needed).

    Returns
    -------
    str
        ``<svg class="tile ..." data-tile="code" ...>``, with a ``<title>`` naming the tile.

    Examples
    --------
    >>> svg = tile_svg(27)
    >>> svg.startswith('<svg class="tile" data-tile="27"'), "<title>中</title>" in svg
    (True, True)
    >>> tile_svg(40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: tile 40 is out of range: tile codes are 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27 中, ...
    """
    tile = check_tile(tile)
    if isinstance(height, bool) or not isinstance(height, int | float) or not 0 < height <= 1000:
        raise ValueError(f"height must be a number of pixels in (0, 1000], not {height!r}")
    marks = tuple(marks)
    bad = [m for m in marks if m not in MARKS]
    if bad:
        raise ValueError(f"unknown tile mark {bad[0]!r}: use {', '.join(MARKS)}")
    body = tile_body(tile, face_down) + "".join(mark_body(m) for m in marks)
    classes = " ".join(
        ["tile", *(["sideways"] if sideways else []), *(["back"] if face_down else []), *marks]
    )
    name = NAMES[tile]
    w = height * W / H
    if sideways:
        size = f'width="{height:g}" height="{w:g}" viewBox="0 0 {H} {W}"'
        body = f'<g transform="translate(0 {W}) rotate(-90)">{body}</g>'
    else:
        size = f'width="{w:g}" height="{height:g}" viewBox="0 0 {W} {H}"'
    return (
        f'<svg class="{classes}" data-tile="{tile}"{SVG_NS if standalone else ""} {size} role="img">'
        f"<title>{name}{' (face down)' if face_down else ''}</title>{body}</svg>"
    )


__all__ = [
    "tile_svg",
    "tile_body",
    "mark_body",
    "symbols_svg",
    "tile_label",
    "check_tile",
    "NAMES",
    "MARKS",
    "N_ALL_KINDS",
]
