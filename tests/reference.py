"""Slow, plain-Python reference for the hand evaluator, written from RULES.md and
docs/DECISIONS.md only (no numba, no lookup tables, no import of ``daqing_sim.hand.kernels``).

Every function works by definition:

* :func:`ref_standard_shanten` maximises the overlap with a target hand (m groups + a pair,
  at most four copies per kind) rank by rank (DECISIONS #7);
* :func:`ref_wait_set` tries every tile kind and enumerates *all* splits of the 14 concealed
  tiles into groups and a pair, checking conditions 3-8 and picking the scoring role
  (DECISIONS #1-#5);
* :func:`ref_daqing_shanten` / :func:`exact_daqing_shanten_fast` search exchanges breadth
  first (DECISIONS #8);
* :func:`ref_bao_win` picks face value or wild for a drawn bao (DECISIONS #9);
* :func:`ref_fans` / :func:`ref_settle` restate the fan table and who pays (RULES.md
  "Scoring"; no import of ``daqing_sim.families.daqing.scoring``).

It imports only ``daqing_sim.codes`` (constants) and ``daqing_sim.rules`` (the flags).

Hands are ``counts`` (28 ints, concealed tiles) and ``melds``: a sequence of
``(meld_kind_code, lowest_tile)`` with codes from :mod:`daqing_sim.hand.tiles`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache

import numpy as np

from daqing_sim.codes import (
    CHI,
    CONCEALED_KONG,
    DUAL_PAIR,
    EDGE,
    KANCHAN,
    N_KINDS,
    PENG,
    SINGLE,
    TWO_SIDED,
    ZHONG,
)
from daqing_sim.rules import RuleSet

Melds = Sequence[tuple[int, int]]
TRIPLET, SEQUENCE = "T", "S"


# ---------------------------------------------------------------- helpers


def meld_tiles(kind: int, tile: int) -> list[int]:
    """Tile kinds of one meld (a chi is three consecutive tiles, a kong four copies)."""
    if kind == CHI:
        return [tile, tile + 1, tile + 2]
    if kind == PENG:
        return [tile] * 3
    return [tile] * 4


def total_counts(counts: Sequence[int], melds: Melds) -> list[int]:
    """Concealed counts plus every meld tile."""
    total = [int(c) for c in counts]
    for kind, tile in melds:
        for t in meld_tiles(int(kind), int(tile)):
            total[t] += 1
    return total


def _as_counts(counts: Sequence[int]) -> list[int]:
    c = [int(x) for x in np.asarray(counts).ravel()]
    if len(c) != N_KINDS:
        raise ValueError(f"counts must have {N_KINDS} entries (one per tile kind), got {len(c)}")
    if min(c) < 0 or max(c) > 4:
        raise ValueError("counts must be 0-4 per tile kind")
    return c


def _is_suited(tile: int) -> bool:
    return tile != ZHONG


def _rank(tile: int) -> int:
    return tile % 9 + 1


def _is_terminal(tile: int) -> bool:
    return tile != ZHONG and _rank(tile) in (1, 9)


# ---------------------------------------------------------------- standard shanten


@cache
def _suit_best(h: tuple[int, ...], sequences_allowed: bool) -> dict[tuple[int, int], int]:
    """Best overlap of one suit's counts ``h`` with target tiles made of ``g`` groups and
    ``p`` pairs (p in 0/1), over every target with at most four copies per kind.

    Walks the ranks; ``open1``/``open2`` are sequences started one/two ranks back, which
    also cover the current rank.
    """
    n = len(h)

    @cache
    def rec(i: int, open1: int, open2: int) -> dict[tuple[int, int], int]:
        if i == n:
            return {(0, 0): 0} if open1 == open2 == 0 else {}
        best: dict[tuple[int, int], int] = {}
        max_start = 4 if (sequences_allowed and i + 2 < n) else 0
        for trip in (0, 1):
            for pair in (0, 1):
                for start in range(max_start + 1):
                    w = 3 * trip + 2 * pair + start + open1 + open2
                    if w > 4:
                        continue
                    gain = min(w, h[i])
                    for (g, p), v in rec(i + 1, start, open1).items():
                        key = (g + trip + start, p + pair)
                        if key[0] > 4 or key[1] > 1:
                            continue
                        if best.get(key, -1) < v + gain:
                            best[key] = v + gain
        return best

    return rec(0, 0, 0)


def ref_standard_shanten(counts: Sequence[int]) -> int:
    """Standard shanten by definition (DECISIONS #7).

    min over targets W (``n // 3`` groups + one pair, each kind at most 4 copies) of the
    tiles W needs that the hand lacks, minus 1: 0 = ready (13 tiles), -1 = complete (14).
    """
    c = _as_counts(counts)
    n = sum(c)
    if n % 3 == 0 or n > 14:
        raise ValueError(f"standard shanten needs 3k+1 or 3k+2 tiles (at most 14), got {n}")
    m = n // 3
    parts = [_suit_best(tuple(c[s * 9 : (s + 1) * 9]), True) for s in range(3)]
    parts.append(_suit_best((c[ZHONG],), False))
    acc: dict[tuple[int, int], int] = {(0, 0): 0}
    for part in parts:
        nxt: dict[tuple[int, int], int] = {}
        for (g1, p1), v1 in acc.items():
            for (g2, p2), v2 in part.items():
                key = (g1 + g2, p1 + p2)
                if key[0] > m or key[1] > 1:
                    continue
                if nxt.get(key, -1) < v1 + v2:
                    nxt[key] = v1 + v2
        acc = nxt
    return (3 * m + 2) - acc[(m, 1)] - 1


# ---------------------------------------------------------------- splits and wait sets


def _groups(c: list[int], n_groups: int) -> Iterator[tuple[tuple[str, int], ...]]:
    """Every multiset of ``n_groups`` groups using exactly the tiles ``c`` (each once):
    the lowest remaining tile is either in a triplet or starts a sequence."""
    i = next((k for k in range(N_KINDS) if c[k] > 0), None)
    if i is None:
        if n_groups == 0:
            yield ()
        return
    if n_groups == 0:
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _groups(c, n_groups - 1):
            yield ((TRIPLET, i),) + rest
        c[i] += 3
    if _is_suited(i) and _rank(i) <= 7 and c[i + 1] > 0 and c[i + 2] > 0:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        for rest in _groups(c, n_groups - 1):
            yield ((SEQUENCE, i),) + rest
        for k in (i, i + 1, i + 2):
            c[k] += 1


def all_splits(counts14: Sequence[int], n_groups: int) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    """All splits ``(pair_kind, groups)`` of the concealed tiles into groups and one pair
    (condition 5: no seven pairs or other shapes)."""
    c = [int(x) for x in counts14]
    out = []
    for pair in range(N_KINDS):
        if c[pair] >= 2:
            c[pair] -= 2
            for groups in _groups(c, n_groups):
                out.append((pair, groups))
            c[pair] += 2
    return out


def _roles(t: int, pair: int, groups: tuple[tuple[str, int], ...]) -> list[int]:
    """Wait kinds of every place the winning tile ``t`` can take in one split (DECISIONS #5)."""
    roles = []
    if pair == t:
        roles.append(SINGLE)
    for g, low in groups:
        if g == TRIPLET and low == t:
            roles.append(DUAL_PAIR)
        elif g == SEQUENCE and low <= t <= low + 2:
            if t == low + 1:
                roles.append(KANCHAN)
            elif (t == low + 2 and _rank(low) == 1) or (t == low and _rank(low) == 7):
                roles.append(EDGE)  # the 3 of 1-2-3, the 7 of 7-8-9
            else:
                roles.append(TWO_SIDED)
    return roles


def _is_big(kind: int, rules: RuleSet) -> bool:
    return (
        kind == KANCHAN
        or (kind == EDGE and rules.jia_includes_edge)
        or (kind == SINGLE and rules.jia_includes_single)
    )


def hand_facts(counts: Sequence[int], melds: Melds) -> dict[str, bool]:
    """Facts of the 13-tile hand that conditions 3, 4 and the 中 waivers read (DECISIONS #2)."""
    total = total_counts(counts, melds)
    has_zhong = total[ZHONG] > 0
    return {
        "has_zhong": has_zhong,
        "has_terminal": any(total[t] > 0 for t in range(N_KINDS) if _is_terminal(t)),
        "has_triplet": (
            has_zhong or any(int(x) >= 3 for x in counts) or any(int(kind) != CHI for kind, _ in melds)
        ),
        "has_chi": any(int(kind) == CHI for kind, _ in melds),
    }


def ref_wait_set(
    counts: Sequence[int], melds: Melds = (), rules: RuleSet | None = None
) -> dict[int, tuple[int, bool]]:
    """Wait set of a 13-tile hand by brute force: ``{tile: (wait_kind, big)}``.

    Conditions 3-8 of RULES.md with the RuleSet flags; open door and 手把一 are not
    checked here (as in ``wait_set_k``).
    """
    rules = rules or RuleSet()
    c = _as_counts(counts)
    melds = [(int(k), int(t)) for k, t in melds]
    n_groups = 4 - len(melds)
    if sum(c) != 13 - 3 * len(melds):
        raise ValueError(
            f"a 13-tile hand with {len(melds)} meld(s) has {13 - 3 * len(melds)} concealed tiles, "
            f"got {sum(c)}"
        )
    facts = hand_facts(c, melds)
    total13 = total_counts(c, melds)
    # RULES: 3 幺九 (read on the 13 tiles; 中 waives)
    if rules.require_terminal and not (facts["has_terminal"] or facts["has_zhong"]):
        return {}
    # RULES: 4 刻, 对倒 exception (中 waives)
    dual_pair_exception = rules.require_triplet and not facts["has_triplet"]
    # RULES: 7 顺; dragon_waives_sequence
    sequence_required = rules.require_sequence and not (rules.dragon_waives_sequence and facts["has_zhong"])
    meld_suits = {t // 9 for k, low in melds for t in meld_tiles(k, low) if t != ZHONG}
    out: dict[int, tuple[int, bool]] = {}
    for t in range(N_KINDS):
        if total13[t] >= 4:  # DECISIONS #1: no fifth copy
            continue
        c14 = list(c)
        c14[t] += 1
        # RULES: 6 two suits on the 14 tiles, 中 is no suit
        suits = meld_suits | {k // 9 for k in range(ZHONG) if c14[k] > 0}
        if rules.require_two_suits and len(suits) < 2:
            continue
        best: tuple[bool, int] | None = None
        for pair, groups in all_splits(c14, n_groups):
            has_sequence = facts["has_chi"] or any(g == SEQUENCE for g, _ in groups)
            if sequence_required and not has_sequence:
                continue
            # RULES: 8, the 对倒 split must hold the triplet (and the sequence of 7, which
            # it always does: with no other triplet in the hand, its other groups are sequences)
            if dual_pair_exception and not any(g == TRIPLET for g, _ in groups):
                continue
            for kind in _roles(t, pair, groups):
                key = (not _is_big(kind, rules), kind)
                if best is None or key < best:
                    best = key
        if best is not None:
            out[t] = (best[1], not best[0])
    return out


def ref_is_ready(counts: Sequence[int], melds: Melds = (), rules: RuleSet | None = None) -> bool:
    """Non-empty wait set (open door and 手把一 ignored), stopping at the first winning tile."""
    return _first_win(counts, melds, rules or RuleSet())


def _first_win(counts, melds, rules) -> bool:
    # Cheap necessary test first: some tile must give the 14 tiles a split at all.
    c = _as_counts(counts)
    n_groups = 4 - len(melds)
    total13 = total_counts(c, melds)
    for t in range(N_KINDS):
        if total13[t] < 4:
            c14 = list(c)
            c14[t] += 1
            if all_splits(c14, n_groups):
                return bool(ref_wait_set(c, melds, rules))
    return False


def may_declare(counts: Sequence[int], melds: Melds, rules: RuleSet | None = None) -> bool:
    """Open door (an exposed meld; a concealed kong does not open) and 手把一."""
    rules = rules or RuleSet()
    # RULES: 1 开门
    if rules.require_open and not any(int(k) != CONCEALED_KONG for k, _ in melds):
        return False
    # RULES: 2 不能手把一
    return sum(int(x) for x in counts) >= rules.min_concealed_at_ready


def ref_is_win(counts14: Sequence[int], melds: Melds, win_tile: int, rules: RuleSet | None = None) -> bool:
    """A 14-tile hand wins on ``win_tile`` when the other 13 tiles wait on it (DECISIONS #6)."""
    c = _as_counts(counts14)
    if c[win_tile] < 1:
        raise ValueError("the winning tile must be among the concealed tiles")
    c[win_tile] -= 1
    return win_tile in ref_wait_set(c, melds, rules)


# ---------------------------------------------------------------- Daqing shanten


def _exchange_vectors() -> np.ndarray:
    """All 28 * 27 exchanges as count deltas: discard ``d`` (-1), draw ``x != d`` (+1)."""
    ex = []
    for d in range(N_KINDS):
        for x in range(N_KINDS):
            if x != d:
                v = np.zeros(N_KINDS, dtype=np.int16)
                v[d], v[x] = -1, 1
                ex.append(v)
    return np.array(ex)


_EXCHANGES = _exchange_vectors()


def _children(rows: np.ndarray, extra: np.ndarray) -> np.ndarray:
    """Distinct hands one exchange from any of ``rows``: the discard must be held, and the
    drawn kind must have fewer than four copies held, melds included (DECISIONS #8)."""
    found = []
    for start in range(0, len(rows), 1000):
        ch = rows[start : start + 1000, None, :].astype(np.int16) + _EXCHANGES[None, :, :]
        ok = (ch.min(axis=2) >= 0) & ((ch + extra).max(axis=2) <= 4)
        found.append(ch[ok])
    if not found:
        return np.zeros((0, N_KINDS), dtype=np.uint8)
    return np.unique(np.concatenate(found).astype(np.uint8), axis=0)


def _meld_extra(melds: Melds) -> list[int]:
    return total_counts([0] * N_KINDS, melds)


def ref_daqing_shanten(
    counts: Sequence[int], melds: Melds = (), rules: RuleSet | None = None, max_depth: int = 1
) -> int | None:
    """Daqing shanten by definition (DECISIONS #8), searched to ``max_depth`` exchanges.

    13 tiles: the fewest exchanges to a non-empty wait set. 14 tiles: -1 when it wins on
    any of its tiles, else the least value over its discards. Returns ``None`` when the
    value is larger than ``max_depth``.
    """
    return exact_daqing_shanten_fast(
        counts, melds, rules, lambda c, m, r: _first_win(c, m, r), max_depth=max_depth
    )


def exact_daqing_shanten_fast(
    counts: Sequence[int],
    melds: Melds,
    rules: RuleSet | None,
    wait_fn: Callable[[list[int], Melds, RuleSet], bool],
    max_depth: int = 3,
    std_batch_fn: Callable[[np.ndarray], np.ndarray] | None = None,
) -> int | None:
    """Breadth-first Daqing shanten with a pluggable readiness test.

    ``wait_fn(counts13, melds, rules) -> bool`` says whether a 13-tile hand has a
    non-empty wait set. ``std_batch_fn((n, 28) uint8) -> (n,)`` standard shanten prunes
    the search exactly: a ready hand has standard shanten 0 and one exchange lowers it by
    at most one, so a hand at depth ``k`` with standard shanten above ``max_depth - k``
    cannot lead to a ready hand in time. Returns ``None`` beyond ``max_depth``.
    """
    rules = rules or RuleSet()
    c = _as_counts(counts)
    melds = [(int(k), int(t)) for k, t in melds]
    extra = _meld_extra(melds)
    n = sum(c) + 3 * len(melds)
    if n not in (13, 14):
        raise ValueError(f"Daqing shanten needs a 13- or 14-tile hand, got {n} tiles")
    if std_batch_fn is None:

        def std_batch_fn(arr: np.ndarray) -> np.ndarray:
            return np.array([ref_standard_shanten(row) for row in arr])

    if n == 14:
        if any(c[t] > 0 and ref_is_win(c, melds, t, rules) for t in range(N_KINDS)):
            return -1
        frontier = set()
        for d in range(N_KINDS):
            if c[d] > 0:
                h = list(c)
                h[d] -= 1
                frontier.add(tuple(h))
    else:
        frontier = {tuple(c)}

    extra_arr = np.array(extra, dtype=np.int16)
    rows = np.array(sorted(frontier), dtype=np.uint8).reshape(-1, N_KINDS)
    for depth in range(max_depth + 1):
        if len(rows) == 0:
            return None
        std = np.asarray(std_batch_fn(rows))
        rows = rows[std <= max_depth - depth]
        for row in rows[std[std <= max_depth - depth] == 0]:
            if wait_fn(row, melds, rules):
                return depth
        if depth < max_depth:
            rows = _children(rows, extra_arr)
    return None


# ---------------------------------------------------------------- bao drawn after ready

BAO, BAO_EDGE, BAO_IN_BAO = 1, 2, 3


def ref_bao_win(waits: dict[int, tuple[int, bool]], drawn: int) -> tuple[int, int, bool, int] | None:
    """A ready player self-draws the bao ``drawn`` (DECISIONS #9).

    Returns ``(win_tile, wait_kind, big, bao_kind)``: face value when ``drawn`` is in the
    wait set (宝中宝 if big, else 宝边), else wild (摸宝) standing for the wait-set tile
    scoring highest (big first, then the tie order). ``None`` for an empty wait set.
    """
    if not waits:
        return None
    if drawn in waits:
        kind, big = waits[drawn]
        return drawn, kind, big, BAO_IN_BAO if big else BAO_EDGE
    kind, big = min(waits.values(), key=lambda kb: (not kb[1], kb[0]))
    tiles = [t for t, kb in waits.items() if kb == (kind, big)]
    return min(tiles), kind, big, BAO


# ---------------------------------------------------------------- scoring (RULES.md "Scoring")

NO_BAO = 0


def ref_fans(
    winner: int,
    dealer: int,
    self_draw: bool,
    discarder: int,
    discarder_ready: bool,
    big: bool,
    bao: int,
    concealed: Sequence[bool],
    winner_kongs: int,
    rules: RuleSet,
) -> dict[int, int]:
    """Fans each loser owes, from the fan table of RULES.md (``bao``: 0 none, 1 摸宝,
    2 宝边, 3 宝中宝)."""
    fans = {}
    for loser in range(4):
        if loser == winner:
            continue
        n = (dealer in (winner, loser)) + bool(concealed[loser]) + bool(self_draw) + bool(big)
        n += (bao != NO_BAO) + (bao in (BAO_EDGE, BAO_IN_BAO))
        n += (not self_draw) and loser == discarder and not discarder_ready  # 点黑炮
        n += winner_kongs if rules.kong_fan else 0
        fans[loser] = int(n)
    return fans


def ref_settle(
    winner: int,
    dealer: int,
    self_draw: bool,
    discarder: int,
    discarder_ready: bool,
    big: bool,
    bao: int,
    concealed: Sequence[bool],
    winner_kongs: int,
    rules: RuleSet,
) -> list[int]:
    """Payments of the four seats: each loser owes ``2 ** fans``; a discarder that was not
    ready pays every loser's amount alone (包庄), otherwise each loser pays its own."""
    fans = ref_fans(
        winner, dealer, self_draw, discarder, discarder_ready, big, bao, concealed, winner_kongs, rules
    )
    pay = [0] * 4
    for loser, n in fans.items():
        payer = discarder if (not self_draw and not discarder_ready) else loser
        pay[payer] -= 2**n
        pay[winner] += 2**n
    return pay
