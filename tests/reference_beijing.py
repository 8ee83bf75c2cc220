"""Slow, plain-Python reference for Beijing mahjong (北京麻将), written from docs/RULES_BEIJING.md
only: no numba, no import of anything in ``daqing_sim`` (its notation, kernels, evaluator, scoring
and tables are what this module checks). Plain lists and ints throughout.

What it decides, by definition:

* :func:`parse` reads hand notation (digits with ``m``/``p``/``s``/``z``, honors as
  ``东南西北中发白`` or ``1z``-``7z`` = 东 南 西 北 白 发 中, ``C`` = 中; ``[..]`` exposed melds,
  ``(..)`` a concealed kong);
* :func:`standard_splits` enumerates *every* split of the concealed tiles into groups and one
  pair (each split once), :func:`is_seven_pairs` the seven pairs shape (four identical concealed
  tiles count as two pairs; a declared kong is a meld and leaves 11 concealed tiles, so a hand
  with a meld is never seven pairs);
* :func:`wait_set` finds the winning tiles of a 13-tile hand directly from its partial shapes
  (a single, or a pair plus a two-tile shape), :func:`wait_set_brute` by trying all 34 kinds;
* :func:`shanten` is the fewest tiles missing from any complete hand (within four copies)
  minus one, by a search of the targets suit by suit;
* :func:`score` gives the fans of a win for the split worth the most, F, and the value;
  :func:`payments` and :func:`burn_payments` what each seat pays; :func:`bindings`,
  :func:`bound_partner`, :func:`wall_end_tiles`, :func:`claim_options`, :func:`claim_taken`,
  :func:`burn_rounds` and :func:`must_follow_wind` the deal rules that a log check needs.

Readings of the rules page where it leaves room (each is a decision of this reference; the test
against the kernels shows whether the engine reads it the same way):

1. **No fifth copy.** A kind of which the 13-tile hand (melds included) holds all four copies
   is not a winning tile, so ``"5555z123m456p789s"`` waits on nothing.
2. **Robbed kong (抢杠) is not a self-draw.** The source: "凡是搶杠和牌的情況一律按開杠的選手點炮來處理。
   而點炮的選手要按和牌選手自摸所產生的點數支付" — the win is handled as a deal-in by the kong's
   declarer, who pays the points the winner's *self-draw* would bring (three shares). So the fans
   are those of a win on a discard: no 海底捞月, no 杠上开花 (the tile was not drawn by the winner),
   and no ``last_discard`` (the robbed tile is not a discard); only the *payment* is the
   self-draw's three shares, all paid by the declarer.
3. **A way of winning that cannot happen is an error**, not a silent "no fan": ``last_tile``
   (海底捞月) and ``kong_replacement`` (杠上开花) need ``self_draw``; ``last_discard`` and
   ``robbed_kong`` need a win on another player's tile and exclude each other (a robbed tile is
   no discard). ``last_tile`` with ``kong_replacement`` (the replacement is the last drawable
   tile) gives both fans.
4. **捉五魁** (``catch_five``): the winning tile is 5m, the 13-tile hand's wait set (reading 1)
   is exactly {5m}, *and* in the split scored the 5m is the middle of a concealed 456m (the
   4m-6m kanchan) or the pair (the single wait). (A two-sided 34m/67m whose other tile is
   blocked by four held copies would not count; a targeted search of 200,000 hands found no
   hand whose only wait is 5m without a kanchan or single split, so the two readings agree in
   practice.) On seven pairs the 5m is a pair, so 七对 + 捉五魁 is possible.
5. **大钓** (``big_single_wait``): all four melds are chi, peng or exposed/added kong; a concealed
   kong is not exposed. The single wait is then automatic (one concealed tile left).
6. **一条龙** (``dragon``): the split's sequences (concealed ones and chi melds) include 123, 456
   and 789 of one suit. Seven pairs has no sequences, so no dragon.
7. **豪华七对** (``luxury_seven_pairs``, 8) replaces 七对; two sets of four identical tiles still
   give 8 (the page names no more).
8. **Split worth the most**: the largest F over all splits and the seven pairs shape. When
   several splits tie on F with different fan lists, :attr:`Score.fans` is the first in a fixed
   order and :attr:`Score.tied` holds all of them (a checker should accept any).
9. ``plain_win`` (1) is given when the split has none of the nine fan types; ``last_discard`` is
   not one of the nine, so a plain win on the last discard is ``plain_win`` + ``last_discard`` = 2.
10. **Open** (value x ``open_hand_factor``) = any chi, peng, exposed or added kong; a concealed
    kong keeps the hand concealed.
11. **互包** payments: the bound partner pays everything the losers would pay, on a deal-in (the
    value), a self-draw (three values) and a robbed kong (three values). When a winner is bound
    to two players, the partner of the binding formed first pays; :func:`payments` takes it.
12. **烧庄**: round k of matching first discards costs the dealer ``burn_points * 2**(k-1)`` to
    each of the three others; nothing on a drawn deal.
13. **互包 counts claims of discards**: chi, peng and a kong claimed from a discard each count
    as one of the three; an added kong is no new claim. Two seats are bound once either has
    made three claims from the other.
14. **Claims**: a win may be taken on any discard that completes the hand (no rule against
    winning on a tile one let pass before); only a win may claim the last discard.

Tile kinds are ints 0-33: 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27 = 中, 28-31 = 东南西北,
32 = 白, 33 = 发. A hand is ``(counts, melds)``: ``counts`` 34 ints of concealed tiles, ``melds``
a list of ``(kind, lowest_tile)`` with kind ``"chi"``, ``"peng"``, ``"kong"`` (exposed or added)
or ``"concealed_kong"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

N_KINDS = 34
ZHONG = 27
SUITS = "mps"
# 1z-7z = 东 南 西 北 白 发 中 (the usual mahjong-software order) -> our kind codes
Z_TO_KIND = {1: 28, 2: 29, 3: 30, 4: 31, 5: 32, 6: 33, 7: 27}
KIND_TO_Z = {k: z for z, k in Z_TO_KIND.items()}
CHAR_TO_KIND = {"东": 28, "南": 29, "西": 30, "北": 31, "白": 32, "发": 33, "中": 27, "C": 27}
KIND_TO_CHAR = {k: c for c, k in CHAR_TO_KIND.items() if c != "C"}
EXPOSED_KINDS = ("chi", "peng", "kong")
MELD_KINDS = EXPOSED_KINDS + ("concealed_kong",)

FAN_TYPES = (
    "all_triplets",
    "big_single_wait",
    "catch_five",
    "last_tile",
    "dragon",
    "seven_pairs",
    "kong_bloom",
    "one_suit",
    "luxury_seven_pairs",
)
DEFAULT_FANS = {
    "all_triplets": 2,
    "big_single_wait": 2,
    "catch_five": 2,
    "last_tile": 2,
    "dragon": 3,
    "seven_pairs": 4,
    "kong_bloom": 5,
    "one_suit": 6,
    "luxury_seven_pairs": 8,
    "plain_win": 1,
    "last_discard": 1,
}
FIVE_M = 4

Melds = Sequence[tuple[str, int]]


# ---------------------------------------------------------------- tiles and notation


def is_suited(t: int) -> bool:
    return t < 27


def tile_name(t: int, honors: str = "z") -> str:
    """``"5m"``, ``"3z"`` (or ``"西"`` with ``honors="char"``)."""
    if not 0 <= t < N_KINDS:
        raise ValueError(f"tile kind {t} is out of range 0-33")
    if is_suited(t):
        return f"{t % 9 + 1}{SUITS[t // 9]}"
    return KIND_TO_CHAR[t] if honors == "char" else f"{KIND_TO_Z[t]}z"


def _tiles(text: str) -> list[int]:
    out: list[int] = []
    for m in re.finditer(r"([1-9]+)([mpsz])|([东南西北中发白C])|(\s+)|(.)", text):
        if m.group(5) is not None:
            raise ValueError(f"cannot read {m.group(5)!r} in {text!r}")
        if m.group(1):
            for d in m.group(1):
                if m.group(2) == "z":
                    if int(d) > 7:
                        raise ValueError(f"{d}z is no tile: honors are 1z-7z")
                    out.append(Z_TO_KIND[int(d)])
                else:
                    out.append(SUITS.index(m.group(2)) * 9 + int(d) - 1)
        elif m.group(3):
            out.append(CHAR_TO_KIND[m.group(3)])
    return out


def tile_kind(name: str) -> int:
    """Kind of one tile name: ``"5m"``, ``"3z"``, ``"西"``, ``"C"``."""
    ts = _tiles(name.strip())
    if len(ts) != 1:
        raise ValueError(f"{name!r} is not one tile")
    return ts[0]


def _meld(tiles: list[int], concealed: bool, text: str) -> tuple[str, int]:
    ts = sorted(tiles)
    same = len(set(ts)) == 1
    if concealed:
        if len(ts) == 4 and same:
            return ("concealed_kong", ts[0])
        raise ValueError(f"({text}) is not a concealed kong")
    if len(ts) == 4 and same:
        return ("kong", ts[0])
    if len(ts) == 3 and same:
        return ("peng", ts[0])
    if len(ts) == 3 and is_suited(ts[0]) and ts[0] // 9 == ts[2] // 9 and ts == [ts[0], ts[0] + 1, ts[0] + 2]:
        return ("chi", ts[0])
    raise ValueError(f"[{text}] is not a meld")


def parse(text: str) -> tuple[list[int], list[tuple[str, int]]]:
    """``(counts, melds)`` of hand notation; at most four copies of a kind (melds included)."""
    melds = [
        _meld(_tiles(body), op == "(", body)
        for op, body, _ in re.findall(r"([\[(])([^\[\]()]*)([\])])", text)
    ]
    rest = re.sub(r"[\[(][^\[\]()]*[\])]", " ", text)
    counts = [0] * N_KINDS
    for t in _tiles(rest):
        counts[t] += 1
    if any(c > 4 for c in total_counts(counts, melds)):
        raise ValueError(f"more than four copies of a tile in {text!r}")
    return counts, melds


def notation(counts: Sequence[int], melds: Melds = (), honors: str = "z") -> str:
    """Inverse of :func:`parse`: concealed tiles by suit, then the melds."""
    parts = []
    for s, letter in enumerate(SUITS):
        digits = "".join(str(r + 1) * counts[s * 9 + r] for r in range(9))
        if digits:
            parts.append(digits + letter)
    hon = [t for t in (28, 29, 30, 31, 32, 33, 27) for _ in range(counts[t])]
    if hon:
        if honors == "char":
            parts.append("".join(KIND_TO_CHAR[t] for t in hon))
        else:
            parts.append("".join(str(KIND_TO_Z[t]) for t in hon) + "z")
    text = "".join(parts)
    for kind, low in melds:
        body = _meld_notation(kind, low, honors)
        text += f" ({body})" if kind == "concealed_kong" else f" [{body}]"
    return text.strip()


def _meld_notation(kind: str, low: int, honors: str) -> str:
    ts = meld_tiles(kind, low)
    if not is_suited(low):
        return "".join(tile_name(t, honors)[0] for t in ts) + ("" if honors == "char" else "z")
    return "".join(str(t % 9 + 1) for t in ts) + SUITS[low // 9]


def meld_tiles(kind: str, low: int) -> list[int]:
    if kind == "chi":
        return [low, low + 1, low + 2]
    return [low] * (3 if kind == "peng" else 4)


def total_counts(counts: Sequence[int], melds: Melds) -> list[int]:
    total = list(counts)
    for kind, low in melds:
        for t in meld_tiles(kind, low):
            total[t] += 1
    return total


def _check_size(counts: Sequence[int], melds: Melds, size: int) -> None:
    if len(counts) != N_KINDS:
        raise ValueError(f"counts must have {N_KINDS} entries, got {len(counts)}")
    want = size - 3 * len(melds)
    if sum(counts) != want:
        raise ValueError(f"a {size}-tile hand with {len(melds)} meld(s) has {want} concealed tiles")


# ---------------------------------------------------------------- shapes


@cache
def _splits(counts: tuple[int, ...], n_groups: int, need_pair: bool, base: int = 0) -> tuple:
    """All splits of ``counts`` (tile kinds ``base``, ``base + 1``, ...) into ``n_groups`` groups
    (and a pair when ``need_pair``), each once: at the lowest kind held, choose how many
    triplets (0-1), pairs (0-1) and sequences start there. Returns a tuple of ``(pair, groups)``
    with groups sorted ``("T"|"S", tile)``; ``pair`` is -1 when there is none."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((-1, ()),) if n_groups == 0 and not need_pair else ()
    c, tile = counts[i], base + i
    out = []
    for trip in (0, 1):
        for pair in (0, 1) if need_pair else (0,):
            seq = c - 3 * trip - 2 * pair
            if seq < 0 or trip + seq > n_groups:
                continue
            rest = list(counts)
            rest[i] = 0
            if seq:
                if not is_suited(tile) or tile % 9 > 6 or counts[i + 1] < seq or counts[i + 2] < seq:
                    continue
                rest[i + 1] -= seq
                rest[i + 2] -= seq
            here = (("T", tile),) * trip + (("S", tile),) * seq
            for p, groups in _splits(tuple(rest), n_groups - trip - seq, need_pair and not pair, base):
                out.append((tile if pair else p, here + groups))
    return tuple(out)


