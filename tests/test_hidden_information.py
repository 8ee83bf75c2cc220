"""No decision may depend on hidden tiles: other hands, the wall beyond the next draw, or
the bao before the deciding seat is ready (RULES.md, "Bao").

Two kinds of test: the decision functions called on observations built from full game
states that differ only in hidden parts; and whole deals whose walls differ only in hidden
parts, where the event logs (every decision) must agree until public information differs.
"""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CLAIM_PENG
from daqing_sim.game.engine import EV_BAO_REPLACED, EV_CLAIM, EV_DISCARD, EV_DRAW, EV_READY, _chi_options
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.wall import LIVE_START, generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.strategies import N_SCRATCH, UNKNOWN, choose_claim, choose_discard, encode_strategies
from daqing_sim.rules import RuleSet

SEAT0 = ["greedy", "jia_hunter", "defensive", "random"]


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


def _observe(state, seat, ready, code, knobs, seed):
    """Exactly the arguments the engine passes for seat ``seat`` (no other hand, no wall)."""
    mk = np.zeros(4, dtype=np.int8)
    mt = np.zeros(4, dtype=np.int8)
    safe = np.zeros((4, 28), dtype=np.uint8)
    bao = state["bao"] if ready[seat] else -1
    rng = np.array([seed] * 4, dtype=np.uint64)
    return (
        code,
        knobs,
        state["hands"][seat].copy(),
        mk,
        mt,
        0,
        state["visible"],
        ready,
        safe,
        len(state["rest"]),
        bao,
        seat,
        rng,
    )


@pytest.mark.parametrize("name", SEAT0)
def test_decisions_ignore_hidden_state(name):
    _, codes, knobs = encode_strategies((name,) * 4)
    rules = RuleSet(require_open=False).encode()
    tabs = get_tables()
    rng = np.random.default_rng(11)
    sc = np.zeros((N_SCRATCH, 28), dtype=np.int32)
    tk = np.zeros(28, dtype=np.int8)
    tb = np.zeros(28, dtype=np.uint8)
    n_diff_public = 0
    for trial in range(150):
        a = _state(rng)
        b = _hide_differently(a, rng)
        assert not (a["hands"][1:] == b["hands"][1:]).all()
        ready = np.array([0, trial % 2, 0, 0], dtype=np.uint8)  # an opponent sometimes ready
        decisions = []
        for st in (a, b):
            obs = _observe(st, 0, ready, codes[0], knobs[0], trial)
            memo = np.array([UNKNOWN, 0, 0, 0], dtype=np.int64)
            d = choose_discard(*obs, rules, tabs, -1, memo, False, False, sc, tk, tb)
            hand13 = obs[2].copy()
            hand13[d[0]] -= 1
            obs13 = (obs[0], obs[1], hand13) + obs[3:]
            t = int(np.flatnonzero(hand13)[trial % 5])  # a discard by seat 3 to claim
            opts = _chi_options(hand13, t) | ((1 << CLAIM_PENG) if hand13[t] >= 2 else 0)
            claim = choose_claim(*obs13, rules, tabs, t, opts, memo.copy())
            decisions.append((d, claim, obs[12][0]))
        assert decisions[0] == decisions[1]
        # a change in what seat 0 can see is noticed (the test can fail)
        c = dict(a, visible=a["visible"].copy())
        c["visible"][int(rng.integers(28))] += 1
        obs = _observe(c, 0, ready, codes[0], knobs[0], trial + 1)
        n_diff_public += obs[6].sum() != a["visible"].sum()
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
        ea = _events(wall, seed, RuleSet(), strategies)
        eb = _events(other, seed, RuleSet(), strategies)
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
