"""Hand-picked checks of the plain-Python reference itself (tests/reference.py).

Expected values are worked out by hand from RULES.md and docs/DECISIONS.md.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest
from reference import (
    all_splits,
    exact_daqing_shanten_fast,
    may_declare,
    ref_daqing_shanten,
    ref_is_ready,
    ref_is_win,
    ref_standard_shanten,
    ref_wait_set,
    total_counts,
)

from daqing_sim.codes import DUAL_PAIR, EDGE, KANCHAN, SINGLE, TWO_SIDED
from daqing_sim.hand.notation import parse_hand
from daqing_sim.hand.tiles import tile_from_name
from daqing_sim.rules import RuleSet


def H(text: str):
    h = parse_hand(text)
    return h.counts, [(m.code, m.tile) for m in h.melds]


def W(**waits):
    """``W(m1=(kind, big))`` -> ``{tile: (kind, big)}`` with names like m1 for 1m."""
    return {tile_from_name(k[1:] + k[0] if k[0] in "mps" else k): v for k, v in waits.items()}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m456p789s1199m", 0),
        ("123m456p789s1199m2p", 0),  # 14 tiles: one pair too many, one group short
        ("123m456p789s11m中中中", -1),
        ("1112345678999m", 0),
        # Four 1m cannot wait on a fifth: 111m + 1m single is no target.
        ("1111m234p567p789s", 1),
        ("中中中中234p567p789s", 1),
        # Isolated tiles: 中 triplet (3) + one tile for three groups and the pair = 7 of 14.
        ("147m258p369s中中中中", 6),
        ("5m", 0),
        ("55m", -1),
        ("1m9p", 0),
    ],
)
def test_standard_shanten_by_hand(text, expected):
    c = parse_hand(text, require_full=False).counts
    assert ref_standard_shanten(c) == expected


def test_standard_shanten_rejects_bad_counts():
    with pytest.raises(ValueError, match="3k"):
        ref_standard_shanten([1] * 12 + [0] * 16)


def test_splits_enumerate_each_multiset_once():
    c, _ = H("111222333m456p99s")
    splits = all_splits(c, 4)
    # triplets 111/222/333 or sequences 123x3, each with 456p and pair 99s.
    assert len(splits) == 2
    assert {p for p, _ in splits} == {tile_from_name("9s")}


@pytest.mark.parametrize(
    "text, flags, expected",
    [
        # 中 waives terminal and triplet; 23m waits both sides.
        ("23m456p111s中中 [345m]", {}, W(m1=(TWO_SIDED, False), m4=(TWO_SIDED, False))),
        ("13m456p111s99s [789p]", {}, W(m2=(KANCHAN, True))),
        ("12m456p111s99s [789p]", {}, W(m3=(EDGE, False))),
        ("12m456p111s99s [789p]", {"jia_includes_edge": True}, W(m3=(EDGE, True))),
        ("1m456p111s [789p] [234m]", {}, W(m1=(SINGLE, False))),
        ("1m456p111s [789p] [234m]", {"jia_includes_single": True}, W(m1=(SINGLE, True))),
        # No triplet: 对倒 only.
        ("11m99p456p234s [678s]", {}, W(m1=(DUAL_PAIR, False), p9=(DUAL_PAIR, False))),
        ("23m456p789p11s [678s]", {}, {}),
        (
            "23m456p789p11s [678s]",
            {"require_triplet": False},
            W(m1=(TWO_SIDED, False), m4=(TWO_SIDED, False)),
        ),
        # No terminal.
        ("234m456p55s33m [666s]", {}, {}),
        # 3m: 333m+234m, the 3 in the middle of 234m scores kanchan (big) over dual_pair.
        (
            "234m456p55s33m [666s]",
            {"require_terminal": False},
            W(m3=(KANCHAN, True), s5=(DUAL_PAIR, False)),
        ),
        ("234m456p55s中中 [678s]", {}, W(s5=(DUAL_PAIR, False), C=(DUAL_PAIR, False))),
        ("34m456p777s中中 [678s]", {}, W(m2=(TWO_SIDED, False), m5=(TWO_SIDED, False))),
        # One suit.
        ("1112345678999m", {}, {}),
        # No sequence: all triplets.
        # 7s would only make triplets and a pair; 6s makes 55s + 567s.
        ("111m999p555s7s [222m]", {}, W(s6=(KANCHAN, True))),
        (
            "111m999p555s7s [222m]",
            {"require_sequence": False},
            W(s6=(KANCHAN, True), s7=(SINGLE, False)),
        ),
        # 中 waives the sequence only under dragon_waives_sequence.
        ("111m999p555s77s中中", {}, {}),
        (
            "111m999p555s77s中中",
            {"dragon_waives_sequence": True},
            W(s7=(DUAL_PAIR, False), C=(DUAL_PAIR, False)),
        ),
    ],
)
def test_wait_set_by_hand(text, flags, expected):
    c, m = H(text)
    assert ref_wait_set(c, m, RuleSet(**flags)) == expected


def test_nine_gates_without_two_suits():
    c, m = H("1112345678999m")
    waits = ref_wait_set(c, m, RuleSet(require_two_suits=False))
    assert sorted(waits) == list(range(9))
    # Only 111 + 123 + 456 + 789 + 99 splits 1111 2345678 999: triplet or sequence end.
    assert waits[tile_from_name("1m")] == (DUAL_PAIR, False)
    assert waits[tile_from_name("5m")] == (SINGLE, False)  # only 111 + 234 + 55 + 678 + 999
    # 2m: 111 + 22 + 345 + 678 + 999, or 11 + 123 + 234 ... no; 12 3 -> 123 with 2 middle.
    assert waits[tile_from_name("2m")][0] in (KANCHAN, SINGLE)


def test_no_fifth_copy():
    # 9s single wait, but [999s] plus the concealed 9s hold all four copies.
    assert ref_wait_set(*H("9s456p123m [999s] [789p]"), RuleSet()) == {}
    assert ref_wait_set(*H("8s456p123m [999s] [789p]"), RuleSet()) == W(s8=(SINGLE, False))
    assert ref_wait_set(*H("1111m3m456p11s [789p]"), RuleSet()) == W(m2=(KANCHAN, True))


def test_may_declare():
    assert may_declare(*H("23m456p111s中中 [345m]"))
    assert not may_declare(*H("123m23m456p111s中中"))  # no meld
    assert not may_declare(*H("23m456p111s中中 (1111m)"))  # a concealed kong does not open
    assert may_declare(*H("23m456p111s中中 (1111m)"), RuleSet(require_open=False))
    assert not may_declare(*H("1m [789p] [234m] [111s] [456p]"))
    assert may_declare(*H("1m [789p] [234m] [111s] [456p]"), RuleSet(min_concealed_at_ready=1))


def test_is_win_reads_conditions_on_13_tiles():
    # Won on 1m: the 13 tiles 11m 99p 456p 234s [678s] have no triplet, 对倒 on 1m.
    c, m = H("11m99p456p234s1m [678s]")
    assert ref_is_win(c, m, tile_from_name("1m"))
    # Won on 4p: the 13 tiles 111m 99p 56p 234s [678s] hold a triplet; 4p completes 456p.
    assert ref_is_win(c, m, tile_from_name("4p"))
    with pytest.raises(ValueError, match="winning tile"):
        ref_is_win(c, m, tile_from_name("5m"))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("23m456p111s中中 [345m]", 0),
        ("23m456p111s中中1m [345m]", -1),
        ("1112345678999m", 1),  # one suit: exchange any tile for another suit's tile
        ("23m456p789p11s [678s]", 1),  # no triplet: discard 2m, draw 1s -> 3m single
        ("123456789m1234p", 1),
    ],
)
def test_daqing_shanten_by_hand(text, expected):
    c, m = H(text)
    assert ref_daqing_shanten(c, m, RuleSet()) == expected


def test_daqing_shanten_beyond_depth_is_none():
    c, m = H("159m258p369s147p中")
    assert ref_standard_shanten(c) >= 3
    assert ref_daqing_shanten(c, m, RuleSet(), max_depth=1) is None
    assert exact_daqing_shanten_fast(c, m, RuleSet(), ref_is_ready, max_depth=2) is None


def _literal_daqing_shanten_13(c, m, rules) -> int | None:
    """DECISIONS #8 to depth one, literally: 0 when ready, 1 when some single exchange
    (discard a held kind, draw another kind held fewer than four times, melds included)
    makes it ready, else None. No pruning, no breadth-first search machinery."""
    if ref_is_ready(c, m, rules):
        return 0
    held = total_counts(c, m)
    for d in range(28):
        for x in range(28):
            if c[d] > 0 and x != d and held[x] < 4:
                h = [int(v) for v in c]
                h[d] -= 1
                h[x] += 1
                if ref_is_ready(h, m, rules):
                    return 1
    return None


def test_fast_search_agrees_with_literal_search_at_depth_one(hand_gen):
    values = []
    for _ in range(8):
        c, m = hand_gen.near_ready(exchanges=1)
        value = exact_daqing_shanten_fast(c, m, RuleSet(), ref_is_ready, max_depth=1)
        assert value == _literal_daqing_shanten_13(c, m, RuleSet())
        assert ref_daqing_shanten(c, m, RuleSet()) == value
        values.append(value)
    assert {0, 1} <= set(values), values


def test_daqing_shanten_at_least_standard(hand_gen):
    compared = 0
    for _ in range(30):
        c, m = hand_gen.near_ready(exchanges=1)
        value = ref_daqing_shanten(c, m, RuleSet())
        if value is not None:
            assert value >= ref_standard_shanten(c)
            compared += 1
    assert compared >= 15


def _brute_standard_shanten(counts) -> int:
    """DECISIONS #7 literally: every target of m groups + a pair, at most 4 per kind."""
    c = [int(x) for x in counts]
    m = sum(c) // 3
    groups = [[k] * 3 for k in range(28)] + [
        [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for s in range(3) for r in range(7)
    ]
    best = None
    for chosen in combinations_with_replacement(range(len(groups)), m):
        for pair in range(28):
            w = [0] * 28
            w[pair] += 2
            for g in chosen:
                for t in groups[g]:
                    w[t] += 1
            if max(w) > 4:
                continue
            lacking = sum(max(0, w[k] - c[k]) for k in range(28))
            best = lacking if best is None else min(best, lacking)
    return best - 1


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8])
def test_standard_shanten_dp_equals_literal_enumeration(size):
    rng = np.random.default_rng(size)
    pool = np.repeat(np.arange(28), 4)
    for i in range(12 if size >= 7 else 60):
        # alternate spread-out hands and hands from few kinds (pairs, triplets, quads)
        src = pool if i % 2 else np.repeat(rng.choice(28, 4, replace=False), 4)
        counts = np.bincount(rng.choice(src, size, replace=False), minlength=28)
        assert ref_standard_shanten(counts) == _brute_standard_shanten(counts), counts.nonzero()


def test_standard_shanten_pruning_changes_nothing(hand_gen):
    """The breadth-first search without pruning (standard shanten reported as 0 for every
    hand, so every hand is tested for readiness) finds the same values."""
    no_pruning = lambda rows: np.zeros(len(rows), dtype=np.int8)  # noqa: E731
    for _ in range(6):
        c, m = hand_gen.near_ready(exchanges=int(hand_gen.rng.integers(1, 3)))
        assert exact_daqing_shanten_fast(c, m, RuleSet(), ref_is_ready, 1, no_pruning) == (
            ref_daqing_shanten(c, m, RuleSet())
        )
