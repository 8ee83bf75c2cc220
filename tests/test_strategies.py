"""Strategies: names, knobs, validation, single decisions and their effect over many deals."""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CHI_HIGH, CHI_LOW, CHI_MID, CLAIM_PENG, PASS
from daqing_sim.families.daqing import deal as engine  # the deal loop's Daqing chi options
from daqing_sim.game.simulate import simulate
from daqing_sim.hand.notation import parse_hand
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_from_name
from daqing_sim.players import seats
from daqing_sim.players.common import claim_take
from daqing_sim.players.observation import make_observation
from daqing_sim.players.registry import STRATEGIES, encode_strategies
from daqing_sim.rules import RuleSet


def _obs(name, text, seen="", ready=(0, 0, 0, 0), safe_for=None, knobs=None, seed=1):
    """Observation of seat 0 holding ``text``; ``seen`` are other visible tiles."""
    _, codes, kn = encode_strategies(((name, knobs or {}),) + ("greedy",) * 3)
    hand = parse_hand(text, require_full=False)
    mk, mt, nm = hand.meld_arrays()
    visible = np.zeros(28, dtype=np.uint8)
    for m in hand.melds:
        if m.exposed:
            for t in m.tiles:
                visible[t] += 1
    for t in parse_hand(seen, require_full=False).order if seen else []:
        visible[t] += 1
    safe = np.zeros((4, 28), dtype=np.uint8)
    for seat, tiles in (safe_for or {}).items():
        for t in parse_hand(tiles, require_full=False).order:
            safe[seat, t] = 1
    obs = make_observation(
        hand.counts.copy(), melds=(mk[:nm], mt[:nm]), visible=visible, ready=ready, safe=safe, rng_seed=seed
    )
    return codes[0], kn[0], obs


def discard(name, text, **kw):
    code, kn, obs = _obs(name, text, **kw)
    before = obs.hand.copy()
    t, declare = seats.discard(code, kn, obs, RuleSet().encode(), get_tables())
    assert (obs.hand == before).all(), "the player did not restore its hand"
    assert before[t] > 0, "discarded a tile not in hand"
    return t, bool(declare)


def _possible_chis(tile: int) -> int:
    """Chi options that exist for a discard ``tile`` (written from RULES.md: a sequence is three
    consecutive ranks of one suit; 中 and the other honors, codes >= 27, make none)."""
    if tile >= 27:
        return 0
    rank = tile % 9 + 1
    return (
        (rank <= 7) << CHI_LOW | (2 <= rank <= 8) << CHI_MID | (rank >= 3) << CHI_HIGH
    )  # fmt: skip


def claim(name, text, tile, options, **kw):
    t = tile_from_name(tile)
    chis = options & (1 << CHI_LOW | 1 << CHI_MID | 1 << CHI_HIGH)
    if chis & ~_possible_chis(t):
        raise ValueError(f"options {options:#b} offer a chi that cannot exist on {tile}")
    code, kn, obs = _obs(name, text, **kw)
    return seats.claim(code, kn, obs, RuleSet().encode(), get_tables(), t, options)


def test_strategy_table():
    assert set(STRATEGIES) == {
        "greedy",
        "jia_hunter",
        "defensive",
        "random",
        "scripted",
        "expert",
        "expert1",
        "expert2",
    }
    assert STRATEGIES["jia_hunter"]["min_outs_fraction"] == 0.5
    assert STRATEGIES["defensive"]["fold_shanten"] == 2.0
    names, codes, kn = encode_strategies(
        ["greedy", ("defensive", {"fold_shanten": 3}), "random", ("jia_hunter", None)]
    )
    assert names == ("greedy", "defensive", "random", "jia_hunter")
    assert kn[1, 0] == 3 and kn[3, 0] == 0.5  # each player's knobs in the order of its KNOBS
    assert len(set(codes.tolist())) == 4


