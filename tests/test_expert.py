"""The ``expert`` player: legal complete deals, no use of hidden information, its danger
estimate against a plain-Python enumeration of wait shapes, its knobs, and its folding."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from test_engine_invariants import check_wins
from test_hidden_information import _deal_state, _hide_differently, _state
from test_strategies import _obs

import daqing_sim as ds
from daqing_sim.codes import ZHONG
from daqing_sim.families.daqing import expert
from daqing_sim.game.simulate import results_frame, run_walls
from daqing_sim.game.state import observe
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players import seats
from daqing_sim.players.observation import DECLARED, Observation, make_observation
from daqing_sim.players.registry import EXPERT, EXPERT1, STRATEGIES, encode_strategies, strategy_code
from daqing_sim.rules import RuleSet

PAY = [f"pay_{s}" for s in range(4)]

W = expert.DANGER_W


@pytest.mark.parametrize(
    "rules, strategies, n",
    [
        (RuleSet(), ("expert1",) * 4, 1500),
        (RuleSet(bao_replacement=False), ("expert1", "greedy", "expert1", "defensive"), 800),
        (RuleSet(lock_after_ready=False, kong_fan=True), ("expert1", "jia_hunter") * 2, 500),
    ],
)
def test_expert_plays_complete_legal_deals(rules, strategies, n):
    names, codes, knobs = encode_strategies(strategies)
    walls, _, seeds = generate_walls(n, seed=77)
    raw = run_walls(walls, seeds, rules, codes, knobs, dealer=1, record_hands=True, record_final=True)
    df = results_frame(raw["out"], 0, 1, names, raw["hands"])
    assert (raw["final"].astype(np.int64).sum(axis=1) == 4).all(), "tiles lost or duplicated"
    pays = df[[f"pay_{s}" for s in range(4)]].to_numpy(np.int64)
    assert (pays.sum(axis=1) == 0).all()
    wins = df[df["winner"] >= 0]
    assert len(wins) > n // 2
    seen = check_wins(raw["out"], raw["hands"], rules, dealer=1)
    assert sum(v for k, v in seen.items() if k.startswith("outcome:")) == len(wins)


def test_registry_and_knob_domains():
    assert strategy_code("expert") == EXPERT == 5
    assert strategy_code("expert1") == EXPERT1
    assert STRATEGIES["expert1"] == {k: knob.default for k, knob in expert.KNOBS.items()}
    # issue 38: the Daqing ``expert`` is the fitted expert2 (the stronger); expert1 keeps the old moves
    assert STRATEGIES["expert"] == STRATEGIES["expert2"] != STRATEGIES["expert1"]
    for k, knob in expert.KNOBS.items():
        assert knob.low <= knob.default <= knob.high and knob.doc
        with pytest.raises(ValueError, match=k):
            encode_strategies([("expert1", {k: knob.high + 1})] + ["greedy"] * 3)
        with pytest.raises(ValueError, match=k):
            encode_strategies([("expert1", {k: float("nan")})] + ["greedy"] * 3)
    _, _, kn = encode_strategies([("expert1", {"deal_in_cost": 5})] + ["greedy"] * 3)
    assert kn[0, expert.K_DEAL_IN_COST] == 5
    assert kn[0, expert.K_WIN_VALUE] == expert.KNOBS["win_value"].default


# ------------------------------------------------------------------ danger against a reference
def _reference_danger(hand, visible, safe_r, pond, flags, n_melds_r):
    """P(tile in the ready seat's waits) for every kind by enumerating the wait shapes."""
    u = np.clip(4 - hand.astype(int) - visible.astype(int), 0, None)
    pre = set()
    for t, f in zip(pond, flags, strict=True):
        pre.add(int(t))
        if f & DECLARED:
            break
    f1 = (13 - 3 * n_melds_r) / max(u.sum(), 1)
    pond_w = W[expert.W_POND]
    out = np.zeros(28)
    for t in range(28):
        if safe_r[t] or (t == ZHONG and u[t] == 0):
            continue
        # (shape weight, combinations, tiles the shape needs, kinds it waits on)
        shapes = [(W[0], u[t], 1, {t}), (W[1], math.comb(int(u[t]), 2), 2, {t})]
        if t != ZHONG:
            base, k = t - t % 9, t % 9
            for a in range(9):
                for b in range(a + 1, 9):
                    x, y = base + a, base + b
                    if b == a + 2 and a + 1 == k:
                        shapes.append((W[2], u[x] * u[y], 2, {t}))
                    if b == a + 1:
                        waits = {base + c for c in (a - 1, b + 1) if 0 <= c <= 8}
                        if t in waits:
                            kind = 3 if len(waits) == 1 else 4  # 12 / 89 edge, else two-sided
                            shapes.append((W[kind], u[x] * u[y], 2, waits))
        S = 0.0
        for w, combos, n_tiles, waits in shapes:
            factor = pond_w if waits & pre else 1.0
            z = W[expert.W_ZHONG] if t == ZHONG else 1.0
            S += w * z * factor * combos * f1**n_tiles
        out[t] = 1 - math.exp(-S)
    return out


def test_danger_matches_a_plain_python_enumeration():
    rng = np.random.default_rng(4)
    feat = np.zeros((28, expert.N_FEATURES))
    p = np.zeros(28)
    n_positive = n_safe = 0
    for _ in range(300):
        tiles = rng.permutation(np.repeat(np.arange(28), 4))
        hand = np.bincount(tiles[:14], minlength=28).astype(np.uint8)
        visible = np.bincount(tiles[14 : 14 + rng.integers(0, 50)], minlength=28).astype(np.uint8)
        safe = np.zeros((4, 28), np.uint8)
        r = int(rng.integers(1, 4))
        safe[r] = rng.random(28) < 0.2
        obs = make_observation(hand, visible=visible, safe=safe, ready=[0, 1, 1, 1])
        n = int(rng.integers(0, 20))
        obs.pond[r, :n] = rng.integers(0, 28, n)
        obs.pond_flag[r, :n] = rng.integers(0, 8, n)
        obs.n_pond[r] = n
        obs.table_nm[r] = rng.integers(0, 4)
        expert.danger_table(obs, r, feat, p)
        pond, flags = obs.pond[r, :n], obs.pond_flag[r, :n]
        ref = _reference_danger(hand, visible, safe[r], pond, flags, obs.table_nm[r])
        got = np.where(p < 0, 0.0, p)
        assert np.allclose(got, ref, rtol=1e-9, atol=1e-12)
        assert ((p < 0) == (safe[r] > 0)).all()
        n_positive += (ref > 0).sum()
        n_safe += safe[r].sum()
    assert n_positive > 3000 and n_safe > 500


def test_own_discards_lower_the_danger():
    hand = np.zeros(28, np.uint8)
    hand[[4, 13, 22]] = 1  # 5m 5p 5s
    obs = make_observation(hand, ready=[0, 1, 0, 0])
    obs.pond[1, :3] = [13, 0, 1]  # 5p thrown before its declaration (flagged on the second)
    obs.pond_flag[1, 1] = DECLARED
    obs.pond[1, 3] = 22  # 5s after it: not an own pre-ready discard
    obs.n_pond[1] = 4
    feat = np.zeros((28, expert.N_FEATURES))
    p = np.zeros(28)
    expert.danger_table(obs, 1, feat, p)
    assert p[13] < 0.2 * p[4] and p[22] == pytest.approx(p[4])


# ------------------------------------------------------------------ decisions
def _discard(text, **kw):
    code, kn, obs = _obs("expert1", text, **kw)
    return seats.discard(code, kn, obs, RuleSet().encode(), get_tables())


def test_expert_plays_greedy_when_nobody_is_ready_and_folds_far_from_ready():
    text = "159m2468p37s中 [345m]"  # far from ready
    code, kn, obs = _obs("greedy", text)
    greedy_t, _ = seats.discard(code, kn, obs, RuleSet().encode(), get_tables())
    assert _discard(text)[0] == greedy_t
    # an opponent is ready and let one 4p pass: the expert throws that tile
    t, declare = _discard(text, ready=(0, 1, 0, 0), safe_for={1: "4p"})
    assert t == 9 + 3 and not declare
    # with no danger reading it plays greedy again
    assert _discard(text, ready=(0, 1, 0, 0), safe_for={1: "4p"}, knobs={"danger_scale": 0})[0] == greedy_t


def test_decisions_facing_a_ready_seat_ignore_hidden_state():
    """As tests/test_hidden_information.py, with seat 1 always ready (the expert's danger path):
    other hands, the wall order and the bao never change its discard or claim."""
    _, codes, knobs = encode_strategies(("expert1",) * 4)
    rules = RuleSet(require_open=False).encode()
    tabs = get_tables()
    rng = np.random.default_rng(12)
    ready = np.array([0, 1, 0, 1], dtype=np.uint8)
    n_differs_by_danger = 0
    for trial in range(120):
        a = _state(rng)
        b = _hide_differently(a, rng)
        a["kong"], b["kong"] = rng.choice(28, size=2, replace=False)
        decisions = []
        for state in (a, b):
            st, obs = _deal_state(state, ready, trial, np.random.default_rng(trial))
            st.pond_flag[1, 2] = DECLARED
            observe(st, obs, 0, trial % 4, len(state["rest"]), -1, -1, False, False)
            seen = {f: getattr(obs, f).copy() for f in Observation._fields}
            d = seats.discard(codes[0], knobs[0], obs, rules, tabs)
            t = int(np.flatnonzero(obs.hand)[trial % 5])
            hand13 = obs.hand.copy()
            hand13[d[0]] -= 1
            st.conc[0] = hand13
            observe(st, obs, 0, trial % 4, len(state["rest"]), -1, -1, False, False)
            opts = (1 << 1) if hand13[t] >= 2 else 0
            decisions.append((d, seats.claim(codes[0], knobs[0], obs, rules, tabs, t, opts)))
            greedy_d = seats.discard(0, knobs[0], _observation_copy(seen), rules, tabs)
            n_differs_by_danger += greedy_d[0] != d[0]
        assert decisions[0] == decisions[1]
    assert n_differs_by_danger > 20  # the danger path was taken (the test can fail)


def _observation_copy(fields):
    return Observation(**{f: v.copy() for f, v in fields.items()})


def test_tactics_knobs_change_declarations_as_documented():
    # declare_min_outs: a declaration needs that many live outs, so a high bar delays ready
    base = ds.simulate(300, strategies=("expert1",) * 4, seed=41)
    strict = ds.simulate(300, strategies=("expert1",) * 4, seed=41, knobs=({"declare_min_outs": 6},) * 4)
    outs = [f"ready_outs_{s}" for s in range(4)]
    declared = strict[outs].to_numpy()[strict[[f"ready_turn_{s}" for s in range(4)]].to_numpy() >= 0]
    assert declared.size and declared.min() >= 6
    assert base[outs].to_numpy()[base[[f"ready_turn_{s}" for s in range(4)]].to_numpy() >= 0].min() < 6
    # seen_wait_bonus re-chooses among declaring discards: some deals change, all stay legal
    seen = ds.simulate(300, strategies=("expert1",) * 4, seed=41, knobs=({"seen_wait_bonus": 3.0},) * 4)
    assert (seen[PAY].sum(axis=1) == 0).all()
    assert not seen[PAY].equals(base[PAY])
    # at their defaults the knobs change nothing
    zero = ds.simulate(
        300,
        strategies=("expert1",) * 4,
        seed=41,
        knobs=({"seen_wait_bonus": 0.0, "declare_min_outs": 0},) * 4,
    )
    pd.testing.assert_frame_equal(zero, base)
