"""Tile kinds and their names.

There are 28 kinds: ``0-8`` characters (m), ``9-17`` dots (p), ``18-26`` bamboo (s)
and ``27`` the red dragon 中. Each kind has four copies, 112 tiles in all.
Hands are count vectors of shape ``(28,)``; strings appear only at the edges.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.codes import (  # noqa: F401 (re-exported: the tile and meld codes)
    ADDED_KONG,
    CHI,
    CONCEALED_KONG,
    COPIES,
    DUAL_PAIR,
    EDGE,
    KANCHAN,
    KONG,
    MELD_KINDS,
    N_KINDS,
    N_TILES,
    PENG,
    SINGLE,
    TWO_SIDED,
    WAIT_KINDS,
    ZHONG,
)

SUITS = "mps"
SUIT_OF_LETTER = {"m": 0, "p": 1, "s": 2}


def suit(tile: int) -> int:
    """Suit index 0-2 of a tile kind, or -1 for 中."""
    return -1 if tile == ZHONG else tile // 9


def rank(tile: int) -> int:
    """Rank 1-9 of a suited tile kind, or 0 for 中."""
    return 0 if tile == ZHONG else tile % 9 + 1


def is_terminal(tile: int) -> bool:
    """True for ranks 1 and 9 (幺九). 中 is not a terminal (it *waives* the condition)."""
    return tile != ZHONG and tile % 9 in (0, 8)


def tile_name(tile: int) -> str:
    """Notation of one tile kind: ``"4m"``, ``"9s"``, ``"中"``."""
    if not 0 <= tile < N_KINDS:
        raise ValueError(f"tile kind {tile} is out of range 0-27")
    if tile == ZHONG:
        return "中"
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def tile_from_name(name: str) -> int:
    """Tile kind of ``"4m"``, ``"中"`` or ``"C"``.

    >>> tile_from_name("4m"), tile_from_name("C")
    (3, 27)
    """
    name = name.strip()
    if name in ("中", "C"):
        return ZHONG
    if len(name) == 2 and name[0] in "123456789" and name[1] in SUIT_OF_LETTER:
        return SUIT_OF_LETTER[name[1]] * 9 + int(name[0]) - 1
    raise ValueError(f"{name!r} is not a tile: write a rank 1-9 and a suit m/p/s (e.g. '4m'), or 中/C")


def counts_to_string(counts: np.ndarray) -> str:
    """Concealed counts in notation, suits grouped: ``"123m456p中中"``."""
    counts = np.asarray(counts)
    out = []
    for s in range(3):
        digits = "".join(str(r + 1) * int(counts[s * 9 + r]) for r in range(9))
        if digits:
            out.append(digits + SUITS[s])
    out.append("中" * int(counts[ZHONG]))
    return "".join(out)
