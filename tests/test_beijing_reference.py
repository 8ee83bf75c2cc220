"""Beijing (北京麻将) hands and scoring through the public API, against hand-worked values (one
test per rule of docs/RULES_BEIJING.md, in hand notation) and against the plain-Python reference
(tests/reference_beijing.py) on many random winning hands.

Hand-worked expectations are written out here, not computed by the reference. Sizes, with the
full checks (seconds on two shared cores, ``-n 0``, kernels cached):

* ``BEIJING_REFERENCE_CASES`` random winning hands (default 5,000; ``100000`` for the full check,
  about 190 s), in ``CHUNKS`` seeded chunks that xdist spreads: fans, F, value, what the winner
  receives, the wait set, shanten 0 and -1, and a refused non-winning tile;
* ``BEIJING_SHANTEN_CASES`` hands dealt from the 136 tiles or one or two swaps from a win, 13 or
  14 tiles, with melds (default 2,000): shanten and wait set;
* ``BEIJING_EVERY_ONE_SUIT_HAND=1``: every complete one-suit hand with every winning tile
  (95,247 wins, about 45 s), else every 25th.
"""

from __future__ import annotations

import csv
import os
import random
from functools import cache
from pathlib import Path

import pytest
import reference_beijing as R
from beijing_gen import BeijingGen

import daqing_sim as ds
from daqing_sim.rules import RuleSet


def beijing_family_available() -> bool:
    """True once ``RuleSet`` accepts ``family="beijing"`` (the Beijing API of issue 20)."""
    try:
        RuleSet(family="beijing")
    except (TypeError, ValueError):
        return False
    return True


pytestmark = pytest.mark.skipif(
    not beijing_family_available(),
    reason="RuleSet does not accept family='beijing' yet: these tests run once the Beijing API is in",
)

N_CASES = int(os.environ.get("BEIJING_REFERENCE_CASES", "5000"))
N_SHANTEN = int(os.environ.get("BEIJING_SHANTEN_CASES", "2000"))
CHUNKS = 8
EXAMPLES = Path(__file__).parent / "data" / "beijing_examples.csv"
NOT_DRAWN = {"self_draw": False, "last_tile": False, "last_discard": False, "kong_replacement": False}


@pytest.fixture(scope="module")
def bj() -> RuleSet:
    return RuleSet(family="beijing")


def _win(bj, hand: str, win: str, **flags):
    return ds.score_win(hand, win, rules=bj, **{**NOT_DRAWN, **flags})


def _kinds(waits) -> list[int]:
    """Wait tiles as reference kinds, whatever spelling ``Wait.tile`` uses (3z or 西)."""
    return sorted(R.tile_kind(w.tile) for w in waits)


def _names(text: str) -> list[int]:
    return [t for t, n in enumerate(R.parse(text)[0]) if n]


# ---------------------------------------------------------------- tiles and notation


@pytest.mark.parametrize(
    "chars, digits",
    [
        ("123m456p789s东东南南", "123m456p789s1122z"),
        ("123m4p西北白发中白 [东东东]", "123m4p345675z [111z]"),
        ("123m456p789s中中 [345m]", "123m456p789s77z [345m]"),
    ],
)
def test_honors_as_characters_or_z_digits(chars, digits):
    assert ds.parse_hand(chars, family="beijing") == ds.parse_hand(digits, family="beijing")


def test_the_daqing_dragon_is_7z_in_both_families(bj):
    # 中 and C are 7z; a hand written with 中 means the same under Daqing and Beijing
    assert ds.parse_hand("123m456p789s11m中C") == ds.parse_hand("123m456p789s11m77z")
    beijing = ds.parse_hand("123m456p789s11m中C", family="beijing")
    assert beijing == ds.parse_hand("123m456p789s11m77z", family="beijing")
    a = ds.analyze_hand("123m456p789s111m中", rules=bj)
    assert _kinds(a.waits) == _names("7z")


@pytest.mark.parametrize("text", ["11111z23m456p789s", "1111z123m456p78s [111z]", "123m456p789s8z9z11m"])
def test_honor_copies_and_unknown_honors_are_errors(text):
    with pytest.raises(ValueError):
        ds.parse_hand(text, family="beijing")


def test_honors_are_not_daqing_tiles():
    with pytest.raises(ValueError, match="东"):
        ds.analyze_hand("123m456p789s1122z")


def test_a_daqing_flag_under_beijing_is_a_one_line_error():
    with pytest.raises(ValueError) as err:
        RuleSet(family="beijing", require_terminal=True)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- shapes, shanten and waits