@pytest.mark.parametrize(
    "bad, match",
    [
        (["greedy"] * 5, "one per seat"),
        (["greedy", "greedy", "greedy", "magic"], "valid strategies: greedy, jia_hunter, defensive, random"),
        ([("defensive", {"fold_shanten": -1})] + ["greedy"] * 3, "fold_shanten=-1"),
        ([("defensive", {"fold_shanten": float("nan")})] + ["greedy"] * 3, "fold_shanten=nan is not allowed"),
        ([("defensive", {"fold_shanten": 2.5})] + ["greedy"] * 3, "whole number from 0 to 13"),
        ([("jia_hunter", {"min_outs_fraction": 1.5})] + ["greedy"] * 3, "from 0 to 1"),
        ([("greedy", {"speed": 1})] + ["greedy"] * 3, "unknown knob"),
        ([("scripted", {"script": "4x"})] + ["greedy"] * 3, "no suit letter|not a tile|unknown character"),
    ],
)
def test_validation(bad, match):
    with pytest.raises(ValueError, match=match):
        encode_strategies(bad)


def test_greedy_discards_the_useless_tile_and_declares():
    t, declare = discard("greedy", "13m456p789s中中9p [345m]")
    assert t == tile_from_name("9p") and declare


def test_greedy_does_not_declare_closed():
    t, declare = discard("greedy", "13m456p789s中中9p345m")  # ready shape but no open door
    assert t == tile_from_name("9p") and not declare


def test_greedy_prefers_more_outs_and_jia_hunter_the_kanchan():
    hand = "134m456p789s中中 [345m]"  # discard 1m: 2m/5m two-sided; discard 4m: 2m kanchan
    assert discard("greedy", hand) == (tile_from_name("1m"), True)
    assert discard("jia_hunter", hand) == (tile_from_name("4m"), True)
    # the kanchan has 4 live outs, the two-sided wait 7: below 0.9 of the best
    assert discard("jia_hunter", hand, knobs={"min_outs_fraction": 0.9}) == (tile_from_name("1m"), True)
    # with 2m mostly gone, the kanchan is too thin even at the default fraction
    assert discard("jia_hunter", hand, seen="2m2m2m") == (tile_from_name("1m"), True)


def test_defensive_folds_to_a_safe_tile():
    far = "1m5m9m2p6p1s4s7s9s中 2m3m4m 8p"  # far from ready
    greedy_t, _ = discard("greedy", far, ready=(0, 1, 0, 0))
    safe_tile = "3m" if greedy_t != tile_from_name("3m") else "4m"
    t, declare = discard("defensive", far, ready=(0, 1, 0, 0), safe_for={1: safe_tile})
    assert t == tile_from_name(safe_tile) and not declare
    # nobody ready: plays like greedy
    assert discard("defensive", far) == discard("greedy", far)
    # fold_shanten above its shanten: plays like greedy
    assert discard(
        "defensive", far, ready=(0, 1, 0, 0), safe_for={1: safe_tile}, knobs={"fold_shanten": 9}
    ) == (greedy_t, False)


def test_greedy_claims_to_open_the_door():
    # concealed ready shape 13m + ...; a peng of 中 opens the door without losing ground
    hand = "13m456p789s111s中中"
    assert claim("greedy", hand, "中", 1 << CLAIM_PENG) == CLAIM_PENG
    # an open hand does not peng a pair it needs as its pair... nor a useless chi
    assert claim("greedy", "13m456p789s中中 [111s]", "9s", 1 << CHI_HIGH) == PASS
    with pytest.raises(ValueError, match="cannot exist on 9s"):
        claim("greedy", "13m456p789s中中 [111s]", "9s", 1 << CHI_LOW)


def test_the_engine_offers_only_chis_that_exist():
    full = np.full(28, 4, dtype=np.uint8)
    conc = np.full((4, 28), 4, dtype=np.uint8)
    for t in range(28):
        assert engine._chi_options(full, t) == _possible_chis(t), t
        assert engine._chi_options_seat(conc, 2, t) == _possible_chis(t), t
    for t in range(28, 34):  # honors of the 34-kind sets: checked before any hand index
        assert engine._chi_options(full, t) == 0 == _possible_chis(t)
    assert engine._chi_options(np.zeros(28, dtype=np.uint8), 4) == 0  # nothing held: no chi


def test_claim_take_refuses_an_impossible_chi():
    hand = np.full(28, 2, dtype=np.uint8)
    assert claim_take(hand, 25, CHI_MID) == 24 and hand[24] == hand[26] == 1
    for t, action in ((26, CHI_LOW), (25, CHI_LOW), (27, CHI_HIGH), (0, CHI_MID), (9, CHI_HIGH)):
        with pytest.raises(AssertionError, match="impossible chi option"):
            claim_take(hand.copy(), t, action)


