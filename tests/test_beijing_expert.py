"""The Beijing ``expert``: its P(win) model, its reading of the table (passed tiles, ready
features, wait shapes, 互包) in hand notation, its branch and bound against a plain loop, its
knobs, and complete legal deals (payments sum to zero, every move checked by the Beijing
reference)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from beijing_deal_check import check_deal
from reference_beijing import parse

import daqing_sim as ds
from daqing_sim.codes import CHI, PENG
from daqing_sim.families.beijing import danger as beijing_danger
from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.families.beijing import players as beijing
from daqing_sim.families.beijing import value as beijing_value
from daqing_sim.families.beijing.frame import beijing_frame
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.observation import CLAIMED, DRAWN_AND_THROWN
from daqing_sim.players.registry import PLAYER_NAMES, encode_strategies, knob_specs

BEIJING = ds.RuleSet(family="beijing")
PAY = [f"pay_{s}" for s in range(4)]
TABS = get_tables()


def _counts(text):
    counts, _ = parse(text)
    return np.array(counts, dtype=np.uint8)


def _random_hands(n, n_tiles, seed, suit_bias=None):
    rng = np.random.default_rng(seed)
    tiles = np.repeat(np.arange(34), 4)
    out = []
    for _ in range(n):
        if suit_bias is None:
            pick = rng.choice(136, n_tiles, replace=False)
        else:  # most tiles from one suit
            k = int(rng.integers(n_tiles - 5, n_tiles + 1))
            own = rng.choice(np.flatnonzero(tiles // 9 == suit_bias), k, replace=False)
            rest = rng.choice(np.flatnonzero(tiles // 9 != suit_bias), n_tiles - k, replace=False)
            pick = np.r_[own, rest]
        h = np.zeros(34, dtype=np.uint8)
        np.add.at(h, tiles[pick], 1)
        out.append(h)
    return out


def test_win_probability_is_the_logistic_of_its_features():
    f = np.zeros(beijing_value.N_WF)
    w = beijing_value.WIN_W
    for sh, uk, draws, is_open in itertools.product(
        range(-0, 6), (0, 3, 20, 60), (0.5, 3.0, 9.0), (False, True)
    ):
        beijing_value.win_features(sh, uk, draws, is_open, f)
        p = beijing_value.win_probability(sh, uk, draws, is_open, w)
        assert p == pytest.approx(1 / (1 + math.exp(-f @ w)))
    assert beijing_value.win_probability(2, 30, 0.0, False, w) == 0.0  # no draw left, not ready
    # closer to ready is likelier to win, more ukeire too, at any stage of the deal
    for draws in (1.0, 4.0, 8.0):
        ps = [beijing_value.win_probability(sh, 12, draws, False, w) for sh in range(5)]
        assert ps == sorted(ps, reverse=True)
        assert beijing_value.win_probability(1, 20, draws, False, w) > beijing_value.win_probability(
            1, 4, draws, False, w
        )


# ---------------------------------------------------------------- reading the table
def _table(ponds, melds=None, dealer=0, hand="123456789m1234p", seat=0):
    """A Beijing deal state whose ponds are ``ponds[s]``: lists of (tile, drawn_and_thrown,
    claimer or -1); ``melds[s]``: list of (kind, low tile, from seat)."""
    st, obs = new_deal_state("beijing")
    for s in range(4):
        for i, (t, tg, cl) in enumerate(ponds[s]):
            st.pond[s, i] = t
            st.pond_flag[s, i] = (DRAWN_AND_THROWN if tg else 0) | (CLAIMED if cl >= 0 else 0)
            st.pond_claimer[s, i] = cl
            st.visible[t] += 1
        st.n_pond[s] = len(ponds[s])
    for s, ms in (melds or {}).items():
        for j, (kind, low, src) in enumerate(ms):
            st.mk[s, j], st.mt[s, j], st.meld_from[s, j] = kind, low, src
        st.nm[s] = len(ms)
    st.conc[seat] = _counts(hand)
    observe(st, obs, seat, dealer, 60, -1, -1, False, False)
    return st, obs


def _kind(name):
    return int(np.flatnonzero(_counts(name))[0])


def test_passed_tiles_are_those_since_the_seats_hand_last_changed():
    m = _kind
    # order: 0 1 2 3 0 1 2 3 0 1; a flagged discard is the tile just drawn (the hand unchanged)
    ponds = [
        [(m("1z"), 0, -1), (m("9m"), 0, -1), (m("4p"), 0, -1)],
        [(m("2z"), 0, -1), (m("8m"), 1, -1), (m("5s"), 0, -1)],
        [(m("3z"), 0, -1), (m("7m"), 0, -1)],
        [(m("4z"), 0, -1), (m("6m"), 1, -1)],
    ]
    st, obs = _table(ponds)
    safe = np.zeros((4, 34), np.uint8)
    pmask = np.zeros((4, 34), np.uint8)
    tf = np.zeros((4, beijing_danger.N_TF))
    assert beijing_danger.read_table(obs, safe, pmask, tf) == 10
    # seat 1 changed its hand at 5s, the last discard: nothing passed it since
    assert not safe[1].any()
    # seat 2's last discard 7m was from its hand: 6m, 4p, 5s passed it
    assert set(np.flatnonzero(safe[2])) == {m("6m"), m("4p"), m("5s")}
    # seat 3's last discard 6m was the tile drawn: its hand is as after 4z, so 9m 8m 5s 7m 6m
    # 4p passed it (its own 6m included: had it won on 6m it would have)
    assert set(np.flatnonzero(safe[3])) == {m("9m"), m("8m"), m("5s"), m("7m"), m("6m"), m("4p")}
    # tsumogiri run of seat 3 is 1, seat 1's 0; own ponds are masked
    assert tf[3, beijing_danger.T_TSUMO1] == 1 and tf[1, beijing_danger.T_TSUMO1] == 0
    assert pmask[2, m("7m")] == 1 and pmask[2, m("6m")] == 0


def test_a_claim_moves_the_turn_to_the_claimer():
    m = _kind
    # seat 0 throws 3m, seat 2 pengs it and throws 9p: seat 3 is next (seat 1 skipped)
    ponds = [
        [(m("3m"), 0, 2)],
        [],
        [(m("9p"), 0, -1)],
        [(m("1s"), 0, -1)],
    ]
    st, obs = _table(ponds, melds={2: [(PENG, m("3m"), 0)]})
    safe = np.zeros((4, 34), np.uint8)
    pmask = np.zeros((4, 34), np.uint8)
    tf = np.zeros((4, beijing_danger.N_TF))
    assert beijing_danger.read_table(obs, safe, pmask, tf) == 3
    assert beijing_danger.last_discarder(obs) == 3
    # seat 1 has not discarded: every discard passed its dealt hand
    assert set(np.flatnonzero(safe[1])) == {m("3m"), m("9p"), m("1s")}
    # seat 2 changed its hand by the claim: only 1s since
    assert set(np.flatnonzero(safe[2])) == {m("1s")}
    assert tf[2, beijing_danger.T_CLAIM_CHANGE] == 1 and tf[2, beijing_danger.T_NM1] == 1


def test_ready_probability_grows_with_melds_and_discards():
    w = beijing_danger.TENPAI_W
    rows = []
    for nm in range(5):
        row = np.zeros(beijing_danger.N_TF)
        row[beijing_danger.T_BIAS] = 1
        if nm:
            row[beijing_danger.T_NM1 + nm - 1] = 1
        row[beijing_danger.T_DISCARDS] = 0.6
        row[beijing_danger.T_LOG_DISCARDS] = math.log1p(6)
        rows.append(beijing_danger.tenpai_probability(row, w))
    assert rows == sorted(rows) and rows[4] > 0.9  # four melds: a single wait, nearly always ready


def test_wait_features_in_hand_notation():
    """Against a seat holding 10 concealed tiles, with 3 unseen copies of every kind: 5m can be
    a single, a dual pair, 46m kanchan, 67m (and 34m) two-sided; a passed 8m rules out 67m."""
    u = np.full(34, 3, dtype=np.int32)
    pond = np.zeros(34, np.uint8)
    safe = np.zeros(34, np.uint8)
    out = np.zeros(beijing_danger.N_DF)
    f1 = 0.2
    beijing_danger.wait_features(_kind("5m"), u, pond, safe, f1, f1 * f1, out)
    F = beijing_danger
    assert out[F.F_SINGLE] == pytest.approx(3 * f1)
    assert out[F.F_DUAL] == pytest.approx(3 * f1 * f1)
    assert out[F.F_KANCHAN] == pytest.approx(9 * f1 * f1)
    assert out[F.F_EDGE] == 0
    assert out[F.F_TWO_SIDED] == pytest.approx(2 * 9 * f1 * f1)
    safe[_kind("8m")] = 1
    beijing_danger.wait_features(_kind("5m"), u, pond, safe, f1, f1 * f1, out)
    assert out[F.F_TWO_SIDED] == pytest.approx(9 * f1 * f1)
    # 3m: edge 12m waits on 3m only; two-sided 45m waits on 3m and 6m (the seat's own discard)
    pond[_kind("6m")] = 1
    beijing_danger.wait_features(_kind("3m"), u, pond, np.zeros(34, np.uint8), f1, f1 * f1, out)
    assert out[F.F_EDGE] == pytest.approx(9 * f1 * f1)
    assert out[F.N_SHAPES + F.F_TWO_SIDED] == pytest.approx(9 * f1 * f1)  # touches its own 6m
    # an honor: single and dual pair only
    beijing_danger.wait_features(
        _kind("白"), u, np.zeros(34, np.uint8), np.zeros(34, np.uint8), f1, f1 * f1, out
    )
    assert out[F.F_HONOR] == pytest.approx(3 * f1) and out[F.F_HONOR + 1] == pytest.approx(3 * f1 * f1)
    assert out[: 2 * F.N_SHAPES].sum() == 0
    # no danger for a passed tile, nor for an honor with no unseen copy
    feat = np.zeros(F.N_DF)
    s2 = np.zeros(34, np.uint8)
    s2[_kind("5m")] = 1
    assert F.wait_probability(_kind("5m"), u, pond, s2, 10.0, 60.0, feat, F.DANGER_W) == 0.0
    u0 = u.copy()
    u0[_kind("白")] = 0
    assert F.wait_probability(_kind("白"), u0, pond, s2, 10.0, 60.0, feat, F.DANGER_W) == 0.0


def test_binding_reading():
    m = _kind
    # seat 1 claimed three melds from seat 2: bound; a deal-in to seat 1 costs seat 0 nothing
    melds = {1: [(PENG, m("1z"), 2), (CHI, m("1m"), 2), (PENG, m("5p"), 2)]}
    st, obs = _table([[], [], [], []], melds=melds)
    assert beijing_danger.bound_to_other(obs, 1, 0)
    assert not beijing_danger.bound_to_other(obs, 1, 2)  # seat 2 is the partner
    assert not beijing_danger.bound_to_other(obs, 3, 0)
    assert beijing_danger.open_hand(obs, 1) and not beijing_danger.open_hand(obs, 3)


# ---------------------------------------------------------------- the player
def test_knobs_registry_and_errors():
    assert set(knob_specs("expert1", "beijing")) == set(beijing_expert.KNOBS)
    assert "expert" in beijing.PLAYERS and "expert1" in beijing.PLAYERS
    assert set(knob_specs("expert", "beijing")) == set(knob_specs("expert2", "beijing"))  # session 18
    for k, knob in beijing_expert.KNOBS.items():
        assert knob.low <= knob.default <= knob.high and knob.doc
        with pytest.raises(ValueError, match=k):
            encode_strategies([("expert1", {k: knob.high + 1})] + ["greedy"] * 3, family="beijing")
    with pytest.raises(ValueError, match="unknown knob"):
        ds.simulate(4, rules=BEIJING, strategies=[("expert1", {"outs_power": 1.0})] + ["greedy"] * 3)
    _, codes, kn = encode_strategies([("expert1", {"win_value": 3.0})] + ["greedy"] * 3, family="beijing")
    assert codes[0] == PLAYER_NAMES.index("expert1") and kn[0, beijing_expert.K_WIN_VALUE] == 3.0


def ref_wait_features(t, u, pond, safe, f1, f2):
    """The wait features by enumeration: every unseen copy is a distinct tile; count the single
    copies and the pairs of copies forming each shape waiting on ``t`` (a pair of the same kind
    for the dual pair), split by whether a tile the shape waits on is in the seat's pond."""
    F = beijing_danger
    out = np.zeros(F.N_DF)
    copies = [(x, c) for x in range(34) for c in range(int(u[x]))]
    honor = t >= 27
    single = (F.F_HONOR + 2 * pond[t]) if honor else (F.F_SINGLE + F.N_SHAPES * pond[t])
    dual = (F.F_HONOR + 1 + 2 * pond[t]) if honor else (F.F_DUAL + F.N_SHAPES * pond[t])
    for x, _ in copies:
        if x == t:
            out[single] += f1
    for (x, _), (y, _) in itertools.combinations(copies, 2):
        a, b = sorted((x, y))
        if a == b == t:
            out[dual] += f2
            continue
        if honor or a >= 27 or b >= 27 or a // 9 != t // 9 or b // 9 != a // 9:
            continue
        waits = None
        if b == a + 2 and a + 1 == t:
            shape, waits = F.F_KANCHAN, (t,)
        elif b == a + 1:
            lo_w, hi_w = a - 1, b + 1
            ends = [w for w in (lo_w, hi_w) if 0 <= w < 27 and w // 9 == a // 9]
            if t not in ends:
                continue
            if len(ends) == 1:
                shape, waits = F.F_EDGE, (t,)
            else:
                other = hi_w if t == lo_w else lo_w
                if safe[other]:
                    continue  # the other winning tile passed the seat: no such wait
                shape, waits = F.F_TWO_SIDED, (t, other)
        if waits is None:
            continue
        out[shape + (F.N_SHAPES if any(pond[w] for w in waits) else 0)] += f2
    return out


def test_wait_features_match_an_enumeration_of_shapes():
    rng = np.random.default_rng(8)
    out = np.zeros(beijing_danger.N_DF)
    for _ in range(150):
        u = rng.integers(0, 4, 34).astype(np.int32)
        pond = (rng.random(34) < 0.2).astype(np.uint8)
        safe = (rng.random(34) < 0.2).astype(np.uint8)
        t = int(rng.integers(0, 34))
        safe[t] = 0
        f1 = float(rng.uniform(0.05, 0.3))
        beijing_danger.wait_features(t, u, pond, safe, f1, f1 * f1, out)
        assert out == pytest.approx(ref_wait_features(t, u, pond, safe, f1, f1 * f1))


def _random_table(rng, h):
    st, obs = new_deal_state("beijing")
    st.conc[0] = h
    for s in (1, 2, 3):  # opponents with discards and melds: some of them look ready
        k = int(rng.integers(3, 12))
        st.pond[s, :k] = rng.integers(0, 34, k)
        st.pond_flag[s, :k] = rng.integers(0, 2, k) * DRAWN_AND_THROWN
        st.n_pond[s] = k
        st.nm[s] = int(rng.integers(0, 4))
        for j in range(st.nm[s]):
            st.mk[s, j], st.mt[s, j], st.meld_from[s, j] = PENG, int(rng.integers(0, 34)), (s + 1) % 4
    k0 = int(st.n_pond[1:].min())
    st.pond[0, :k0] = rng.integers(0, 34, k0)
    st.n_pond[0] = k0
    np.add.at(st.visible, st.pond[:, :12].ravel(), 1)
    observe(st, obs, 0, 0, int(rng.integers(20, 70)), -1, -1, False, False)
    return st, obs


def test_discard_matches_a_plain_expected_value_loop():
    """The branch and bound gives the plain loop's choice: every kind's EV from the module
    docstring's formula, computed here in Python from the kernels' parts (P(ready), the wait
    probability, the ukeire), the best with ties to the lowest kind."""
    rules = BEIJING.encode()
    E, D, V = beijing_expert, beijing_danger, beijing_value
    rng = np.random.default_rng(3)
    out = np.zeros((34, E.N_V))
    n_ev = 0
    for knobs in ({}, {"danger_scale": 3.0, "rise_factor": 1.0}, {"win_value": 0.5}):
        _, _, kn = encode_strategies([("expert1", knobs)] + ["greedy"] * 3, family="beijing")
        kn = kn[0]
        for h in _random_hands(60, 14, seed=int(rng.integers(1 << 30))):
            st, obs = _random_table(rng, h)
            t = E.discard_table(kn, obs, rules, TABS, out)
            safe, pmask, tf = np.zeros((4, 34), np.uint8), np.zeros((4, 34), np.uint8), np.zeros((4, D.N_TF))
            D.read_table(obs, safe, pmask, tf)
            pt = [0.0] + [1 / (1 + math.exp(-tf[r] @ D.TENPAI_W)) for r in (1, 2, 3)]
            unseen = np.zeros(34, np.int32)
            n_unseen = float(D.unseen_34(obs, unseen))
            after = np.zeros(34, np.int32)
            from daqing_sim.hand.kinds34 import bj_shanten_changes_k, bj_ukeire_k

            bj_shanten_changes_k(obs.hand, 0, TABS, -1, after)
            lo = min(after[x] for x in np.flatnonzero(h))
            v_me = E.FANS_CONCEALED
            draws = max(obs.info[2] - 14, 0) / 4.0
            evs = {}
            feat = np.zeros(D.N_DF)
            for x in np.flatnonzero(h):
                sp, cost = 1.0, 0.0
                for r in (1, 2, 3):
                    loss = (
                        0.0
                        if D.bound_to_other(obs, r, 0)
                        else (0.5 * E.FANS_OPEN if D.open_hand(obs, r) else E.FANS_CONCEALED)
                    )
                    q = D.wait_probability(
                        x, unseen, pmask[r], safe[r], 13.0 - 3 * obs.table_nm[r], n_unseen, feat, D.DANGER_W
                    )
                    p = min(kn[E.K_DANGER_SCALE] * pt[r] * q, 1.0)
                    cost += sp * p * loss
                    sp *= 1 - p
                hh = h.copy()
                hh[x] -= 1
                uk = bj_ukeire_k(hh, 0, TABS, unseen, after[x])
                f = np.zeros(V.N_WF)
                V.win_features(int(after[x]), uk, draws, False, f)
                pw = 1 / (1 + math.exp(-f @ V.WIN_W)) * kn[E.K_RISE_FACTOR] ** (after[x] - lo)
                evs[int(x)] = sp * pw * kn[E.K_WIN_VALUE] * v_me - kn[E.K_DEAL_IN_COST] * cost
                assert out[x, E.V_P_DEAL_IN] == pytest.approx(1 - sp) and out[x, E.V_COST] == pytest.approx(
                    cost
                )
            best = max(evs.values())
            assert t == min(x for x, v in evs.items() if v >= best - 1e-12), (evs, t)
            assert out[t, E.V_EV] == pytest.approx(best)
            assert (obs.hand == h).all()  # the hand is restored
            n_ev += 1
    assert n_ev == 180


@pytest.mark.parametrize(
    "field",
    [
        ("expert",) * 4,
        ("expert", "greedy", "expert", "random"),
        (("expert", {"min_tenpai": 0.0, "danger_scale": 3.0}),) * 4,
    ],
)
def test_expert_deals_follow_the_rules_move_by_move(field):
    n = 60
    walls, _, seeds = generate_walls(n, seed=2027, family="beijing")
    names, codes, knobs = encode_strategies(field, None, "beijing")
    seen: Counter = Counter()
    for i in range(n):
        raw = run_walls(
            walls[i][None], seeds[i : i + 1], BEIJING, codes, knobs, record_final=True, record_log=True
        )
        row = beijing_frame(raw["out"], 0, 0, names).iloc[0]
        seen += check_deal(walls[i], raw["log"], row, raw["final"][0])
    assert seen["deal_in"] + seen["self_draw"] + seen["robbed_added_kong"] + seen["exhaustive"] == n
    assert seen["claim"] > 0


def test_expert_plays_a_few_hundred_deals_payments_sum_to_zero():
    df = ds.simulate(400, rules=BEIJING, strategies=("expert",) * 4, seed=31)
    assert (df[PAY].sum(axis=1) == 0).all()
    assert (df.winner >= 0).mean() > 0.6
    assert set(df.strategy_0) == {"expert"}
    df2 = ds.simulate(400, rules=BEIJING, strategies=("expert",) * 4, seed=31)
    assert df.equals(df2)  # deterministic