@pytest.mark.parametrize(
    "hand, shanten, waits",
    [
        ("234m456p678s2233z", 0, "23z"),  # four melds and a pair: 对倒 on 2z/3z
        ("234m456p678s2235z", 1, ""),
        ("1133m2255p7799s1z", 0, "1z"),  # seven pairs
        ("1133m2255p779s12z", 1, ""),  # five pairs: seven pairs is the nearer shape (standard: 3)
        ("11113355m2255p7z", 0, "7z"),  # luxury seven pairs: the four 1m are two pairs
        ("1112345678999m", 0, "123456789m"),  # nine gates
        ("46m123789p456s77z", 0, "5m"),
        ("5z [123m] [777s] [456p] [2222s]", 0, "5z"),  # four melds exposed, single wait
        ("234m456p2233z (7777s)", 0, "23z"),
        # no conditions: no terminal, no 中, one sequence suit pair (Daqing would not be ready)
        ("234567m345p5566s", 0, "56s"),
        ("5555z123m456p789s", 1, ""),  # the only tile would be a fifth 5z
        # partial shapes whose tiles are all in the hand's melds are dead: 89s needs a 7s (three
        # in the peng, one in the chi), 12s a 3s (the concealed kong); one group and a pair
        # share at most 2 of the 4 concealed tiles, so 3 are missing
        ("4m2p89s [777s] [222s] [789s]", 2, ""),
        ("128s3z [222s] (3333s) [567s]", 2, ""),
        ("12s88s [222s] (3333s) [567s]", 1, ""),  # 88s + dead 12s is not ready
    ],
)
def test_shanten_and_waits(bj, hand, shanten, waits):
    a = ds.analyze_hand(hand, rules=bj)
    assert (a.shanten, _kinds(a.waits)) == (shanten, _names(waits))


def test_no_conditions_under_beijing_but_not_under_daqing(bj):
    assert ds.analyze_hand("234567m345p5566s").waits == ()
    assert _kinds(ds.analyze_hand("234567m345p5566s", rules=bj).waits) == _names("56s")


@pytest.mark.parametrize(
    "hand, win, is_win",
    [
        ("234m456p678s22333z", "3z", True),
        ("1133m2255p7799s11z", "1z", True),
        ("111133m55p2255p77z", "3m", True),  # luxury, written in any order
        ("5z [123m] [777s] [456p] [2222s] 5z", "5z", True),
        ("234m456p678s22335z", "5z", False),
    ],
)
def test_fourteen_tile_hands(bj, hand, win, is_win):
    a = ds.analyze_hand(hand, rules=bj, win_tile=win)
    assert a.is_win is is_win
    if is_win:
        assert a.shanten == -1


# ---------------------------------------------------------------- fans and value


def _example_rows() -> list[dict[str, str]]:
    with EXAMPLES.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("row", _example_rows(), ids=lambda r: r["case"])
def test_score_win_reproduces_the_worked_examples(bj, row):
    flags = {k: row[k] == "True" for k in NOT_DRAWN}
    r = ds.score_win(row["hand"], row["win_tile"], rules=bj, **flags)
    expected = {k: int(v) for k, v in (p.split("=") for p in row["fans"].split(";"))}
    assert (dict(r.fans), r.total_fans, r.value) == (expected, int(row["total_fans"]), int(row["value"]))