def test_random_choices_are_legal_and_varied():
    seen = set()
    for seed in range(40):
        t, _ = discard("random", "1m5m9m2p6p1s4s7s9s中2m3m4m8p", seed=seed)
        seen.add(t)
    assert len(seen) >= 8
    acts = {claim("random", "13m456p789s111s中中", "中", 1 << CLAIM_PENG, seed=s) for s in range(30)}
    assert acts == {PASS, CLAIM_PENG}


def _table(strategies, n=1500, seed=7, rules=RuleSet()):  # noqa: B008
    return simulate(n, strategies=strategies, seed=seed, rules=rules)


def test_greedy_beats_random():
    df = _table(("greedy", "random", "greedy", "random"))
    pays = df[[f"pay_{s}" for s in range(4)]].mean().to_numpy()
    assert pays[0] > 0 and pays[2] > 0 and pays[1] < 0 and pays[3] < 0
    assert (df["winner"].isin([0, 2])).mean() > 0.7


def test_defensive_deals_in_less_while_not_ready():
    df = _table(("greedy", "defensive", "greedy", "defensive"), n=2000)
    dark = df[df["outcome"] == "deal_in_not_ready"]["discarder"].value_counts()
    assert dark.get(1, 0) + dark.get(3, 0) < 0.8 * (dark.get(0, 0) + dark.get(2, 0))


def test_jia_hunter_declares_more_kanchan_waits():
    jia = ("jia_hunter", {"min_outs_fraction": 0.0})  # any kanchan wait beats a wider one
    df = _table((jia, "greedy", jia, "greedy"), n=2000)
    share = {
        s: (df[f"ready_wait_{s}"] == "kanchan").sum() / max(1, (df[f"ready_turn_{s}"] >= 0).sum())
        for s in range(4)
    }
    assert share[0] + share[2] > 1.05 * (share[1] + share[3])


def _random_counts(rng, n):
    return np.bincount(rng.permutation(np.repeat(np.arange(28), 4))[:n], minlength=28).astype(np.uint8)


def test_discard_shanten_matches_the_kernel():
    """``discard_shanten`` (one pass over the discards) against ``std_shanten_k`` called once per
    discard: independent of the players' code, it relies on ``std_shanten_k``, which
    test_evaluator_reference.py checks against the plain-Python reference."""
    from daqing_sim.hand.kernels import std_shanten_k
    from daqing_sim.players.common import discard_shanten

    tabs = get_tables()
    rng = np.random.default_rng(2)
    out = np.zeros(28, dtype=np.int32)
    checked = 0
    for _ in range(400):
        h = _random_counts(rng, int(rng.choice([14, 11, 8, 5, 2])))
        before = h.copy()
        discard_shanten(h, tabs, out)
        assert (h == before).all()
        for t in range(28):
            if h[t] == 0:
                assert out[t] == 99
                continue
            h2 = h.copy()
            h2[t] -= 1
            assert out[t] == std_shanten_k(h2, tabs)
            checked += 1
    assert checked > 2000


def test_ukeire_counts_unseen_tiles_that_lower_the_standard_shanten():
    """``ukeire_after`` against a brute force over every tile; independent of the players'
    code, it relies on ``std_shanten_k`` (checked against tests/reference.py elsewhere)."""
    from daqing_sim.hand.kernels import std_shanten_k
    from daqing_sim.players.common import ukeire_after

    tabs = get_tables()
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(300):
        h = _random_counts(rng, int(rng.choice([14, 11, 8, 5])))
        unseen = rng.integers(0, 5, 28).astype(np.int32)
        unseen = np.minimum(unseen, 4 - h).astype(np.int32)
        for d in np.flatnonzero(h):
            h13 = h.copy()
            h13[d] -= 1
            level = std_shanten_k(h13, tabs)
            expected = 0
            for u in range(28):  # brute force over every tile, isolated ones included
                if unseen[u] > 0:
                    h14 = h13.copy()
                    h14[u] += 1
                    expected += unseen[u] if std_shanten_k(h14, tabs) < level else 0
            before = h.copy()
            assert ukeire_after(h, d, level, unseen, tabs) == expected
            assert (h == before).all()
            checked += 1
    assert checked > 1500


