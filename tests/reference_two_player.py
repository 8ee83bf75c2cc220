"""Slow, plain-Python reference for the two-player game (二人麻将), written from
docs/RULES_TWO_PLAYER.md only: no numba, no import of anything in ``daqing_sim`` (its kernels,
evaluator and scoring are what this module checks). Tiles, notation and the Beijing shapes (four
melds and a pair, seven pairs) come from the plain-Python Beijing reference
(:mod:`reference_beijing`), which is written the same way.

What it decides, by definition:

* :func:`is_complete` (the three winning shapes: four melds and a pair, seven pairs with a four
  as two pairs, thirteen orphans), :func:`wait_set` (every kind that completes a 13-tile hand, no
  fifth copy) and :func:`shanten` (the fewest tiles missing from a complete hand, minus one);
* :func:`score`: every *reading* of a win (a split of the tiles into groups and a pair with the
  group the winning tile completed, the seven pairs shape, thirteen orphans), the patterns of
  each reading from the definitions of the page (a list of groups, checked one pattern at a time),
  and the reading worth the most (reading 3 of the page, with its tie rule); F, the value, and
  the wait kinds of the readings scored alike (:func:`wait_kind`).

Each pattern is a predicate on a :class:`Reading`: the groups (``("S", low)`` sequences and
``("T", tile)`` triplets or kongs, melds included), the pair, all the tiles of the hand, and
where the winning tile sits. The readings of the page that the predicates follow are cited by
number (docs/RULES_TWO_PLAYER.md, "Readings of the text").

Tile kinds are ints 0-33: 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27 = 中, 28-31 = 东南西北,
32 = 白, 33 = 发. A hand is ``(counts, melds)`` as in :mod:`reference_beijing`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import reference_beijing as RB

N_KINDS = 34
ZHONG, EAST, SOUTH, WEST, NORTH, WHITE, GREEN = 27, 28, 29, 30, 31, 32, 33
DRAGONS = (ZHONG, WHITE, GREEN)
WINDS = (EAST, SOUTH, WEST, NORTH)
ORPHANS = (0, 8, 9, 17, 18, 26, ZHONG, EAST, SOUTH, WEST, NORTH, WHITE, GREEN)
GREEN_TILES = {19, 20, 21, 23, 25, GREEN}  # 2s 3s 4s 6s 8s 发
RED_TILES = {ZHONG, 18, 22, 24, 26}  # 中 1s 5s 7s 9s

# the page's tables, in their order: name -> fans (None for a limit hand)
PATTERNS: dict[str, int | None] = {
    "plain_win": 1,
    "concealed": 1,
    "riichi": 1,
    "pinfu": 1,
    "tanyao": 1,
    "tsumo": 1,
    "flower": 1,
    "haitei": 1,
    "houtei": 1,
    "extra_draw": 1,
    "double_riichi": 2,
    "iipeikou": 2,
    "toitoi": 2,
    "sanshoku": 2,
    "sanankou": 2,
    "honroutou": 2,
    "ittsu": 2,
    "rinshan": 2,
    "chiitoitsu": 3,
    "sanrenkou": 3,
    "sanshoku_doukou": 3,
    "chanta": 3,
    "honitsu": 3,
    "ryanpeikou": 4,
    "junchan": 4,
    "shousangen": 4,
    "chinitsu": 5,
    "dragon_seven_pairs": 6,
    "tenhou": None,
    "chiihou": None,
    "renhou": None,
    "suuankou": None,
    "daisangen": None,
    "shousuushii": None,
    "daisuushii": None,
    "tsuuiisou": None,
    "chinroutou": None,
    "suukantsu": None,
    "ryuuiisou": None,
    "chuuren": None,
    "kokushi": None,
    "daisharin": None,
    "hyakumangoku": None,
    "suurenkou": None,
    "benikujaku": None,
    "tohoku_shinkansen": None,
}
ORDER = list(PATTERNS)
LIMITS = [name for name, fans in PATTERNS.items() if fans is None]

# the ways of winning: which are self-draws (True), wins on the opponent's tile (False), either
WAYS = {
    "kong_replacement": True,
    "last_tile": True,
    "extra_draw": True,
    "tenhou": True,
    "renhou": True,
    "last_discard": False,
    "chiihou": False,
    "robbed_kong": False,
    "declared": None,
    "declared_first": None,
}
FIRST_TURN = ("tenhou", "chiihou", "renhou")

Melds = Sequence[tuple[str, int]]


def is_orphan(t: int) -> bool:
    return t >= ZHONG or t % 9 in (0, 8)


def is_honor(t: int) -> bool:
    return t >= ZHONG


def is_terminal(t: int) -> bool:
    return t < ZHONG and t % 9 in (0, 8)


# ---------------------------------------------------------------- shapes


def is_kokushi(c14: Sequence[int], melds: Melds = ()) -> bool:
    """Thirteen orphans: no meld, one of each orphan and one of them twice."""
    return (
        not melds
        and sum(c14) == 14
        and all(c14[t] >= 1 for t in ORPHANS)
        and all(c14[t] == 0 for t in range(N_KINDS) if t not in ORPHANS)
    )


def is_complete(c14: Sequence[int], melds: Melds = ()) -> bool:
    return RB.is_complete(c14, melds) or is_kokushi(c14, melds)


def wait_set(counts13: Sequence[int], melds: Melds = ()) -> list[int]:
    """Every kind that completes the 13 tiles, except one of which they hold all four copies."""
    total = RB.total_counts(counts13, melds)
    out = []
    for t in range(N_KINDS):
        if total[t] >= 4:
            continue
        c = list(counts13)
        c[t] += 1
        if is_complete(c, melds):
            out.append(t)
    return out


def kokushi_shanten(counts: Sequence[int]) -> int:
    """Tiles missing from a thirteen orphans hand, minus one (counting by hand, no formula)."""
    best = 99
    for pair in ORPHANS:
        target = {t: 1 for t in ORPHANS}
        target[pair] = 2
        have = sum(min(counts[t], n) for t, n in target.items())
        best = min(best, 14 - have - 1)
    return best


def shanten(counts: Sequence[int], melds: Melds = ()) -> int:
    """The Beijing shapes' shanten (:func:`reference_beijing.shanten`) or thirteen orphans'."""
    s = RB.shanten(counts, melds)
    if not melds:
        s = min(s, kokushi_shanten(counts))
    return s


# ---------------------------------------------------------------- readings and patterns


@dataclass(frozen=True)
class Reading:
    """One way to read a win: ``shape`` "melds", "pairs" or "orphans"; ``groups`` the four groups
    (melds included) as ``("S", low)`` / ``("T", tile)``, each with ``hidden`` telling whether it
    is concealed (a concealed group of the hand or a concealed kong); ``pair``; ``place`` the
    group the winning tile completed (``("P", tile)`` for the pair)."""

    shape: str
    groups: tuple[tuple[str, int], ...] = ()
    hidden: tuple[bool, ...] = ()
    pair: int = -1
    place: tuple[str, int] = ("", -1)


def readings(c14: Sequence[int], melds: Melds, win: int) -> list[Reading]:
    out = []
    meld_groups = [("S" if k == "chi" else "T", low) for k, low in melds]
    meld_hidden = [k == "concealed_kong" for k, _ in melds]
    for pair, groups in RB.standard_splits(c14, 4 - len(melds)):
        places = set()
        if pair == win:
            places.add(("P", win))
        for g in groups:
            kind, low = g
            if (kind == "T" and low == win) or (kind == "S" and low <= win <= low + 2):
                places.add(g)
        for place in sorted(places):
            out.append(
                Reading(
                    "melds",
                    tuple(groups) + tuple(meld_groups),
                    (True,) * len(groups) + tuple(meld_hidden),
                    pair,
                    place,
                )
            )
    if RB.is_seven_pairs(c14, melds):
        out.append(Reading("pairs", place=("P", win)))
    if is_kokushi(c14, melds):
        out.append(Reading("orphans"))
    return out


def wait_kind(r: Reading, win: int) -> str:
    """How the winning tile was waited on in reading ``r``: the pair (or seven pairs, thirteen
    orphans) "single", a triplet "dual_pair" (双碰), the middle of a sequence "kanchan", the end of
    one "two_sided" (45 on 3 or 6) or "edge" (12 on 3, 89 on 7)."""
    kind, low = r.place
    if r.shape != "melds" or kind == "P":
        return "single"
    if kind == "T":
        return "dual_pair"
    if win == low + 1:
        return "kanchan"
    two_sided = (win == low and low % 9 != 6) or (win == low + 2 and low % 9 != 0)
    return "two_sided" if two_sided else "edge"


def _group_tiles(g: tuple[str, int]) -> list[int]:
    kind, low = g
    return [low, low + 1, low + 2] if kind == "S" else [low]


def reading_patterns(
    r: Reading,
    c14: Sequence[int],
    melds: Melds,
    win: int,
    how: dict[str, bool],
    self_draw: bool,
    flowers: Sequence[int],
    open_pinfu: bool = True,
) -> tuple[set[str], int]:
    """The patterns of one reading and the number of flower tiles in the hand."""
    tiles = [t for t in range(N_KINDS) for _ in range(RB.total_counts(c14, melds)[t])]
    kinds = set(tiles)
    suits = {t // 9 for t in kinds if t < ZHONG}
    honors = any(is_honor(t) for t in kinds)
    concealed = all(k == "concealed_kong" for k, _ in melds)  # reading 4
    scored_as_self_draw = self_draw or how.get("robbed_kong", False)  # reading 5
    p: set[str] = set()
    # -- how it was won
    if concealed:
        p.add("concealed")
        if scored_as_self_draw:
            p.add("tsumo")
        if how.get("declared") and not how.get("declared_first"):
            p.add("riichi")  # reading 6
    if how.get("declared_first"):
        p.add("double_riichi")
    for name, fan in (
        ("last_tile", "haitei"),
        ("last_discard", "houtei"),
        ("extra_draw", "extra_draw"),
        ("kong_replacement", "rinshan"),
        ("tenhou", "tenhou"),
        ("chiihou", "chiihou"),
        ("renhou", "renhou"),
    ):
        if how.get(name):
            p.add(fan)
    n_flowers = sum(tiles.count(f) for f in flowers)  # reading 9
    if n_flowers:
        p.add("flower")
    # -- the tiles (reading 8)
    if all(t < ZHONG and 1 <= t % 9 <= 7 for t in kinds):
        p.add("tanyao")
    if len(suits) == 1 and not honors:
        p.add("chinitsu")
    if len(suits) == 1 and honors:
        p.add("honitsu")  # reading 17
    if all(is_orphan(t) for t in kinds) and honors and any(is_terminal(t) for t in kinds):
        p.add("honroutou")  # reading 14
    if kinds <= GREEN_TILES:
        p.add("ryuuiisou")  # reading 21
    if suits == {0} and not honors and sum(t % 9 + 1 for t in tiles) >= 100:
        p.add("hyakumangoku")  # reading 23
    if sum(k in ("kong", "concealed_kong") for k, _ in melds) == 4:
        p.add("suukantsu")
    before = list(c14)
    before[win] -= 1
    if not melds and len(suits) == 1 and not honors:  # reading 22
        s = next(iter(suits))
        if before[9 * s : 9 * s + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]:
            p.add("chuuren")
    # -- the shape
    if r.shape == "orphans":
        p.add("kokushi")
    elif r.shape == "pairs":  # reading 19
        fours = [t for t in range(N_KINDS) if c14[t] == 4]
        p.add("dragon_seven_pairs" if win in fours else "chiitoitsu")
        if len(suits) == 1 and not honors and all(1 <= t % 9 <= 7 for t in kinds):
            p.add("daisharin")  # reading 23
    else:
        p |= _meld_patterns(r, win, scored_as_self_draw, concealed, open_pinfu, honors, kinds)
    return p, n_flowers


def _meld_patterns(
    r: Reading, win: int, scored_as_self_draw: bool, concealed: bool, open_pinfu: bool, honors: bool, kinds
) -> set[str]:
    p: set[str] = set()
    seqs = [low for kind, low in r.groups if kind == "S"]
    trips = [low for kind, low in r.groups if kind == "T"]
    if not seqs:
        p.add("toitoi")  # reading 12
        if all(is_honor(t) for t in kinds):
            p.add("tsuuiisou")  # reading 20
        if all(is_terminal(t) for t in kinds):
            p.add("chinroutou")
        if kinds <= RED_TILES:
            p.add("benikujaku")
    same = sum(n // 2 for n in Counter(seqs).values())  # reading 11
    if same >= 2:
        p.add("ryanpeikou")
    elif same == 1:
        p.add("iipeikou")
    if any({r_, r_ + 9, r_ + 18} <= set(seqs) for r_ in range(7)):
        p.add("sanshoku")
    if any({r_, r_ + 9, r_ + 18} <= set(trips) for r_ in range(9)):
        p.add("sanshoku_doukou")
    ittsu = any({9 * s, 9 * s + 3, 9 * s + 6} <= set(seqs) for s in range(3))
    if ittsu:
        p.add("ittsu")
        if (EAST in trips and r.pair == NORTH) or (NORTH in trips and r.pair == EAST):
            p.add("tohoku_shinkansen")
    for s in range(3):  # reading 16
        for low in range(9 * s, 9 * s + 7):
            if {low, low + 1, low + 2} <= set(trips):
                p.add("sanrenkou")
            if low <= 9 * s + 5 and {low, low + 1, low + 2, low + 3} <= set(trips):
                p.add("suurenkou")
    every = all(any(is_orphan(t) for t in _group_tiles(g)) for g in r.groups) and is_orphan(r.pair)
    if every:  # reading 15
        p.add("chanta" if honors else "junchan")
    dragon_trips = sum(t in DRAGONS for t in trips)
    wind_trips = sum(t in WINDS for t in trips)
    if dragon_trips == 3:
        p.add("daisangen")
    if dragon_trips == 2 and r.pair in DRAGONS:
        p.add("shousangen")
    if wind_trips == 4:
        p.add("daisuushii")
    if wind_trips == 3 and r.pair in WINDS:
        p.add("shousuushii")
    # the winning tile's group: concealed triplets (reading 13) and pinfu's wait (reading 7)
    hidden = sum(1 for (kind, _), h in zip(r.groups, r.hidden, strict=True) if kind == "T" and h)
    if r.place[0] == "T" and not scored_as_self_draw:
        hidden -= 1  # a triplet completed by the opponent's discard counts as exposed
    if hidden == 4:
        p.add("suuankou")
    elif hidden == 3:
        p.add("sanankou")
    kind, low = r.place
    two_sided = kind == "S" and ((win == low and low % 9 != 6) or (win == low + 2 and low % 9 != 0))
    if len(seqs) == 4 and not is_honor(r.pair) and two_sided and (concealed or open_pinfu):
        p.add("pinfu")
    return p


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Score:
    """One win: ``fans`` (code name -> fans), ``total_fans`` F, ``value``; ``tied`` the fan lists
    of every reading with the same F; ``readings`` how many readings the win has."""

    fans: dict[str, int]
    total_fans: int
    value: int
    tied: tuple[dict[str, int], ...] = field(default=())
    readings: int = 0
    waits: tuple[str, ...] = ()


def _valued(patterns: set[str], n_flowers: int, cap: int) -> tuple[dict[str, int], int, bool, int]:
    """(fans listed, F, limit?, sum before the cap) of one reading's patterns (readings 1, 2)."""
    limits = [name for name in ORDER if name in patterns and PATTERNS[name] is None]
    if limits:
        return {name: cap for name in limits}, cap, True, cap * len(limits)
    fans = {name: (n_flowers if name == "flower" else PATTERNS[name]) for name in ORDER if name in patterns}
    if not fans:
        fans = {"plain_win": 1}
    raw = sum(fans.values())
    return fans, min(raw, cap), False, raw