# (hand before the win, winning tile, how, fans, value): worked out from the rules page
FAN_CASES = {
    "plain_win: none of the nine types": ("123m456p789s11z23p", "1p", {}, {"plain_win": 1}, 1000),
    "all_triplets: concealed": ("111m222p333s4445z", "5z", {}, {"all_triplets": 2}, 2000),
    "all_triplets: the split worth most (111 222 333 over 123 x3)": (
        "111222333m777p5z",
        "5z",
        {},
        {"all_triplets": 2},
        2000,
    ),
    "all_triplets with a concealed kong": ("111m222p333s5z (4444s)", "5z", {}, {"all_triplets": 2}, 2000),
    "big_single_wait with exposed kong and pengs": (
        "3z [111m] [999p] [4444s] [777z]",
        "3z",
        {},
        {"all_triplets": 2, "big_single_wait": 2},
        2000,
    ),
    "big_single_wait: a concealed kong is not exposed": (
        "5z [123m] [777s] [456p] (2222s)",
        "5z",
        {},
        {"plain_win": 1},
        500,
    ),
    "catch_five: single wait on 5m": ("123456789p555s5m", "5m", {}, {"catch_five": 2, "dragon": 3}, 5000),
    "catch_five: 4556m, 5m the only tile": (
        "4556m123p456p789p",
        "5m",
        {},
        {"catch_five": 2, "dragon": 3},
        5000,
    ),
    "catch_five: not when 2m also wins": ("34m123789p456s77z", "5m", {}, {"plain_win": 1}, 1000),
    "catch_five: not on a 5m/7p shanpon": ("55m77p123s456s789s", "5m", {}, {"dragon": 3}, 3000),
    "catch_five on seven pairs": ("1133m2255p7799s5m", "5m", {}, {"catch_five": 2, "seven_pairs": 4}, 6000),
    "last_tile: self-drawn, open": (
        "2233z [111m] [999p] [4444s]",
        "3z",
        {"self_draw": True, "last_tile": True},
        {"all_triplets": 2, "last_tile": 2},
        2000,
    ),
    "dragon: 123 456 789 concealed, open elsewhere": ("123456789m1z [123p]", "1z", {}, {"dragon": 3}, 1500),
    "dragon: the chi completes it": ("1234566m789s [789m]", "6m", {}, {"dragon": 3}, 1500),
    "dragon: not across suits": ("123m456p789s11z23p", "4p", {}, {"plain_win": 1}, 1000),
    "seven_pairs beats the four-melds split of the same tiles": (
        "2233445566778s",
        "8s",
        {},
        {"one_suit": 6, "seven_pairs": 4},
        10000,
    ),
    "luxury_seven_pairs with two fours": ("11112222m55p77s1z", "1z", {}, {"luxury_seven_pairs": 8}, 8000),
    "kong_bloom: exposed kong, open": (
        "234m456p2233z [7777s]",
        "3z",
        {"self_draw": True, "kong_replacement": True},
        {"kong_bloom": 5},
        2500,
    ),
    "kong_bloom on the last drawable tile: both": (
        "234m456p2233z [7777s]",
        "3z",
        {"self_draw": True, "kong_replacement": True, "last_tile": True},
        {"kong_bloom": 5, "last_tile": 2},
        3500,
    ),
    "one_suit: not with an honor": ("123456789m1z [123m]", "1z", {}, {"dragon": 3}, 1500),
    "one_suit with all triplets": ("111333555777m9m", "9m", {}, {"all_triplets": 2, "one_suit": 6}, 8000),
    "last_discard added to a plain win": (
        "123m456p789s11z23p",
        "1p",
        {"last_discard": True},
        {"last_discard": 1, "plain_win": 1},
        2000,
    ),
    "robbed kong: the fans of a deal-in": (
        "123456789m11z23p",
        "4p",
        {"robbed_kong": True},
        {"dragon": 3},
        3000,
    ),
    "open: a concealed kong keeps the hand concealed": (
        "234m456p2233z (7777s)",
        "3z",
        {},
        {"plain_win": 1},
        1000,
    ),
}


@pytest.mark.parametrize("hand, win, how, fans, value", FAN_CASES.values(), ids=FAN_CASES.keys())
def test_fans_in_hand_notation(bj, hand, win, how, fans, value):
    r = _win(bj, hand, win, **how)
    assert (dict(r.fans), r.total_fans, r.value) == (fans, sum(fans.values()), value)


def test_the_value_is_per_payer_and_the_total_what_the_winner_receives(bj):
    # each of the three pays the value on a self-draw; the kong's declarer pays all three shares
    r = _win(bj, "234m456p678s2233z", "3z", self_draw=True)
    assert (r.value, r.total) == (1000, 3000)
    r = _win(bj, "123456789m11z23p", "4p", robbed_kong=True)
    assert (r.value, r.total) == (3000, 9000)
    r = _win(bj, "1133m2255p7799s1z", "1z")
    assert (r.value, r.total) == (4000, 4000)


@pytest.mark.parametrize(
    "hand, win",
    [
        ("234m456p678s2233z", "4z"),  # not a winning tile
        ("5555z123m456p789s", "5z"),  # a fifth copy
        ("234m456p678s2235z", "5z"),  # not ready at all
    ],
)
def test_a_tile_that_does_not_complete_the_hand_is_an_error(bj, hand, win):
    with pytest.raises(ValueError):
        _win(bj, hand, win)


