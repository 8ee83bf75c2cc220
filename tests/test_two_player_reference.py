"""The two-player kernels on random hands, against the plain-Python reference
(tests/reference_two_player.py) and the outside oracle, the PyPI ``mahjong`` riichi calculator
(tests/riichi_oracle.py). Sizes (seconds on two shared cores, ``-n 0``, kernels cached):

* ``TWO_PLAYER_REFERENCE_CASES`` random winning hands (default 4,000; ``100000`` for the full
  check) from tests/two_player_gen.py, every way of winning and flower tile, in ``CHUNKS`` seeded
  chunks: fans, F and value (also under other flags), the wait set, shanten 0 and -1, and a
  refused non-winning tile;
* ``TWO_PLAYER_SHANTEN_CASES`` 13- and 14-tile hands dealt from the 136 or a few swaps from a win
  (default 1,000): shanten and wait set;
* ``TWO_PLAYER_ORACLE_CASES`` random concealed winning hands (default 2,000; ``20000`` for the
  full check) against the riichi calculator, split by split, on the patterns both define.
"""

from __future__ import annotations

import collections
import os
import random

import pytest
import reference_beijing as RB
import reference_two_player as R
import riichi_oracle as O
from two_player_gen import TwoPlayerGen

import daqing_sim as ds
from daqing_sim.rules import RuleSet

N_CASES = int(os.environ.get("TWO_PLAYER_REFERENCE_CASES", "4000"))
N_SHANTEN = int(os.environ.get("TWO_PLAYER_SHANTEN_CASES", "1000"))
N_ORACLE = int(os.environ.get("TWO_PLAYER_ORACLE_CASES", "2000"))
CHUNKS = 4
TWO = RuleSet(family="two_player")
# other flags for some of the cases: a lower cap, another room, a later game of a match
VARIANTS = (
    ({}, TWO),
    ({"limit_fans": 6, "multiplier": 5, "points_per_fan": 10, "match_game": 3},
     RuleSet(family="two_player", limit_fans=6, multiplier=5, points_per_fan=10)),
    ({"open_pinfu": False, "match_doubling": False, "match_game": 2, "flower_tiles": 2},
     RuleSet(family="two_player", open_pinfu=False, match_doubling=False, flower_tiles=2)),
)  # fmt: skip


def _kinds(waits) -> list[int]:
    return sorted(w.tile_kind for w in waits)


def _check_case(case, rng: random.Random) -> str | None:
    """``None`` when the API agrees with the reference on this case, else what differs."""
    hand = case.hand("char" if rng.random() < 0.3 else "z")
    tile = RB.tile_name(case.win_tile)
    counts, melds = list(case.counts), list(case.melds)
    ref_kw, rules = VARIANTS[rng.randrange(len(VARIANTS))] if rng.random() < 0.3 else VARIANTS[0]
    match_game = ref_kw.get("match_game", 0)
    ref = R.score(counts, melds, case.win_tile, flowers=case.flowers, **ref_kw, **case.flags())
    got = ds.score_win(
        hand,
        tile,
        rules=rules,
        flowers=[RB.tile_name(f) for f in case.flowers],
        match_game=match_game,
        **case.flags(),
    )
    if (got.fans, got.total_fans, got.value, got.total) != (ref.fans, ref.total_fans, ref.value, ref.value):
        how = f"{case.flags()} {case.flowers} {ref_kw}"
        return f"{hand} + {tile} {how}: {got.fans} {got.value}, reference {ref.fans} {ref.value}"
    if got.wait_kind not in ref.waits:  # the wait of the split scored (issue 39)
        return f"{hand} + {tile}: wait {got.wait_kind}, the scored readings' {ref.waits} ({ref.fans})"
    a = ds.analyze_hand(hand, rules=TWO)
    waits = R.wait_set(counts, melds)
    if a.shanten != 0 or _kinds(a.waits) != waits:
        return f"{hand}: shanten {a.shanten} waits {_kinds(a.waits)}, reference 0 {waits}"
    a14 = ds.analyze_hand(f"{hand} {tile}", rules=TWO, win_tile=tile)
    if not a14.is_win or a14.shanten != -1:
        return f"{hand} {tile}: is_win {a14.is_win} shanten {a14.shanten}"
    if rng.random() < 0.1:  # a tile that does not complete the hand must be refused
        total = RB.total_counts(counts, melds)
        wrong = [t for t in range(R.N_KINDS) if t not in waits and total[t] < 4]
        t = rng.choice(wrong)
        try:
            ds.score_win(hand, RB.tile_name(t), rules=TWO, self_draw=False)
        except ValueError:
            return None
        return f"{hand} + {RB.tile_name(t)}: scored, but it is no winning tile"
    return None


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_winning_hands_agree_with_the_reference(chunk):
    n = N_CASES // CHUNKS + (chunk < N_CASES % CHUNKS)
    gen = TwoPlayerGen(50_000 + chunk)
    rng = random.Random(chunk)
    bad = [why for why in (_check_case(gen.case(), rng) for _ in range(n)) if why]
    assert not bad, f"{len(bad)} of {n} cases disagree, e.g.\n" + "\n".join(bad[:10])