def check_how(
    counts13: Sequence[int], melds: Melds, self_draw: bool, how: dict[str, bool], flowers, flower_tiles
) -> None:
    """Reading 24: a way of winning that cannot happen is a ``ValueError``."""
    on = {name for name, v in how.items() if v}
    if unknown := on - set(WAYS):
        raise ValueError(f"unknown way of winning {sorted(unknown)}")
    if self_draw and any(WAYS[n] is False for n in on):
        raise ValueError("a win on the opponent's tile is no self-draw")
    if not self_draw and any(WAYS[n] is True for n in on):
        raise ValueError("a self-draw way of winning needs self_draw")
    if sum(WAYS[n] is False for n in on) > 1:
        raise ValueError("two different tiles of the opponent")
    if {"last_tile", "extra_draw"} <= on:
        raise ValueError("the last of the 71 tiles is not an extra draw")
    first = on & set(FIRST_TURN)
    if first and (len(on) > 1 or melds):
        raise ValueError("a first-turn win goes with nothing else and no meld")
    opened = any(k != "concealed_kong" for k, _ in melds)
    if "declared_first" in on and opened:
        raise ValueError("天听 comes before any claim")
    if on & {"declared", "declared_first"} and "kong_replacement" in on:
        raise ValueError("a declared hand makes no kong")
    if "kong_replacement" in on and not any(k in ("kong", "concealed_kong") for k, _ in melds):
        raise ValueError("a kong replacement needs a kong")
    if len(flowers) > flower_tiles:
        raise ValueError("more flower tiles than are face up")


