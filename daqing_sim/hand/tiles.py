"""Tile kinds and their names, in every rule family.

Daqing plays 28 kinds: ``0-8`` characters (m), ``9-17`` dots (p), ``18-26`` bamboo (s) and
``27`` the red dragon 中, four copies each (112 tiles). Beijing plays 34: the same 28 and then
the winds ``28-31`` 东 南 西 北 and the dragons ``32`` 白, ``33`` 发 (136 tiles), so Daqing's
kinds are a prefix of Beijing's; the two-player family plays Beijing's 34. In notation the honors
are their characters or ``1z``-``7z`` = 东 南 西 北 白 发 中 (the usual mahjong-software order:
``7z`` is 中). Hands are count vectors of shape ``(n_kinds,)`` of their family; strings appear
only at the edges.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.codes import (  # noqa: F401 (re-exported: the tile and meld codes)
    ADDED_KONG,
    CHI,
    CONCEALED_KONG,
    COPIES,
    DUAL_PAIR,
    EAST,
    EDGE,
    FAMILIES,
    FAMILY_KINDS,
    FAMILY_TITLES,
    GREEN,
    KANCHAN,
    KONG,
    MELD_KINDS,
    N_KINDS,
    N_KINDS_ALL,
    N_TILES,
    NORTH,
    PENG,
    SINGLE,
    SOUTH,
    TWO_SIDED,
    WAIT_KINDS,
    WEST,
    WHITE,
    ZHONG,
    family_title,
)

SUITS = "mps"
SUIT_OF_LETTER = {"m": 0, "p": 1, "s": 2}
# Honor characters by kind code, and the kind of each ``Nz`` digit (1z-7z = 东南西北白发中).
HONOR_CHARS = {ZHONG: "中", EAST: "东", SOUTH: "南", WEST: "西", NORTH: "北", WHITE: "白", GREEN: "发"}
KIND_OF_HONOR_CHAR = {c: t for t, c in HONOR_CHARS.items()} | {"C": ZHONG}
KIND_OF_Z = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: ZHONG}
_ALL_34 = "m, p, s, the winds 东南西北 and the dragons 中发白"
FAMILY_TILES = {"daqing": "m, p, s and 中", "beijing": _ALL_34, "two_player": _ALL_34}


def family_kinds(family: str) -> int:
    """Number of tile kinds a rule family plays: 28 (Daqing) or 34."""
    if family not in FAMILIES:
        raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILIES)}")
    return FAMILY_KINDS[FAMILIES.index(family)]


def check_family_tile(tile: int, family: str) -> None:
    """Raise a one-line error when ``family`` does not play tile kind ``tile``.

    >>> check_family_tile(EAST, "daqing")
    Traceback (most recent call last):
    ...
    ValueError: 东 is not a Daqing tile: Daqing plays m, p, s and 中
    """
    if not 0 <= tile < family_kinds(family):
        title = family_title(family)
        plays = f"{title[0].upper() + title[1:]} plays {FAMILY_TILES[family]}"
        raise ValueError(f"{tile_name(tile)} is not a {title} tile: {plays}")


def is_honor(tile: int) -> bool:
    """True for 中 and (in 34-kind families) the winds and the other dragons."""
    return tile >= ZHONG


def suit(tile: int) -> int:
    """Suit index 0-2 of a tile kind, or -1 for an honor."""
    return -1 if tile >= ZHONG else tile // 9


def rank(tile: int) -> int:
    """Rank 1-9 of a suited tile kind, or 0 for an honor."""
    return 0 if tile >= ZHONG else tile % 9 + 1


def is_terminal(tile: int) -> bool:
    """True for ranks 1 and 9 (幺九). Honors are not terminals (中 *waives* the condition)."""
    return tile < ZHONG and tile % 9 in (0, 8)


def _kind(tile) -> int:
    if isinstance(tile, bool) or not isinstance(tile, int | np.integer):
        raise ValueError(f"a tile kind is a whole number 0-33, not {type(tile).__name__} {tile!r}")
    return int(tile)


def tile_name(tile: int) -> str:
    """Notation of one tile kind: ``"4m"``, ``"9s"``, ``"中"``, ``"东"``.

    >>> tile_name(3), tile_name(27), tile_name(28)
    ('4m', '中', '东')
    """
    tile = _kind(tile)
    if not 0 <= tile < N_KINDS_ALL:
        raise ValueError(f"tile kind {tile} is out of range: 0-27 in Daqing, 0-33 in Beijing")
    if tile >= ZHONG:
        return HONOR_CHARS[tile]
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def tile_from_name(name: str, family: str | None = None) -> int:
    """Tile kind of ``"4m"``, ``"中"``, ``"C"``, ``"东"`` or ``"1z"``-``"7z"``.

    With ``family``, a tile that family does not play is an error.

    >>> tile_from_name("4m"), tile_from_name("C"), tile_from_name("7z"), tile_from_name("东")
    (3, 27, 27, 28)
    """
    if not isinstance(name, str):
        raise ValueError(f"a tile name is a string such as '4m' or '中', not {type(name).__name__} {name!r}")
    text = name.strip()
    tile = None
    if text in KIND_OF_HONOR_CHAR:
        tile = KIND_OF_HONOR_CHAR[text]
    elif len(text) == 2 and text[0] in "123456789" and text[1] in SUIT_OF_LETTER:
        tile = SUIT_OF_LETTER[text[1]] * 9 + int(text[0]) - 1
    elif len(text) == 2 and text[0] in "1234567" and text[1] == "z":
        tile = KIND_OF_Z[int(text[0])]
    if tile is None:
        raise ValueError(
            f"{name!r} is not a tile: write a rank 1-9 and a suit m/p/s (e.g. '4m'), "
            "中/C, or an honor 东南西北白发 (1z-7z)"
        )
    if family is not None:
        check_family_tile(tile, family)
    return tile


def counts_to_string(counts: np.ndarray) -> str:
    """Concealed counts in notation, suits grouped, honors last: ``"123m456p中中"``."""
    counts = np.asarray(counts)
    out = []
    for s in range(3):
        digits = "".join(str(r + 1) * int(counts[s * 9 + r]) for r in range(9))
        if digits:
            out.append(digits + SUITS[s])
    for t in (EAST, SOUTH, WEST, NORTH, WHITE, GREEN, ZHONG):
        if t < len(counts):
            out.append(HONOR_CHARS[t] * int(counts[t]))
    return "".join(out)
