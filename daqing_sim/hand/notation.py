"""Hand notation: ``"123m456p789s11m中中 [345m] (1111p)"``.

Concealed tiles are digits followed by a suit letter (``m``, ``p``, ``s``), and the honors:
``中`` (or ``C``) in every family, and in the 34-kind families (Beijing, two-player) the winds and dragons
``东南西北白发`` or ``1z``-``7z`` (= 东 南 西 北 白 发 中). Exposed melds stand in square
brackets: ``[456p]`` chi, ``[777s]`` peng, ``[1111m]`` exposed kong; a concealed kong stands in
parentheses: ``(1111m)``. A hand is parsed for one family (``family="daqing"`` by default): a
tile that the family does not play is an error.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from daqing_sim.codes import CHI, CONCEALED_KONG, KONG, MELD_KINDS, N_KINDS, N_KINDS_ALL, PENG, ZHONG
from daqing_sim.hand.tiles import (
    KIND_OF_HONOR_CHAR,
    KIND_OF_Z,
    SUIT_OF_LETTER,
    check_family_tile,
    counts_to_string,
    family_kinds,
    tile_name,
)

MAX_MELDS = 4


@dataclass(frozen=True)
class Meld:
    """One meld: ``kind`` is ``"chi"``, ``"peng"``, ``"kong"``, ``"concealed_kong"`` or
    ``"added_kong"``; ``tile`` is its lowest tile kind."""

    kind: str
    tile: int

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise ValueError(f"unknown meld kind {self.kind!r}: use one of {', '.join(MELD_KINDS)}")
        if isinstance(self.tile, bool) or not isinstance(self.tile, int | np.integer):
            raise ValueError(f"a meld's tile is a tile kind 0-33, not {self.tile!r}")
        if not 0 <= self.tile < N_KINDS_ALL:
            raise ValueError(f"meld tile {self.tile} is out of range: tile kinds are 0-27 (Daqing) or 0-33")
        if self.kind == "chi" and (self.tile >= ZHONG or self.tile % 9 > 6):
            raise ValueError(
                f"no chi starts at {tile_name(self.tile)}: a chi is three consecutive tiles of one suit, "
                "named by its lowest (1-7 of m, p or s)"
            )

    @property
    def code(self) -> int:
        return MELD_KINDS.index(self.kind)

    @property
    def tiles(self) -> list[int]:
        if self.kind == "chi":
            return [self.tile, self.tile + 1, self.tile + 2]
        if self.kind == "peng":
            return [self.tile] * 3
        return [self.tile] * 4

    @property
    def exposed(self) -> bool:
        """Everything but a concealed kong opens the door (开门)."""
        return self.kind != "concealed_kong"

    def __str__(self) -> str:
        body = "".join(tile_name(t)[0] for t in self.tiles)
        body = body if self.tile >= ZHONG else body + tile_name(self.tile)[1]
        return f"({body})" if self.kind == "concealed_kong" else f"[{body}]"


@dataclass(frozen=True)
class Hand:
    """A player's hand: concealed tile counts and melds.

    ``order`` keeps the concealed tiles as written, so that ``last_tile`` (the
    tile written last) can stand for the winning tile of a 14-tile hand.
    """

    counts: np.ndarray
    melds: tuple[Meld, ...] = ()
    order: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        counts = self.counts
        shape_ok = isinstance(counts, np.ndarray) and counts.ndim == 1
        if not shape_ok or counts.shape[0] not in (N_KINDS, N_KINDS_ALL):
            raise ValueError(
                f"Hand counts must be a numpy array of 28 (Daqing) or 34 counts, not {_describe(counts)}; "
                "build hands with parse_hand('123m456p...')"
            )
        melds = tuple(self.melds)
        if len(melds) > MAX_MELDS or not all(isinstance(m, Meld) for m in melds):
            raise ValueError("Hand melds must be a tuple of at most four Meld objects")
        if counts.min(initial=0) < 0:
            raise ValueError("Hand counts cannot be negative")
        total = np.zeros(N_KINDS_ALL, dtype=np.int64)
        total[: counts.shape[0]] = counts
        for m in melds:
            for t in m.tiles:
                total[t] += 1
        if total.max(initial=0) > 4:
            t = int(total.argmax())
            raise ValueError(f"{int(total[t])} copies of {tile_name(t)} in the hand: at most 4")
        if counts.shape[0] == N_KINDS and any(m.tile >= N_KINDS for m in melds):
            raise ValueError("a meld of winds or 白/发 needs 34 counts (parse_hand(..., family='beijing'))")
        object.__setattr__(self, "melds", melds)

    @property
    def n_kinds(self) -> int:
        """28 for a Daqing hand, 34 for a hand of a 34-kind family."""
        return int(self.counts.shape[0])

    def with_kinds(self, n_kinds: int) -> Hand:
        """The same hand with counts of ``n_kinds`` kinds (a Daqing hand widened to 34, or a 34-kind
        hand without winds and 白/发 narrowed to Daqing's 28)."""
        if n_kinds == self.n_kinds:
            return self
        if n_kinds == N_KINDS_ALL:
            counts = np.pad(self.counts, (0, N_KINDS_ALL - N_KINDS))
        else:
            extra = [t for t in range(N_KINDS, N_KINDS_ALL) if self.counts[t]]
            extra += [m.tile for m in self.melds if m.tile >= N_KINDS]
            if extra:
                check_family_tile(extra[0], "daqing")
            counts = self.counts[:N_KINDS].copy()
        return Hand(counts=counts, melds=self.melds, order=self.order)

    @property
    def n_concealed(self) -> int:
        return int(self.counts.sum())

    @property
    def size(self) -> int:
        """13 for a waiting hand, 14 for a hand with its drawn or winning tile."""
        return self.n_concealed + 3 * len(self.melds)

    @property
    def last_tile(self) -> int | None:
        return self.order[-1] if self.order else None

    def total_counts(self) -> np.ndarray:
        """Counts of concealed tiles plus all meld tiles (kongs count four)."""
        total = self.counts.astype(np.int16)
        for m in self.melds:
            for t in m.tiles:
                total[t] += 1
        return total

    def meld_arrays(self) -> tuple[np.ndarray, np.ndarray, int]:
        """``(meld_kind, meld_tile, n_melds)`` as kernels take them."""
        kinds = np.zeros(MAX_MELDS, dtype=np.int8)
        tiles = np.zeros(MAX_MELDS, dtype=np.int8)
        for i, m in enumerate(self.melds):
            kinds[i] = m.code
            tiles[i] = m.tile
        return kinds, tiles, len(self.melds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return np.array_equal(self.counts, other.counts) and sorted(
            self.melds, key=lambda m: (m.kind, m.tile)
        ) == sorted(other.melds, key=lambda m: (m.kind, m.tile))

    __hash__ = None  # mutable numpy counts

    def __str__(self) -> str:
        return format_hand(self)

    def _repr_html_(self) -> str:
        from daqing_sim.render.table import hand_html  # drawing stays out of this module's import

        return hand_html(self)


SHOW_CHARS = 60  # longest input echoed whole in an error message


def _describe(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape}"
    return type(x).__name__


def _show(text: str) -> str:
    """``repr(text)``, shortened when long: an error message stays one readable line."""
    if len(text) <= SHOW_CHARS:
        return repr(text)
    return f"{text[:SHOW_CHARS]!r}... ({len(text):,} characters)"


def _parse_tiles(text: str, where: str) -> list[int]:
    tiles: list[int] = []
    pos = 0
    honors = "".join(KIND_OF_HONOR_CHAR)
    for m in re.finditer(rf"([0-9]+)([mpsz])|([{honors}])|(\s+)|([0-9]+)|(.)", text):
        if m.group(5) is not None:
            raise ValueError(
                f"tiles {_show(m.group(5))} at {where} have no suit letter: write m, p or s after the digits"
            )
        if m.group(6) is not None:
            raise ValueError(
                f"unknown character {m.group(6)!r} at {where}: use digits 1-9 with a suit "
                "letter m/p/s, 中 or C, or the honors 东南西北白发 (1z-7z)"
            )
        if m.group(1):
            digits, letter = m.group(1), m.group(2)
            if "0" in digits:
                raise ValueError(f"rank 0 in {_show(digits + letter)} at {where}: ranks are 1-9")
            if letter == "z":
                if any(d in "89" for d in digits):
                    raise ValueError(f"{_show(digits + letter)} at {where}: honors are 1z-7z")
                tiles += [KIND_OF_Z[int(d)] for d in digits]
            else:
                tiles += [SUIT_OF_LETTER[letter] * 9 + int(d) - 1 for d in digits]
        elif m.group(3):
            tiles.append(KIND_OF_HONOR_CHAR[m.group(3)])
        pos = m.end()
    if pos != len(text):  # pragma: no cover - the pattern consumes everything
        raise ValueError(f"cannot read {_show(text[pos:])} at {where}")
    return tiles


def _meld_from_tiles(tiles: list[int], concealed: bool, text: str) -> Meld:
    ts = sorted(tiles)
    if concealed:
        if len(ts) == 4 and len(set(ts)) == 1:
            return Meld("concealed_kong", ts[0])
        raise ValueError(f"concealed meld ({text[:SHOW_CHARS]}) must be a kong of four identical tiles")
    if len(ts) == 4 and len(set(ts)) == 1:
        return Meld("kong", ts[0])
    if len(ts) == 3 and len(set(ts)) == 1:
        return Meld("peng", ts[0])
    if (
        len(ts) == 3
        and ts[0] < ZHONG
        and ts[0] // 9 == ts[2] // 9
        and ts[1] == ts[0] + 1
        and ts[2] == ts[0] + 2
    ):
        return Meld("chi", ts[0])
    raise ValueError(
        f"[{text[:SHOW_CHARS]}] is not a meld: write a chi of three consecutive tiles of one suit "
        "([345m]), a peng ([777s]) or a kong ([1111m]; (1111m) when concealed)"
    )


def parse_hand(text: str, *, require_full: bool = True, family: str = "daqing") -> Hand:
    """Parse hand notation into a :class:`Hand`.

    Parameters
    ----------
    text : str
        For example ``"23m456p789s111s中 [345m]"``.
    require_full : bool
        Require 13 or 14 tiles (kongs counting three), i.e. ``3k+1`` or ``3k+2``
        concealed tiles beside ``4-k`` melds.
    family : str
        The rule family whose tiles the hand holds: ``"daqing"`` (28 kinds, the default) or
        ``"beijing"`` or ``"two_player"`` (34 kinds: winds and dragons too). The counts have that
        many kinds.

    Raises
    ------
    ValueError
        Naming the offending part: an unknown character, a fifth copy of a tile,
        a malformed meld or an impossible tile count.

    Examples
    --------
    >>> h = parse_hand("3m456p789s11m中中 [345m]")
    >>> h.size, len(h.melds), str(h)
    (14, 1, '113m456p789s中中 [345m]')
    >>> str(parse_hand("234m456p678s2233z", family="beijing"))
    '234m456p678s南南西西'
    """
    if not isinstance(text, str):
        raise ValueError(f"a hand must be a string in hand notation, not {type(text).__name__}")
    n_kinds = family_kinds(family)
    melds: list[Meld] = []
    rest = text
    for m in re.finditer(r"([\[\(])([^\[\]\(\)]*)([\]\)])", text):
        opener, body, closer = m.groups()
        if (opener, closer) not in (("[", "]"), ("(", ")")):
            raise ValueError(f"meld {_show(m.group(0))} opens with {opener!r} but closes with {closer!r}")
        meld_tiles = _parse_tiles(body, f"meld {_show(m.group(0))}")
        for t in (t for t in meld_tiles if t >= n_kinds):  # the first tile the family has not
            check_family_tile(t, family)
        melds.append(_meld_from_tiles(meld_tiles, opener == "(", body))
    rest = re.sub(r"([\[\(])([^\[\]\(\)]*)([\]\)])", " ", text)
    for bad in "[]()":
        if bad in rest:
            raise ValueError(f"unbalanced {bad!r} in {_show(text)}: melds are written [345m] or (1111m)")
    order = _parse_tiles(rest, f"the concealed part of {_show(text)}")
    if len(melds) > MAX_MELDS:
        raise ValueError(f"{len(melds)} melds in {_show(text)}: a hand has at most four")
    # Counted in Python ints first: a uint8 count would wrap at 256 copies.
    total = Counter(order) + Counter(t for m in melds for t in m.tiles)
    if total and max(total) >= n_kinds:
        check_family_tile(min(t for t in total if t >= n_kinds), family)
    over = [f"{n} copies of {tile_name(t)}" for t, n in sorted(total.items()) if n > 4]
    if over:
        raise ValueError(f"{', '.join(over)} in {_show(text)}: at most 4 (each tile has four copies)")
    counts = np.zeros(n_kinds, dtype=np.uint8)
    for t, n in Counter(order).items():
        counts[t] = n
    hand = Hand(counts=counts, melds=tuple(melds), order=tuple(order))
    if require_full and hand.size not in (13, 14):
        k = len(melds)
        raise ValueError(
            f"{_show(text)} has {hand.n_concealed} concealed tiles beside {k} meld(s), "
            f"{hand.size} in all: a hand has 13 (or 14 with its drawn tile), i.e. "
            f"{13 - 3 * k} or {14 - 3 * k} concealed tiles with {k} meld(s)"
        )
    return hand


def format_hand(hand: Hand) -> str:
    """Inverse of :func:`parse_hand` (concealed tiles sorted by suit, honors last).

    >>> format_hand(parse_hand("中 23m 456p 789s 1m 中 [345m]"))
    '123m456p789s中中 [345m]'
    """
    if not isinstance(hand, Hand):
        raise ValueError(f"format_hand takes a Hand (from parse_hand), not {type(hand).__name__}")
    parts = [counts_to_string(hand.counts)]
    parts += [str(m) for m in hand.melds]
    return " ".join(p for p in parts if p)


def hand_from_arrays(counts, meld_kind=None, meld_tile=None, n_melds: int = 0) -> Hand:
    """Build a :class:`Hand` from kernel arrays."""
    counts = np.asarray(counts, dtype=np.uint8).copy()
    melds = tuple(Meld(MELD_KINDS[int(meld_kind[i])], int(meld_tile[i])) for i in range(int(n_melds)))
    order = tuple(t for t in range(counts.shape[0]) for _ in range(int(counts[t])))
    return Hand(counts=counts, melds=melds, order=order)


__all__ = [
    "Meld",
    "Hand",
    "parse_hand",
    "format_hand",
    "hand_from_arrays",
    "CHI",
    "PENG",
    "KONG",
    "CONCEALED_KONG",
]