def test_the_random_hands_hold_every_pattern():
    """The generator reaches every pattern and limit hand of the page (as the reference reads
    them), so the agreement above covers them all."""
    seen: collections.Counter = collections.Counter()
    for case in TwoPlayerGen(7).cases(3000):
        ref = R.score(
            list(case.counts), list(case.melds), case.win_tile, flowers=case.flowers, **case.flags()
        )
        seen.update(ref.fans.keys())
    assert set(seen) == set(R.ORDER), sorted(set(R.ORDER) - set(seen))


def _random_hand(rng: random.Random, gen: TwoPlayerGen, i: int) -> tuple[list[int], list]:
    """A 13- or 14-tile hand: dealt from the 136 tiles, or a winning hand one or two swaps away."""
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
        total = RB.total_counts(counts, melds)
        out = rng.choice([t for t in range(R.N_KINDS) if counts[t]])
        into = rng.choice([t for t in range(R.N_KINDS) if total[t] < 4 and t != out])
        counts[out] -= 1
        counts[into] += 1
    if i % 2:  # with its drawn tile
        total = RB.total_counts(counts, melds)
        counts[rng.choice([t for t in range(R.N_KINDS) if total[t] < 4])] += 1
    return counts, melds


@pytest.mark.parametrize("chunk", range(2))
def test_random_hands_shanten_and_waits_agree_with_the_reference(chunk):
    n = N_SHANTEN // 2 + (chunk < N_SHANTEN % 2)
    rng = random.Random(300 + chunk)
    gen = TwoPlayerGen(60_000 + chunk)
    bad = []
    for i in range(n):
        counts, melds = _random_hand(rng, gen, i)
        hand = RB.notation(counts, melds, "char" if i % 5 == 0 else "z")
        a = ds.analyze_hand(hand, rules=TWO)
        want = R.shanten(counts, melds)
        if a.shanten != want:
            bad.append(f"{hand}: shanten {a.shanten}, reference {want}")
        elif sum(counts) + 3 * len(melds) == 13 and _kinds(a.waits) != R.wait_set(counts, melds):
            bad.append(f"{hand}: waits {_kinds(a.waits)}, reference {R.wait_set(counts, melds)}")
    assert not bad, f"{len(bad)} of {n} hands disagree, e.g.\n" + "\n".join(bad[:10])


# ---------------------------------------------------------------- the riichi calculator


def _oracle(case) -> tuple[str, str, dict]:
    flags = case.flags()
    got = ds.score_win(case.hand(), RB.tile_name(case.win_tile), rules=TWO, **flags)
    c14 = list(case.counts)
    c14[case.win_tile] += 1
    splits = O.riichi_splits(list(case.counts), list(case.melds), case.win_tile, flags)
    status, why = O.compare(c14, list(case.melds), got.fans, splits)
    return status, why, got.fans


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_riichi_calculator_agrees_on_the_patterns_both_define(chunk):
    n = N_ORACLE // CHUNKS + (chunk < N_ORACLE % CHUNKS)
    gen = TwoPlayerGen(70_000 + chunk, concealed=True)
    stats: collections.Counter = collections.Counter()
    held: collections.Counter = collections.Counter()
    bad = []
    for _ in range(n):
        case = gen.case()
        status, why, fans = _oracle(case)
        stats[status, why] += 1
        if status == "agree":
            held.update(name for name in fans if name in O.COMMON)
        else:
            if status == "disagree":
                bad.append(f"{case.hand()} + {RB.tile_name(case.win_tile)} {case.flags()}: {why}")
    print(f"\nchunk {chunk}: {dict(stats)}\npatterns compared in agreeing hands: {dict(held)}")
    assert not bad, f"{len(bad)} of {n} hands disagree, e.g.\n" + "\n".join(bad[:10])
    assert sum(v for (s, _), v in stats.items() if s == "agree") > 0.8 * n  # mostly compared, not excused


def test_the_oracle_comparison_can_fail():
    """Dropping one of the evaluator's patterns, or adding one it did not find, is caught."""
    rng = random.Random(5)
    tried = caught = 0
    for case in TwoPlayerGen(71, concealed=True).cases(300):
        status, _, fans = _oracle(case)
        if status != "agree" or set(fans) & (O.COMMON_LIMITS | O.OWN_LIMITS):
            continue
        c14 = list(case.counts)
        c14[case.win_tile] += 1
        splits = O.riichi_splits(list(case.counts), list(case.melds), case.win_tile, case.flags())
        absent = sorted(O.COMMON - O.COMMON_LIMITS - set(fans))
        wrong = {**fans, rng.choice(absent): 1}
        tried += 1
        caught += O.compare(c14, list(case.melds), wrong, splits)[0] == "disagree"
    assert tried > 100 and caught / tried > 0.95