@pytest.mark.parametrize(
    "hand, how",
    [
        ("234m456p678s2233z", {"last_tile": True}),  # 海底捞月 is a self-draw
        ("234m456p2233z [7777s]", {"kong_replacement": True}),  # so is 杠上开花
        ("234m456p678s2233z", {"self_draw": True, "last_discard": True}),
        ("234m456p678s2233z", {"self_draw": True, "robbed_kong": True}),
        ("234m456p678s2233z", {"robbed_kong": True, "last_discard": True}),  # a robbed tile is no discard
    ],
)
def test_an_impossible_way_of_winning_is_an_error(bj, hand, how):
    with pytest.raises(ValueError) as err:
        _win(bj, hand, "3z", **how)
    assert "\n" not in str(err.value)


def test_fan_combine_double_and_base_points():
    doubled = RuleSet(family="beijing", fan_combine="double")
    assert _win(doubled, "1133m2255p7799s1z", "1z").value == 1000 * 2 ** (4 - 1)
    assert _win(doubled, "234m456p678s2233z", "3z", last_discard=True).value == 2000
    cheap = RuleSet(family="beijing", base_points=800, open_hand_factor=0.25)
    assert _win(cheap, "5z [123m] [777s] [456p] [2222s]", "5z").value == 800 * 2 // 4


# ---------------------------------------------------------------- against the reference


def _check_case(bj, case, honors: str, rng: random.Random) -> str | None:
    """``None`` when the API agrees with the reference on this case, else what differs."""
    hand = case.hand(honors)
    win = R.tile_name(case.win_tile)
    counts, melds = list(case.counts), list(case.melds)
    ref = R.score(counts, melds, case.win_tile, **case.flags())
    got = ds.score_win(hand, win, rules=bj, **case.flags())
    if (got.total_fans, got.value) != (ref.total_fans, ref.value) or dict(got.fans) not in ref.tied:
        return (
            f"{hand} + {win} {case.flags()}: {dict(got.fans)} {got.value}, reference {ref.fans} {ref.value}"
        )
    pay = R.payments(
        ref.value,
        0,
        self_draw=case.self_draw,
        discarder=None if case.self_draw or case.robbed_kong else 1,
        robbed_from=1 if case.robbed_kong else None,
    )
    if got.total != pay[0]:
        return f"{hand} + {win} {case.flags()}: the winner receives {got.total}, reference {pay[0]}"
    a = ds.analyze_hand(hand, rules=bj)
    waits = R.wait_set(counts, melds)
    if a.shanten != 0 or _kinds(a.waits) != waits:
        return f"{hand}: shanten {a.shanten} waits {_kinds(a.waits)}, reference 0 {waits}"
    a14 = ds.analyze_hand(f"{hand} {win}", rules=bj, win_tile=win)
    if not a14.is_win or a14.shanten != -1:
        return f"{hand} {win}: is_win {a14.is_win} shanten {a14.shanten}"
    if rng.random() < 0.1:  # a tile that does not complete the hand must be refused
        total = R.total_counts(counts, melds)
        wrong = [t for t in range(R.N_KINDS) if t not in waits and total[t] < 4]
        t = rng.choice(wrong)
        try:
            ds.score_win(hand, R.tile_name(t), rules=bj, self_draw=False)
        except ValueError:
            return None
        return f"{hand} + {R.tile_name(t)}: scored, but it is no winning tile"
    return None


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_winning_hands_agree_with_the_reference(bj, chunk):
    n = N_CASES // CHUNKS + (chunk < N_CASES % CHUNKS)
    gen = BeijingGen(20_000 + chunk)
    rng = random.Random(chunk)
    bad = []
    for i in range(n):
        why = _check_case(bj, gen.case(), "char" if i % 3 == 0 else "z", rng)
        if why:
            bad.append(why)
    assert not bad, f"{len(bad)} of {n} cases disagree, e.g.\n" + "\n".join(bad[:10])


def _random_hand(rng: random.Random, gen: BeijingGen, i: int) -> tuple[list[int], list]:
    """A 13- or 14-tile hand: dealt from the wall, or a winning hand one or two swaps away."""
    if i % 3 == 0:
        wall = [t for t in range(R.N_KINDS) for _ in range(4)]
        rng.shuffle(wall)
        counts = [0] * R.N_KINDS
        for t in wall[: 13 + (i % 2)]:
            counts[t] += 1
        return counts, []
    case = gen.case()
    counts, melds = list(case.counts), list(case.melds)
    for _ in range(i % 3):
        total = R.total_counts(counts, melds)
        out = rng.choice([t for t in range(R.N_KINDS) if counts[t]])
        into = rng.choice([t for t in range(R.N_KINDS) if total[t] < 4 and t != out])
        counts[out] -= 1
        counts[into] += 1
    if i % 2:  # with its drawn tile
        total = R.total_counts(counts, melds)
        counts[rng.choice([t for t in range(R.N_KINDS) if total[t] < 4])] += 1
    return counts, melds