def score(
    counts13: Sequence[int],
    melds: Melds,
    win: int,
    *,
    self_draw: bool,
    flowers: Sequence[int] = (),
    limit_fans: int = 13,
    multiplier: int = 1,
    points_per_fan: int = 1,
    match_doubling: bool = True,
    match_game: int = 0,
    open_pinfu: bool = True,
    flower_tiles: int = 1,
    **how: bool,
) -> Score:
    """Fans, F and value of the win of the 13 tiles ``(counts13, melds)`` on ``win``; ``how`` the
    ways of winning of :data:`WAYS`. ``ValueError`` when the tile does not complete the hand or
    the way of winning cannot happen."""
    RB._check_size(counts13, melds, 13)
    check_how(counts13, melds, self_draw, how, flowers, flower_tiles)
    c14 = list(counts13)
    c14[win] += 1
    total = RB.total_counts(c14, melds)
    for f in set(flowers):
        if total[f] + list(flowers).count(f) > 4:
            raise ValueError("a fifth copy with the face-up flower tiles")
    if total[win] > 4 or not is_complete(c14, melds):
        raise ValueError(f"{RB.tile_name(win)} does not complete {RB.notation(counts13, melds)}")
    rs = readings(c14, melds, win)
    scored = []
    for r in rs:
        patterns, n_flowers = reading_patterns(r, c14, melds, win, how, self_draw, flowers, open_pinfu)
        fans, f, limit, raw = _valued(patterns, n_flowers, limit_fans)
        code = sum(1 << ORDER.index(name) for name in fans)
        scored.append(((f, limit, raw, code), fans, wait_kind(r, win)))
    key, fans, _ = max(scored, key=lambda x: x[0])  # reading 3
    tied = tuple(fs for k, fs, _ in scored if k[0] == key[0])
    waits = tuple(sorted({w for k, _, w in scored if k == key}))
    value = key[0] * multiplier * points_per_fan * (2**match_game if match_doubling else 1)
    return Score(fans, key[0], value, tied, len(rs), waits)


def score_notation(hand: str, win: str, **kw) -> Score:
    counts, melds = RB.parse(hand)
    return score(counts, melds, RB.tile_kind(win), **kw)
