"""Under Beijing too, no decision may depend on hidden tiles: other hands, the wall beyond the
next draw, or the tile of another seat's concealed kong (the Daqing version:
tests/test_hidden_information.py). Nobody declares under Beijing, so the expert's reading of
who is ready must come from public play alone.

Two kinds of test: the decision functions called on observations built from full Beijing deal
states that differ only in hidden parts; and whole deals whose walls differ only beyond the
next draw, whose event logs (every decision) must agree until a reshuffled tile shows.
"""

from __future__ import annotations

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.codes import CHI, CHI_LOW, CLAIM_PENG, CONCEALED_KONG, OPT_CONCEALED_KONG, PENG, ZHONG
from daqing_sim.families.beijing import players as beijing
from daqing_sim.game.events import EV_DRAW
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import LIVE_START_ALL, generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.observation import CLAIMED, DRAWN_AND_THROWN, Observation
from daqing_sim.players.registry import encode_strategies

BEIJING = ds.RuleSet(family="beijing")
SEATS = [
    "expert",
    ("expert", {"min_tenpai": 0.0, "danger_scale": 3.0}),
    "greedy",
    "random",
]


def _public(rng, quad=False):
    """The public part of a random mid-deal Beijing state: ponds (with drawn-and-thrown and
    claimed flags), seat 1's chi and seat 3's peng (claimed from seat 0), seat 2's concealed
    kong, and the tiles they show; and seat 0's 14 tiles."""
    tiles = rng.permutation(np.repeat(np.arange(34), 4))
    if quad:  # seat 0 holds four of a kind (a concealed kong to decide)
        k = tiles[0]
        tiles = np.r_[[k] * 4, tiles[tiles != k]]
    pub = {"hand0": np.zeros(34, np.uint8), "ponds": [], "visible": np.zeros(34, np.uint8)}
    np.add.at(pub["hand0"], tiles[:14], 1)
    pos = 14
    for _ in range(4):
        k = int(rng.integers(3, 9))
        pond = tiles[pos : pos + k]
        pos += k
        flags = rng.integers(0, 2, k) * DRAWN_AND_THROWN
        pub["ponds"].append((pond, flags))
        np.add.at(pub["visible"], pond, 1)
    pub["ponds"][0][1][0] |= CLAIMED  # seat 0's first discard went to seat 3
    low = int(rng.integers(0, 7)) + 9 * int(rng.integers(0, 3))
    pub["melds"] = {1: [(CHI, low, 0)], 3: [(PENG, int(tiles[pos]), 0)]}
    pub["visible"][[low, low + 1, low + 2]] += 1
    pub["visible"][int(tiles[pos])] += 3
    pub["rest"] = tiles[pos + 1 :]  # the pool the hidden tiles come from (not checked for counts)
    return pub


def _state(pub, hidden_rng, kong_tile):
    st, obs = new_deal_state("beijing")
    st.conc[0] = pub["hand0"]
    pool = hidden_rng.permutation(pub["rest"])
    for s, n in ((1, 10), (2, 9), (3, 10)):  # concealed tiles besides the melds
        np.add.at(st.conc[s], pool[:n], 1)
        pool = pool[n:]
    for s, (pond, flags) in enumerate(pub["ponds"]):
        st.pond[s, : len(pond)] = pond
        st.pond_flag[s, : len(pond)] = flags
        st.n_pond[s] = len(pond)
    st.pond_claimer[0, 0] = 3
    st.visible[:] = pub["visible"]
    for s, ms in pub["melds"].items():
        for j, (kind, t, src) in enumerate(ms):
            st.mk[s, j], st.mt[s, j], st.meld_from[s, j] = kind, t, src
        st.nm[s] = len(ms)
    st.mk[2, 0], st.mt[2, 0], st.meld_from[2, 0], st.nm[2] = CONCEALED_KONG, kong_tile, -1, 1
    return st, obs


def _chi_options(hand, t):
    if t >= ZHONG:
        return 0
    r, opts = t % 9, 0
    if r <= 6 and hand[t + 1] and hand[t + 2]:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and hand[t - 1] and hand[t + 1]:
        opts |= 1 << (CHI_LOW + 1)
    if r >= 2 and hand[t - 2] and hand[t - 1]:
        opts |= 1 << (CHI_LOW + 2)
    return opts