@pytest.mark.parametrize("chunk", range(4))
def test_random_hands_shanten_and_waits_agree_with_the_reference(bj, chunk):
    n = N_SHANTEN // 4 + (chunk < N_SHANTEN % 4)
    rng = random.Random(100 + chunk)
    gen = BeijingGen(40_000 + chunk)
    bad = []
    for i in range(n):
        counts, melds = _random_hand(rng, gen, i)
        hand = R.notation(counts, melds, "char" if i % 5 == 0 else "z")
        a = ds.analyze_hand(hand, rules=bj)
        want = R.shanten(counts, melds)
        if a.shanten != want:
            bad.append(f"{hand}: shanten {a.shanten}, reference {want}")
        elif sum(counts) + 3 * len(melds) == 13 and _kinds(a.waits) != R.wait_set(counts, melds):
            bad.append(f"{hand}: waits {_kinds(a.waits)}, reference {R.wait_set(counts, melds)}")
    assert not bad, f"{len(bad)} of {n} hands disagree, e.g.\n" + "\n".join(bad[:10])


@cache
def _one_suit_wins() -> list[tuple[tuple[int, ...], int]]:
    """Every complete concealed 14-tile hand of characters (15,349 of them) with each of its
    kinds as the winning tile: 95,247 wins of one suit (5m included: 捉五魁)."""
    out = []

    def rec(i: int, left: int, cur: list[int]) -> None:
        if i == 9:
            if left == 0 and R.is_complete(cur + [0] * 25):
                out.extend((tuple(cur), t) for t in range(9) if cur[t])
            return
        for c in range(min(4, left) + 1):
            cur.append(c)
            rec(i + 1, left - c, cur)
            cur.pop()

    rec(0, 14, [])
    return out


EVERY_ONE_SUIT = os.environ.get("BEIJING_EVERY_ONE_SUIT_HAND") == "1"


@pytest.mark.parametrize("chunk", range(4))
def test_one_suit_wins_agree_with_the_reference(bj, chunk):
    """All 95,247 with ``BEIJING_EVERY_ONE_SUIT_HAND=1``, else every 25th."""
    step = 1 if EVERY_ONE_SUIT else 25
    cases = _one_suit_wins()[chunk::4][::step]
    bad = []
    for i, (c14, win) in enumerate(cases):
        counts = list(c14) + [0] * 25
        counts[win] -= 1
        how = {"self_draw": bool(i % 2)}
        ref = R.score(counts, [], win, **how)
        got = ds.score_win(R.notation(counts), R.tile_name(win), rules=bj, **how)
        if (got.total_fans, got.value) != (ref.total_fans, ref.value) or dict(got.fans) not in ref.tied:
            bad.append(f"{R.notation(counts)} + {R.tile_name(win)}: {dict(got.fans)}, reference {ref.fans}")
    assert len(cases) > 900
    assert not bad, f"{len(bad)} of {len(cases)} disagree, e.g.\n" + "\n".join(bad[:10])


def _honor_cost_by_search(counts, mh, ph):
    """Fewest tiles the seven honor kinds (``counts``) must gain for ``mh`` triplets and ``ph``
    pairs on distinct kinds, over every choice of kinds."""
    from itertools import combinations, permutations

    best = None
    for kinds in combinations(range(7), mh + ph):
        for order in permutations(kinds):
            cost = sum(max(0, 3 - counts[k]) for k in order[:mh])
            cost += sum(max(0, 2 - counts[k]) for k in order[mh:])
            best = cost if best is None else min(best, cost)
    return best


def test_the_honors_cost_is_the_cheapest_choice_of_kinds():
    """``_honor_costs`` (from the histogram of the honor kinds' counts) equals a search over the
    kinds for every histogram of seven kinds (every hand's honors, up to order)."""
    from itertools import product

    from daqing_sim.hand.kinds34 import _honor_costs

    n = 0
    for counts in product(range(5), repeat=7):
        if list(counts) != sorted(counts) or sum(counts) > 14:
            continue
        h = tuple(counts.count(v) for v in range(5))
        got = _honor_costs(h)
        for mh in range(5):
            for ph in range(2):
                assert got[2 * mh + ph] == _honor_cost_by_search(counts, mh, ph), (counts, mh, ph)
        n += 1
    assert n > 150


