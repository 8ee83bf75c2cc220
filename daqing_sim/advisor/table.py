"""What the advised seat knows of the table beyond its hand: the tiles seen, each seat's pond
(discards in order), the others' exposed melds, who is ready and which kinds each ready seat let
pass. Parsed and checked once (:func:`table_view`), read by the danger column and the simulated
method."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from daqing_sim.hand.notation import Hand, Meld, parse_hand
from daqing_sim.hand.tiles import tile_name


@dataclass(frozen=True)
class TableView:
    """The seat's view of the table.

    ``seen`` counts every tile the seat sees besides its own (``seen`` argument, ponds and the
    others' melds together); ``ponds[s]`` the kinds seat ``s`` discarded, in order;
    ``melds[s]`` seat ``s``'s exposed melds (given, not the seat's own); ``passed[s]`` a (28,)
    0/1 row of the kinds ready seat ``s`` let pass since declaring.
    """

    seen: np.ndarray  # int64 (28,)
    ponds: tuple[tuple[int, ...], ...]  # 4 seats
    melds: tuple[tuple[Meld, ...], ...]  # 4 seats
    passed: np.ndarray  # uint8 (4, 28)
    ready: tuple[int, ...]
    seat: int

    def meld_counts(self) -> np.ndarray:
        """Tiles in the given melds of the other seats."""
        c = np.zeros(self.seen.shape[0], dtype=np.int64)
        for ms in self.melds:
            for m in ms:
                for t in m.tiles:
                    c[t] += 1
        return c

    def pond_counts(self) -> np.ndarray:
        c = np.zeros(self.seen.shape[0], dtype=np.int64)
        for p in self.ponds:
            for t in p:
                c[t] += 1
        return c


def _per_seat(arg, name: str, seat: int, others_only: bool) -> dict[int, str]:
    if arg is None:
        return {}
    if not isinstance(arg, Mapping):
        raise ValueError(
            f"{name} must be a dict of seat -> tiles in hand notation, e.g. {{1: '19m中'}}, not {arg!r}"
        )
    out = {}
    for s, text in arg.items():
        if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s <= 3:
            raise ValueError(f"{name} has seat {s!r}: seats are 0, 1, 2, 3")
        if others_only and s == seat:
            raise ValueError(f"{name} lists the advised seat {s}: its own melds belong in the hand")
        if not isinstance(text, str):
            raise ValueError(f"{name}[{s}] must be tiles in hand notation, e.g. '19m中', not {text!r}")
        out[int(s)] = text
    return out


def _tiles(text: str, what: str, family: str = "daqing") -> Hand:
    try:
        return parse_hand(text, require_full=False, family=family)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def table_view(
    hand: Hand,
    seen: np.ndarray,
    *,
    ponds=None,
    melds=None,
    passed=None,
    ready: tuple[int, ...] = (),
    seat: int = 0,
    claim: int | None = None,
    family: str = "daqing",
) -> TableView:
    """Check and combine ``seen`` (28 counts), ``ponds``, ``melds`` and ``passed`` (dicts of
    seat -> notation) into a :class:`TableView`.

    ``seen`` is every tile seen on the table; the tiles of ``ponds`` and ``melds`` are seen too,
    whether ``seen`` lists them or not: each kind counts as often as ``seen`` lists it, or the
    ponds and melds together, whichever is more (so a tile listed in both counts once).
    ``passed`` tiles are kinds a ready seat let pass; each must be seen at least once.
    ``family`` is the rule family whose tiles the notation holds (28 or 34 kinds).

    Examples
    --------
    >>> import numpy as np
    >>> from daqing_sim.hand.notation import parse_hand
    >>> v = table_view(parse_hand("134m456p789s中中 [345m]"), np.zeros(28, int), ponds={1: "19m"},
    ...                melds={1: "[777s]"}, passed={1: "9m"}, ready=(1,))
    >>> int(v.seen.sum()), v.ponds[1], int(v.passed[1].sum())
    (5, (0, 8), 1)
    """
    pond_txt = _per_seat(ponds, "ponds", seat, False)
    meld_txt = _per_seat(melds, "melds", seat, True)
    passed_txt = _per_seat(passed, "passed", seat, True)
    n_kinds = seen.shape[0]
    total = seen.astype(np.int64).copy()
    pond_list: list[tuple[int, ...]] = [()] * 4
    for s, text in pond_txt.items():
        h = _tiles(text, f"ponds[{s}]", family)
        if h.melds:
            raise ValueError(f"ponds[{s}] holds melds: a pond is discarded tiles, e.g. '19m中'; use melds=")
        pond_list[s] = tuple(h.order) if h.order else tuple(np.repeat(np.arange(n_kinds), h.counts))
        total += h.counts
    meld_list: list[tuple[Meld, ...]] = [()] * 4
    for s, text in meld_txt.items():
        h = _tiles(text, f"melds[{s}]", family)
        if h.n_concealed:
            raise ValueError(f"melds[{s}] holds loose tiles: write melds in brackets, e.g. '[345p] [777s]'")
        if family == "daqing" and len(h.melds) > 3:
            raise ValueError(f"melds[{s}] has {len(h.melds)} melds: a seat holds at most 3 (手把一)")
        if len(h.melds) > 4:
            raise ValueError(f"melds[{s}] has {len(h.melds)} melds: a seat holds at most 4")
        meld_list[s] = h.melds
        total += h.total_counts()
    # one meaning: seen is every tile seen, and a pond's or meld's tile listed there too is the
    # same tile (a kind counts as often as seen lists it, or the ponds and melds, whichever is more)
    total = np.maximum(seen.astype(np.int64), total - seen)
    held = hand.total_counts().astype(np.int64) + total
    if claim is not None:
        held[claim] += 1
    over = [f"{tile_name(t)} ({held[t]})" for t in range(n_kinds) if held[t] > 4]
    if over:
        raise ValueError(
            f"more than four copies of {', '.join(over)} in the hand, seen, ponds, melds and the claimed "
            "tile: each tile has four copies; list each seen tile once and not your own tiles"
        )
    pas = np.zeros((4, n_kinds), dtype=np.uint8)
    for s, text in passed_txt.items():
        if s not in ready:
            raise ValueError(
                f"passed lists seat {s}, which is not ready: give passed tiles of ready seats only"
            )
        h = _tiles(text, f"passed[{s}]", family)
        kinds = np.flatnonzero(h.total_counts())
        unseen = [tile_name(t) for t in kinds if total[t] == 0]
        if unseen:
            raise ValueError(
                f"passed[{s}] has {', '.join(unseen)}, not seen on the table: a passed tile is a discard; "
                "add it to seen or ponds"
            )
        pas[s, kinds] = 1
    return TableView(total, tuple(pond_list), tuple(meld_list), pas, tuple(ready), seat)