SEGMENTS = ((0, 9), (9, 18), (18, 27), (27, 34))  # the three suits and the honors


def _segment_splits(counts: Sequence[int], n_groups: int, need_pair: bool) -> list:
    """:func:`_splits` suit by suit (a group never spans two suits): the same splits, from small
    cached pieces."""
    sizes = [sum(counts[lo:hi]) % 3 for lo, hi in SEGMENTS]
    if sum(counts) != 3 * n_groups + 2 * need_pair or sizes.count(2) != need_pair or 1 in sizes:
        return []
    pieces = []
    for lo, hi in SEGMENTS:
        seg = tuple(counts[lo:hi])
        n = sum(seg)
        has_pair = n % 3 == 2
        got = _splits(seg, (n - 2 * has_pair) // 3, has_pair, lo) if n else ((-1, ()),)
        if not got:
            return []
        pieces.append(got)
    out = [(-1, ())]
    for got in pieces:
        out = [(max(p, q), g + h) for p, g in out for q, h in got]
    return out


def standard_splits(counts: Sequence[int], n_groups: int) -> list:
    """Every split of the concealed ``counts`` into ``n_groups`` groups and a pair."""
    return _segment_splits(counts, n_groups, True)


def standard_splits_generic(counts: Sequence[int], n_groups: int) -> tuple:
    """:func:`standard_splits` by one search over all 34 kinds (a cross-check)."""
    return _splits(tuple(counts), n_groups, True)


def is_groups(counts: Sequence[int], n_groups: int) -> bool:
    return bool(_segment_splits(counts, n_groups, False))


def is_seven_pairs(counts: Sequence[int], melds: Melds = ()) -> bool:
    """Seven pairs: no melds, 14 concealed tiles, every count even (a four is two pairs)."""
    return not melds and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def is_complete(counts: Sequence[int], melds: Melds = ()) -> bool:
    """A 14-tile hand that is a win: four melds and a pair, or seven pairs."""
    return bool(standard_splits(counts, 4 - len(melds))) or is_seven_pairs(counts, melds)


def wait_set_brute(counts: Sequence[int], melds: Melds = ()) -> list[int]:
    """Winning tiles of a 13-tile hand: every kind that completes it (no fifth copy)."""
    _check_size(counts, melds, 13)
    total = total_counts(counts, melds)
    out = []
    for t in range(N_KINDS):
        if total[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        if is_complete(c, melds):
            out.append(t)
    return out


def wait_set(counts: Sequence[int], melds: Melds = ()) -> list[int]:
    """Winning tiles of a 13-tile hand from its partial shapes, without trying tiles: the
    concealed part is (a) the groups and one single tile (wait: that tile), (b) one group fewer,
    a pair and a two-tile shape (a pair: 对倒; two in a row: the tiles at either end; a gap: the
    tile in it), or (c) six pairs and an odd tile (seven pairs; a four is two pairs)."""
    _check_size(counts, melds, 13)
    c = list(counts)
    n = 4 - len(melds)
    waits: set[int] = set()
    # a group never spans two suits: only pieces that leave every suit a multiple of 3 can work
    mods = [sum(c[lo:hi]) % 3 for lo, hi in SEGMENTS]

    def fits(*taken: int) -> bool:
        left = list(mods)
        for t in taken:
            left[_segment(t)] -= 1
        return all(m % 3 == 0 for m in left)

    for x in range(N_KINDS):
        if c[x] and fits(x):
            c[x] -= 1
            if is_groups(c, n):
                waits.add(x)
            c[x] += 1
    if n >= 1:
        for y in range(N_KINDS):
            if c[y] < 2:
                continue
            c[y] -= 2
            for a in range(N_KINDS):
                if not c[a] or not fits(y, y, a, a):
                    continue
                for b, wait in _two_tile_shapes(a):
                    if c[b] < 1 + (a == b):
                        continue
                    c[a] -= 1
                    c[b] -= 1
                    if is_groups(c, n - 1):
                        waits.update(wait)
                    c[a] += 1
                    c[b] += 1
            c[y] += 2
    if not melds:
        odd = [t for t in range(N_KINDS) if c[t] % 2]
        if len(odd) == 1 and sum(v // 2 for v in c) == 6:
            waits.add(odd[0])
    total = total_counts(counts, melds)
    return sorted(t for t in waits if total[t] < 4)


def _segment(t: int) -> int:
    return min(t // 9, 3)


def _two_tile_shapes(a: int) -> list[tuple[int, tuple[int, ...]]]:
    """``(b, waits)`` for the two-tile shapes ``a``+``b`` with ``b >= a``."""
    shapes = [(a, (a,))]
    if is_suited(a):
        r = a % 9
        if r <= 7:
            shapes.append((a + 1, tuple(w for w, ok in ((a - 1, r >= 1), (a + 2, r <= 6)) if ok)))
        if r <= 6:
            shapes.append((a + 2, (a + 1,)))
    return shapes


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Score:
    """One win: ``fans`` (code name -> fans), ``total_fans`` F, ``value``; ``tied`` every fan
    list of a split with the same F; ``splits`` how many winning shapes the hand has."""

    fans: dict[str, int]
    total_fans: int
    value: int
    open: bool
    tied: tuple[dict[str, int], ...] = field(default=())
    splits: int = 0


def _shape_fans(
    shape: str, pair: int, groups: tuple, melds: Melds, full: list[int], only_five: bool
) -> list[str]:
    """The fan types of one winning shape (not the ones that depend on how the tile came)."""
    fans = []
    suits = {t // 9 for t in range(N_KINDS) if full[t]}
    if all(is_suited(t) for t in range(N_KINDS) if full[t]) and len(suits) == 1:
        fans.append("one_suit")
    if shape == "pairs":
        fans.append("luxury_seven_pairs" if 4 in full else "seven_pairs")
        if only_five:
            fans.append("catch_five")
        return fans
    if all(g == "T" for g, _ in groups) and all(k != "chi" for k, _ in melds):
        fans.append("all_triplets")
    if len(melds) == 4 and all(k in EXPOSED_KINDS for k, _ in melds):
        fans.append("big_single_wait")
    sequences = {t for g, t in groups if g == "S"} | {t for k, t in melds if k == "chi"}
    if any({s * 9, s * 9 + 3, s * 9 + 6} <= sequences for s in range(3)):
        fans.append("dragon")
    if only_five and (pair == FIVE_M or ("S", FIVE_M - 1) in groups):
        fans.append("catch_five")
    return fans


def score(
    counts13: Sequence[int],
    melds: Melds,
    win_tile: int,
    *,
    self_draw: bool,
    last_tile: bool = False,
    last_discard: bool = False,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
    fan_values: dict[str, int] | None = None,
    fan_combine: str = "add",
    base_points: int = 1000,
    open_hand_factor: float = 0.5,
) -> Score:
    """Fans, F and value of the win of the 13-tile hand ``(counts13, melds)`` on ``win_tile``.

    Raises ``ValueError`` when the tile does not complete the hand or the way of winning is
    impossible (reading 3)."""
    _check_size(counts13, melds, 13)
    if (last_tile or kong_replacement) and not self_draw:
        raise ValueError("last_tile and kong_replacement are self-draws: pass self_draw=True")
    if (last_discard or robbed_kong) and self_draw:
        raise ValueError("last_discard and robbed_kong are wins on another player's tile: self_draw=False")
    if last_discard and robbed_kong:
        raise ValueError("a robbed kong is not the last discard")
    if fan_combine not in ("add", "double"):
        raise ValueError(f"fan_combine must be 'add' or 'double', got {fan_combine!r}")
    values = {**DEFAULT_FANS, **(fan_values or {})}
    c14 = list(counts13)
    c14[win_tile] += 1
    full = total_counts(c14, melds)
    if full[win_tile] > 4 or not is_complete(c14, melds):
        raise ValueError(f"{tile_name(win_tile)} does not complete {notation(counts13, melds)}")
    only_five = win_tile == FIVE_M and wait_set_brute(counts13, melds) == [FIVE_M]
    shapes = [("standard", p, g) for p, g in standard_splits(c14, 4 - len(melds))]
    if is_seven_pairs(c14, melds):
        shapes.append(("pairs", -1, ()))
    context = ["last_tile"] * last_tile + ["kong_bloom"] * kong_replacement
    extra = ["last_discard"] * last_discard
    scored = []
    for shape, pair, groups in shapes:
        types = _shape_fans(shape, pair, groups, melds, full, only_five) + context
        names = (types or ["plain_win"]) + extra
        fans = {k: values[k] for k in sorted(names)}
        scored.append((sum(fans.values()), fans))
    best = max(f for f, _ in scored)
    tied: list[dict[str, int]] = []
    for f, fans in scored:
        if f == best and fans not in tied:
            tied.append(fans)
    is_open = any(k in EXPOSED_KINDS for k, _ in melds)
    mult = best if fan_combine == "add" else 2 ** (best - values["plain_win"])
    value = base_points * mult * (open_hand_factor if is_open else 1)
    if value != int(value):
        raise ValueError(f"value {value} is not a whole number of points")
    return Score(tied[0], best, int(value), is_open, tuple(tied), len(shapes))


def score_notation(hand: str, win: str, **kw) -> Score:
    counts, melds = parse(hand)
    return score(counts, melds, tile_kind(win), **kw)


def may_rob_concealed_kong(counts13: Sequence[int], melds: Melds, tile: int) -> bool:
    """A concealed kong of ``tile`` may be robbed by this hand only when a winning split on it
    holds 一条龙 (the source: 一条龙的龙身可以抢暗杠)."""
    if tile not in wait_set_brute(counts13, melds):
        return False
    c14 = list(counts13)
    c14[tile] += 1
    full = total_counts(c14, melds)
    return any(
        "dragon" in _shape_fans("standard", p, g, melds, full, False)
        for p, g in standard_splits(c14, 4 - len(melds))
    )


def payments(
    value: int,
    winner: int,
    *,
    self_draw: bool,
    discarder: int | None = None,
    robbed_from: int | None = None,
    bound_partner: int | None = None,
) -> list[int]:
    """What each of the four seats receives (negative: pays). Deal-in: the discarder pays the
    value; self-draw: each other seat pays it; robbed kong (``robbed_from``, the kong's
    declarer): the declarer pays the three self-draw shares; 互包 (``bound_partner``): the
    partner pays all the losers would pay. The four amounts sum to zero."""
    pay = [0] * 4
    if robbed_from is not None:
        if self_draw or discarder is not None:
            raise ValueError("a robbed kong is neither a self-draw nor a discard")
        debts = {robbed_from: 3 * value}
    elif self_draw:
        if discarder is not None:
            raise ValueError("a self-draw has no discarder")
        debts = {s: value for s in range(4) if s != winner}
    else:
        if discarder is None or discarder == winner:
            raise ValueError("a deal-in needs a discarder other than the winner")
        debts = {discarder: value}
    if bound_partner is not None:
        if bound_partner == winner:
            raise ValueError("the winner cannot be its own bound partner")
        debts = {bound_partner: sum(debts.values())}
    for s, v in debts.items():
        pay[s] -= v
        pay[winner] += v
    return pay


def burn_payments(rounds: int, dealer: int, *, drawn: bool = False, burn_points: int = 1000) -> list[int]:
    """烧庄: after ``rounds`` rounds of matching discards the dealer pays each other seat
    ``burn_points * (1 + 2 + ... + 2**(rounds-1))``; nothing when the deal is drawn."""
    each = 0 if drawn else burn_points * (2**rounds - 1)
    return [-3 * each if s == dealer else each for s in range(4)]


def iter_tiles(counts: Sequence[int]) -> Iterator[int]:
    for t, c in enumerate(counts):
        yield from [t] * c


# ---------------------------------------------------------------- shanten


@cache
def _segment_overlap(counts: tuple[int, ...], limits: tuple[int, ...], base: int) -> dict:
    """``{(groups, pairs): most tiles of counts}`` that a target of that many groups and pairs
    inside this suit (never more copies of a kind than ``limits``) can share with ``counts``.
    Kind by kind, carrying the sequences under way: ``need`` of them want this kind, ``late``
    of those (started one kind back) want the next kind too."""
    size = len(counts)

    @cache
    def best(i: int, groups: int, pairs: int, need: int, late: int) -> int:
        if i == size:
            return 0 if groups == pairs == need == 0 else -99
        out = -99
        suited = is_suited(base + i)
        for trip in (0, 1):
            for pair in (0, 1) if pairs else (0,):
                room = groups - trip
                for seq in range(room + 1) if suited and i <= size - 3 else (0,):
                    target = need + 3 * trip + 2 * pair + seq
                    if target > limits[i]:
                        break
                    rest = best(i + 1, room - seq, pairs - pair, late + seq, seq)
                    out = max(out, rest + min(counts[i], target))
        return out

    return {(g, p): best(0, g, p, 0, 0) for g in range(5) for p in (0, 1)}


def shanten(counts: Sequence[int], melds: Melds = ()) -> int:
    """Shanten of a 13- or 14-tile hand by definition: the fewest tiles missing from a complete
    hand (four melds and a pair with the melds fixed, or seven pairs with fours as two pairs,
    at most four copies of a kind) minus one. 0 = ready, -1 = complete."""
    n_concealed = sum(counts)
    if n_concealed + 3 * len(melds) not in (13, 14):
        raise ValueError("shanten needs a 13- or 14-tile hand")
    n = 4 - len(melds)
    limits = [4 - t for t in total_counts([0] * N_KINDS, melds)]
    segs = [_segment_overlap(tuple(counts[lo:hi]), tuple(limits[lo:hi]), lo) for lo, hi in SEGMENTS]
    overlap = -99
    for g0 in range(n + 1):
        for g1 in range(n + 1 - g0):
            for g2 in range(n + 1 - g0 - g1):
                gs = (g0, g1, g2, n - g0 - g1 - g2)
                for ps in range(4):
                    overlap = max(overlap, sum(segs[s][(gs[s], int(s == ps))] for s in range(4)))
    target = 3 * n + 2
    best = target - overlap - 1
    if not melds:
        pairs = sum(min(c, 4) // 2 for c in counts)
        singles = sum(1 for c in counts if c % 2)
        best = min(best, 13 - 2 * min(pairs, 7) - min(singles, max(0, 7 - pairs)))
    return best


# ---------------------------------------------------------------- deal rules


def wall_end_tiles(n_kongs: int, dead_wall_tiles: int = 14) -> int:
    """Tiles left undrawn when play stops (荒牌): 14, plus 2 for every kong after the first."""
    return dead_wall_tiles + 2 * max(0, n_kongs - 1)


def bindings(claims: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """互包 pairs in the order they form, from the deal's claims ``(claimer, discarder)`` in
    order: a pair binds when one has claimed three melds from the other. Every claim of a
    discard counts (chi, peng or a kong from the discard); adding to a peng is no new claim."""
    seen: dict[tuple[int, int], int] = {}
    out: list[tuple[int, int]] = []
    for claimer, discarder in claims:
        if claimer == discarder:
            raise ValueError(f"seat {claimer} cannot claim its own discard")
        key = (claimer, discarder)
        seen[key] = seen.get(key, 0) + 1
        pair = (min(key), max(key))
        if seen[key] == 3 and pair not in out:
            out.append(pair)
    return out


def bound_partner(winner: int, pairs: Sequence[tuple[int, int]]) -> int | None:
    """The seat that pays for ``winner`` under 互包: its partner in the first binding it is in."""
    for a, b in pairs:
        if winner in (a, b):
            return b if winner == a else a
    return None


WINDS = (28, 29, 30, 31)


def claim_options(
    counts13: Sequence[int], melds: Melds, tile: int, *, from_left: bool, last_discard: bool = False
) -> dict:
    """What a player holding ``(counts13, melds)`` may do with another player's discard
    ``tile``: ``{"win": bool, "peng": bool, "kong": bool, "chi": [lowest tiles]}``. No
    conditions: any winning tile may be taken (there is no ready declaration and no rule against
    winning on a tile one passed before). Chi only when the discarder sits on the left
    (``from_left``: the player before in turn order). On the last discard only a win may claim
    it (nobody could draw after a meld)."""
    _check_size(counts13, melds, 13)
    c = counts13
    win = tile in wait_set(c, melds)
    if last_discard:
        return {"win": win, "peng": False, "kong": False, "chi": []}
    chi = []
    if from_left and is_suited(tile):
        r = tile % 9
        for low in (tile - 2, tile - 1, tile):
            if low < tile - r or low + 2 > tile - r + 8:
                continue
            others = [t for t in (low, low + 1, low + 2) if t != tile]
            if all(c[t] >= 1 for t in others):
                chi.append(low)
    return {"win": win, "peng": c[tile] >= 2, "kong": c[tile] >= 3, "chi": chi}


def claim_taken(discarder: int, answers: dict[int, str]) -> int | None:
    """Which seat's answer to a discard is carried out: ``answers`` maps a seat to ``"win"``,
    ``"peng"``, ``"kong"``, ``"chi"`` or ``"pass"``. A win beats a peng or kong, which beats a
    chi; among several wins the first in turn order after the discarder (截和). A chi is only
    valid from the next seat."""
    order = [(discarder + k) % 4 for k in (1, 2, 3)]
    if discarder in answers:
        raise ValueError(f"seat {discarder} cannot answer its own discard")
    for seat, answer in answers.items():
        if answer == "chi" and seat != order[0]:
            raise ValueError(f"seat {seat} may not chi from seat {discarder}: only the next seat may")
        if answer not in ("win", "peng", "kong", "chi", "pass"):
            raise ValueError(f"unknown answer {answer!r}")
    for wanted in (("win",), ("peng", "kong"), ("chi",)):
        for seat in order:
            if answers.get(seat) in wanted:
                return seat
    return None


def burn_rounds(discards: Sequence[Sequence[int]]) -> int:
    """烧庄: how many rounds in a row, from the first, the three others' discards all matched the
    dealer's. ``discards[k]`` is round k's four discards in turn order, the dealer's first; the
    caller stops the list at the first claim (the order of discards is then broken)."""
    n = 0
    for rnd in discards:
        if len(rnd) != 4 or len(set(rnd)) != 1:
            break
        n += 1
    return n


def must_follow_wind(dealer_first: int, counts: Sequence[int], first_discard: bool) -> bool:
    """The 烧庄 obligation: a player holding the wind that the dealer threw first must throw it
    as its own first discard."""
    return first_discard and dealer_first in WINDS and counts[dealer_first] > 0