def _reference_greedy_discard(hand, mk, mt, nm, unseen, rules, tabs):
    """The greedy rule of the strategies docstring, by brute force: least Daqing shanten
    (standard shanten beyond EXACT_DEPTH), then most ukeire, lower standard shanten, lower kind.
    A standard-ready hand that is not ready counts as one away, so its ukeire is every unseen
    tile near it. None when some discard leaves a ready hand (the declaring path, tested elsewhere).

    Independence: the ordering (shanten, ukeire, ties) is restated here from the docstring,
    independent of ``families/daqing/greedy.py`` and ``players/common.py``; the hand values come from
    ``std_shanten_k``, ``wait_set_k`` and ``daqing_shanten_k``, which test_evaluator_reference.py
    checks against the plain-Python reference."""
    from daqing_sim.hand.kernels import daqing_shanten_k, std_shanten_k, wait_set_k
    from daqing_sim.players.common import EXACT_DEPTH

    tk, tb = np.zeros(28, np.int8), np.zeros(28, np.uint8)
    level = {}
    for t in np.flatnonzero(hand):
        h = hand.copy()
        h[t] -= 1
        s = std_shanten_k(h, tabs)
        if s == 0:
            if wait_set_k(h, mk, mt, nm, rules, tabs, tk, tb) > 0:
                return None
            s = 1  # not ready: at least one exchange away
        level[int(t)] = s

    def near(h, u):  # an isolated tile never lowers the true shanten (test above)
        if u == 27:
            return h[u] > 0
        return any(h[x] > 0 for x in range(u - u % 9, u - u % 9 + 9) if abs(x - u) <= 2)

    def ukeire(t):
        h = hand.copy()
        h[t] -= 1
        total = 0
        for u in range(28):
            if unseen[u] > 0 and near(h, u):
                h[u] += 1
                total += unseen[u] if std_shanten_k(h, tabs) < level[t] else 0
                h[u] -= 1
        return total

    def daqing(t):
        if level[t] > EXACT_DEPTH:
            return level[t]
        h = hand.copy()
        h[t] -= 1
        return daqing_shanten_k(h, mk, mt, nm, rules, tabs)

    lo = min(level.values())
    if lo > EXACT_DEPTH:
        return min((t for t in level if level[t] == lo), key=lambda t: (-ukeire(t), t))
    return min(level, key=lambda t: (daqing(t), -ukeire(t), level[t], t))


def test_greedy_discard_matches_a_brute_force_reference(hand_gen):
    from daqing_sim.codes import CHI, CONCEALED_KONG, PENG

    tabs = get_tables()
    rules = RuleSet().encode()
    _, codes, kn = encode_strategies(("greedy",) * 4)
    compared = 0
    for i in range(240):
        exchanges = int(hand_gen.rng.choice([0, 1, 2, 4, 8]))
        counts, melds = hand_gen.near_ready(n_melds=int(hand_gen.rng.integers(0, 3)), exchanges=exchanges)
        held = counts.astype(np.int64)
        mk, mt = np.zeros(4, np.int8), np.zeros(4, np.int8)
        visible = np.zeros(28, np.uint8)
        for j, (kind, tile) in enumerate(melds):
            mk[j], mt[j] = kind, tile
            tiles = [tile, tile + 1, tile + 2] if kind == CHI else [tile] * (3 if kind == PENG else 4)
            for x in tiles:
                held[x] += 1
                if kind != CONCEALED_KONG:
                    visible[x] += 1
        draw = hand_gen.rng.choice(np.flatnonzero(held < 4))
        counts[draw] += 1
        held[draw] += 1
        for x in hand_gen.rng.choice(np.repeat(np.arange(28), 4 - held), size=12, replace=False):
            visible[x] += 1  # other players' discards and melds
        unseen = np.clip(4 - counts.astype(np.int64) - visible, 0, 4)
        for kind, tile in melds:
            if kind == CONCEALED_KONG:
                unseen[tile] = 0
        expected = _reference_greedy_discard(counts, mk, mt, len(melds), unseen, rules, tabs)
        if expected is None:
            continue
        obs = make_observation(counts.copy(), melds=(mk[: len(melds)], mt[: len(melds)]), visible=visible)
        obs.rng[:] = i
        h = obs.hand
        t, declare = seats.discard(codes[0], kn[0], obs, rules, tabs)
        assert (h == counts).all()
        assert t == expected and not declare, repr((counts.tolist(), melds, unseen.tolist()))
        compared += 1
    assert compared > 150
