"""No decision may depend on hidden tiles: other hands, the wall beyond the next draw, or
the bao before the deciding seat is ready (RULES.md, "Bao").

Two kinds of test: the decision functions called on observations built from full game
states that differ only in hidden parts; and whole deals whose walls differ only in hidden
parts, where the event logs (every decision) must agree until public information differs.
"""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CLAIM_PENG, CONCEALED_KONG
from daqing_sim.families.daqing.deal import _chi_options
from daqing_sim.game.engine import (
    EV_BAO_REPLACED,
    EV_CLAIM,
    EV_CLAIM_OFFER,
    EV_DISCARD,
    EV_DRAW,
    EV_READY,
)
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import LIVE_START, generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players import seats
from daqing_sim.players.observation import UNKNOWN, Observation
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

SEAT0 = ["greedy", "jia_hunter", "defensive", "random", "expert"]


def _state(rng):
    """A random mid-deal state: four hands, discards, a shuffled rest, a bao."""
    tiles = rng.permutation(np.repeat(np.arange(28), 4))
    hands = np.zeros((4, 28), dtype=np.uint8)
    for s in range(4):
        np.add.at(hands[s], tiles[13 * s : 13 * s + 13], 1)
    np.add.at(hands[0], tiles[52:53], 1)  # seat 0 holds 14 (just drew)
    visible = np.zeros(28, dtype=np.uint8)
    np.add.at(visible, tiles[53:70], 1)
    return {"hands": hands, "visible": visible, "rest": tiles[70:].copy(), "bao": int(tiles[70])}


def _hide_differently(state, rng):
    """Same public state and seat-0 hand; other hands, wall order and bao reshuffled."""
    other = np.concatenate([np.repeat(np.arange(28), state["hands"][s]) for s in (1, 2, 3)])
    pool = rng.permutation(np.concatenate([other, state["rest"]]))
    hands = state["hands"].copy()
    hands[1:] = 0
    for s in (1, 2, 3):
        np.add.at(hands[s], pool[13 * (s - 1) : 13 * s], 1)
    rest = pool[39:]
    return {"hands": hands, "visible": state["visible"], "rest": rest, "bao": int(rest[0])}


def _deal_state(state, ready, trial, rng):
    """A DealState holding ``state``: every seat's hand, visible tiles, ponds, and a concealed
    kong of seat 2 (its tile must stay hidden from seat 0)."""
    st, obs = new_deal_state()
    st.conc[:] = state["hands"]
    st.visible[:] = state["visible"]
    st.ready[:] = ready
    st.ready_draw[:] = np.where(ready > 0, 3, -1)
    st.n_pond[:] = 4
    st.pond[:, :4] = rng.integers(0, 28, (4, 4))
    st.pond_flag[:, :4] = rng.integers(0, 8, (4, 4))
    st.mk[2, 0], st.mt[2, 0], st.nm[2] = CONCEALED_KONG, int(state["kong"]), 1
    st.safe[1, state["visible"] > 0] = 1 if ready[1] else 0
    obs.memo[:, 0] = UNKNOWN
    obs.rng[:] = trial
    return st, obs


@pytest.mark.parametrize("name", SEAT0)
def test_observation_and_decisions_ignore_hidden_state(name):
    """``observe`` (the one place an observation is built) gives seat 0 equal observations, field
    by field, for states that differ only in what seat 0 cannot see: other hands, the wall order,
    the tile of another seat's concealed kong, and the bao before seat 0 is ready; so every
    decision is equal too."""
    _, codes, knobs = encode_strategies((name,) * 4)
    rules = RuleSet(require_open=False).encode()
    tabs = get_tables()
    rng = np.random.default_rng(11)
    n_diff_public = 0
    for trial in range(150):
        a = _state(rng)
        b = _hide_differently(a, rng)
        a["kong"], b["kong"] = rng.choice(28, size=2, replace=False)
        assert not (a["hands"][1:] == b["hands"][1:]).all()
        ready = np.array([0, trial % 2, 0, 0], dtype=np.uint8)  # an opponent sometimes ready
        observed, decisions = [], []
        for state in (a, b):
            st, obs = _deal_state(state, ready, trial, np.random.default_rng(trial))
            observe(st, obs, 0, 0, len(state["rest"]), -1, -1, False, False)  # seat 0 not ready: no bao
            observed.append({f: getattr(obs, f).copy() for f in Observation._fields})
            d = seats.discard(codes[0], knobs[0], obs, rules, tabs)
            t = int(np.flatnonzero(obs.hand)[trial % 5])  # a discard by seat 3 to claim
            hand13 = obs.hand.copy()
            hand13[d[0]] -= 1
            opts = _chi_options(hand13, t) | ((1 << CLAIM_PENG) if hand13[t] >= 2 else 0)
            st.conc[0] = hand13
            observe(st, obs, 0, 0, len(state["rest"]), -1, -1, False, False)
            claim = seats.claim(codes[0], knobs[0], obs, rules, tabs, t, opts)
            decisions.append((d, claim, int(obs.rng[0])))
        for field in Observation._fields:
            if field not in ("memo", "sc", "tk", "tb"):  # the player's own memory and scratch
                assert (observed[0][field] == observed[1][field]).all(), field
        assert observed[0]["table_mt"][2, 0] == -1  # another seat's concealed kong is face down
        assert decisions[0] == decisions[1]
        # a change in what seat 0 can see is noticed (the test can fail)
        st, obs = _deal_state(a, ready, trial, np.random.default_rng(trial))
        st.pond[3, 0] = (st.pond[3, 0] + 1) % 28
        observe(st, obs, 0, 0, len(a["rest"]), -1, -1, False, False)
        n_diff_public += (obs.pond != observed[0]["pond"]).any()
    assert n_diff_public == 150