@pytest.mark.parametrize("seat0", SEATS, ids=str)
def test_beijing_observations_and_decisions_ignore_hidden_state(seat0):
    """``observe`` gives seat 0 equal observations, field by field, for Beijing states that
    differ only in what seat 0 cannot see (other hands, the tile of seat 2's concealed kong),
    so its discard, claim and kong decisions are equal too."""
    _, codes, knobs = encode_strategies((seat0, "greedy", "greedy", "greedy"), None, "beijing")
    rules = BEIJING.encode()
    tabs = get_tables()
    rng = np.random.default_rng(20)
    n_kong = 0
    for trial in range(120):
        pub = _public(rng, quad=trial % 3 == 0)
        ka, kb = rng.choice(34, size=2, replace=False)
        seen, decisions = [], []
        for hidden_seed, kong_tile in ((trial, ka), (10_000 + trial, kb)):
            st, obs = _state(pub, np.random.default_rng(hidden_seed), int(kong_tile))
            obs.rng[:] = trial
            observe(st, obs, 0, 0, 40, -1, -1, False, False)
            seen.append({f: getattr(obs, f).copy() for f in Observation._fields})
            d = beijing.discard(codes[0], knobs[0], obs, rules, tabs)
            kong_opts = np.zeros(34, np.int8)
            kong_opts[obs.hand == 4] = OPT_CONCEALED_KONG
            k = beijing.kong(codes[0], knobs[0], obs, rules, tabs, kong_opts) if kong_opts.any() else -2
            hand13 = obs.hand.copy()
            hand13[d[0]] -= 1
            t = int(pub["ponds"][3][0][-1])  # seat 3's last discard, offered to seat 0
            opts = _chi_options(hand13, t) | ((1 << CLAIM_PENG) if hand13[t] >= 2 else 0)
            st.conc[0] = hand13
            observe(st, obs, 0, 0, 40, -1, -1, False, False)
            c = beijing.claim(codes[0], knobs[0], obs, rules, tabs, t, opts) if opts else -2
            decisions.append((d, k, c, int(obs.rng[0])))
        assert not (seen[0]["hand"] != pub["hand0"]).any()
        for field in Observation._fields:
            if field not in ("memo", "sc", "tk", "tb"):  # the player's own memory and scratch
                assert (seen[0][field] == seen[1][field]).all(), field
        assert seen[0]["table_mt"][2, 0] == -1  # another seat's concealed kong is face down
        assert decisions[0] == decisions[1]
        n_kong += decisions[0][1] != -2
    assert n_kong > 0


def _events(wall, seed, strategies):
    _, codes, knobs = encode_strategies(strategies, None, "beijing")
    raw = run_walls(wall[None], np.array([seed], dtype=np.uint64), BEIJING, codes, knobs, record_log=True)
    return [tuple(int(x) for x in e) for e in raw["log"]]


def _stop_at_draw(events, j):
    """Index of the first event that shows a reshuffled tile: front draw number j, or any draw
    from the back (a kong's replacement)."""
    front = 0
    for i, e in enumerate(events):
        if e[0] == EV_DRAW:
            if e[3] == 1 or front == j:
                return i
            front += 1
    return len(events)


@pytest.mark.parametrize("strategies", [("expert",) * 4, ("expert", "greedy", "random", "expert")], ids=str)
def test_beijing_wall_beyond_the_next_draw_does_not_matter(strategies):
    walls, _, seeds = generate_walls(40, seed=9, family="beijing")
    rng = np.random.default_rng(4)
    n_compared = 0
    for wall, seed in zip(walls, seeds, strict=True):
        j = int(rng.integers(2, 30))  # front draws 0..j-1 are fixed, the rest reshuffled
        other = wall.copy()
        tail = np.r_[LIVE_START_ALL + j : len(wall)]
        other[tail] = rng.permutation(wall[tail])
        ea, eb = _events(wall, seed, strategies), _events(other, seed, strategies)
        stop_a, stop_b = _stop_at_draw(ea, j), _stop_at_draw(eb, j)
        assert stop_a == stop_b and ea[:stop_a] == eb[:stop_b]
        n_compared += stop_a
    assert n_compared > 200