@pytest.mark.parametrize("chunk", range(2))
def test_incremental_shanten_and_ukeire_equal_the_full_table_shanten(chunk):
    """``bj_shanten_changes_k`` (one tile more or less of each kind) and ``bj_ukeire_k`` (unseen
    copies of the draws that lower the shanten) read a one-tile change from the suit's base-5 key;
    each equals the full table shanten (``bj_shanten_k``, which walks every suit) of the hand so
    changed, on random hands with and without melds. Greedy's discards rest on them."""
    import numpy as np

    from daqing_sim.hand.kinds34 import bj_shanten_changes_k, bj_shanten_k, bj_ukeire_k
    from daqing_sim.hand.tables import get_tables

    tabs = get_tables()
    rng = random.Random(700 + chunk)
    gen = BeijingGen(70_000 + chunk)
    out = np.zeros(34, np.int64)
    n_checked = n_lowering = n_discards = 0
    for i in range(600):
        counts, melds = _random_hand(rng, gen, i)
        h = np.array(counts, np.uint8)
        nm = len(melds)
        delta = -1 if h.sum() % 3 == 2 else 1
        bj_shanten_changes_k(h, nm, tabs, delta, out)
        assert h.tolist() == counts  # restored
        for t in range(34):
            if not 0 <= counts[t] + delta <= 4:
                assert out[t] == 99
                continue
            h[t] = counts[t] + delta
            assert out[t] == bj_shanten_k(h, nm, tabs), (R.notation(counts, melds), t, delta)
            h[t] = counts[t]
            n_checked += 1
        if delta == 1:  # a 13-tile hand: its ukeire
            unseen = np.array([rng.randint(0, 4) for _ in range(34)], np.int64)
            base = bj_shanten_k(h, nm, tabs)
            want = 0
            for x in range(34):
                if unseen[x] > 0 and h[x] < 4:
                    h[x] += 1
                    if bj_shanten_k(h, nm, tabs) < base:
                        want += unseen[x]
                        n_lowering += 1
                    h[x] -= 1
            assert bj_ukeire_k(h, nm, tabs, unseen, base) == want, R.notation(counts, melds)
        else:  # a 14-tile hand: the ukeire left by each discard, as greedy's tie-break reads it
            n_discards += _check_discard_ukeire(h, nm, tabs, rng, R.notation(counts, melds))
    assert n_checked > 10_000 and n_lowering > 500 and n_discards > 2_000


def _check_discard_ukeire(h, nm, tabs, rng, label):
    """``bj_suit_discard_ukeire_k`` / ``bj_honor_discard_ukeire_k`` (the parts shared between
    discards through the plus ids and the memo) against the ukeire counted draw by draw with the
    full table shanten, for every kind of the 14-tile hand ``h`` (as ``_best_discard`` calls
    them: one memo for all its discards)."""
    import numpy as np

    from daqing_sim.hand.kinds34 import (
        bj_discard_context_k,
        bj_honor_discard_ukeire_k,
        bj_plus_ids_k,
        bj_shanten_k,
        bj_suit_discard_ukeire_k,
    )

    unseen = np.array([rng.randint(0, 4) for _ in range(34)], np.int32)
    plus = np.zeros(34, np.int32)
    memo = np.zeros(34, np.int32)
    bj_plus_ids_k(h, tabs, plus)
    ctx = bj_discard_context_k(h, tabs)
    n_memo = 0
    n = 0
    for t in range(34):
        if h[t] == 0:
            continue
        h[t] -= 1
        base = bj_shanten_k(h, nm, tabs)
        want = 0
        for x in range(34):
            if unseen[x] > 0 and h[x] < 4:
                h[x] += 1
                want += unseen[x] if bj_shanten_k(h, nm, tabs) < base else 0
                h[x] -= 1
        h[t] += 1
        if t < 27:
            got, n_memo = bj_suit_discard_ukeire_k(
                h, nm, tabs, unseen, np.int64(base), t, plus, memo, n_memo, ctx
            )
        else:
            got, n_memo = bj_honor_discard_ukeire_k(
                h, nm, tabs, unseen, np.int64(base), t, plus, memo, n_memo, ctx
            )
        assert got == want, (label, t)
        n += 1
    return n