def _events(wall, seed, rules, strategies, dealer=0):
    _, codes, knobs = encode_strategies(strategies)
    raw = run_walls(
        wall[None], np.array([seed], dtype=np.uint64), rules, codes, knobs, dealer, record_log=True
    )
    return [tuple(int(x) for x in e) for e in raw["log"]]


@pytest.mark.parametrize("name", SEAT0)
def test_other_hands_and_bao_do_not_change_a_seats_play(name):
    # seats 1-3 discard what they draw and never claim, so their hands stay private;
    # shuffling those hands and the bao among them must not change anything seat 0 does
    strategies = (name, ("scripted", {}), ("scripted", {}), ("scripted", {}))
    walls, _, seeds = generate_walls(60, seed=21)
    rng = np.random.default_rng(5)
    n_compared = 0
    for wall, seed in zip(walls, seeds, strict=True):
        other = wall.copy()
        hidden = np.r_[14:54]  # seats 1-3 and the bao
        other[hidden] = rng.permutation(wall[hidden])
        if (other[14:53] == wall[14:53]).all():
            continue
        # a claim offer to seats 1-3 shows what their hidden hands could claim: not public
        ea = [e for e in _events(wall, seed, RuleSet(), strategies) if e[0] != EV_CLAIM_OFFER or e[1] == 0]
        eb = [e for e in _events(other, seed, RuleSet(), strategies) if e[0] != EV_CLAIM_OFFER or e[1] == 0]
        # until seat 0 is ready (then it sees the bao) or the bao is replaced (a public event
        # whose timing depends on the bao's kind), the two deals are identical
        stop = min(_first(ea, (EV_READY, EV_BAO_REPLACED)), _first(eb, (EV_READY, EV_BAO_REPLACED)))
        assert ea[:stop] == eb[:stop]
        n_compared += sum(1 for e in ea[:stop] if e[1] == 0 and e[0] in (EV_DISCARD, EV_CLAIM))
    assert n_compared > 300


def _first(events, codes):
    return next((i for i, e in enumerate(events) if e[0] in codes), len(events))


@pytest.mark.parametrize("strategies", [("greedy",) * 4, ("random", "defensive", "jia_hunter", "greedy")])
def test_wall_beyond_the_next_draw_does_not_matter(strategies):
    walls, _, seeds = generate_walls(40, seed=8)
    rng = np.random.default_rng(3)
    n_compared = 0
    for wall, seed in zip(walls, seeds, strict=True):
        j = int(rng.integers(2, 30))  # front draws 0..j-1 are fixed, the rest reshuffled
        other = wall.copy()
        tail = np.r_[LIVE_START + j : 112]
        other[tail] = rng.permutation(wall[tail])
        ea = _events(wall, seed, RuleSet(), strategies)
        eb = _events(other, seed, RuleSet(), strategies)
        stop_a, stop_b = _stop_at_draw(ea, j), _stop_at_draw(eb, j)
        assert stop_a == stop_b and ea[:stop_a] == eb[:stop_b]
        n_compared += stop_a
    assert n_compared > 200


def _stop_at_draw(events, j):
    """Index of the first event that reveals a reshuffled tile: front draw number j, or any
    tile taken from the back (kong replacement, bao replacement)."""
    front = 0
    for i, e in enumerate(events):
        if e[0] == EV_DRAW:
            if e[3] == 1:
                return i
            if front == j:
                return i
            front += 1
        if e[0] == EV_BAO_REPLACED:
            return i
    return len(events)
