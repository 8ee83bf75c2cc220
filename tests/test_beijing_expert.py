"""The Beijing ``expert``: its route math against plain-Python references, its reading of the
table (passed tiles, ready features, wait shapes) in hand notation, its knobs, and complete
legal deals (payments sum to zero, every move checked by the Beijing reference)."""

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
from daqing_sim.game.frame_beijing import beijing_frame
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.players import beijing, beijing_danger, beijing_expert, beijing_value
from daqing_sim.players.observation import CLAIMED, DRAWN_AND_THROWN
from daqing_sim.players.registry import EXPERT, encode_strategies, knob_specs

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


# ---------------------------------------------------------------- plain-Python references
def ref_pairs_distance(counts):
    """Tiles missing for seven pairs (four of a kind = two pairs), by dynamic programming over
    the kinds: each kind gives 0, 1 or 2 pairs at the cost of the copies it lacks."""
    best = {0: 0}
    for c in counts:
        nxt = {}
        for p, cost in best.items():
            for k in range(3):
                q = min(p + k, 7)
                v = cost + max(0, 2 * k - int(c))
                if v < nxt.get(q, 99):
                    nxt[q] = v
        best = nxt
    return best[7]


def ref_pairs_ukeire(counts13, unseen):
    d = ref_pairs_distance(counts13)
    total = 0
    for x in range(34):
        if unseen[x] > 0 and counts13[x] < 4:
            c = list(counts13)
            c[x] += 1
            if ref_pairs_distance(c) < d:
                total += unseen[x]
    return total


_SUIT_MELDS = [("seq", i) for i in range(7)] + [("trip", i) for i in range(9)]


def ref_suit_distance(counts, s, melds):
    """Tiles missing for ``melds`` melds and a pair made of suit ``s`` only (at most four of a
    kind), from the hand's tiles of that suit: the least over every such target of the copies
    it lacks."""
    have = [int(counts[9 * s + i]) for i in range(9)]
    best = 99
    for combo in itertools.combinations_with_replacement(_SUIT_MELDS, melds):
        need = [0] * 9
        for kind, i in combo:
            if kind == "seq":
                for j in (i, i + 1, i + 2):
                    need[j] += 1
            else:
                need[i] += 3
        if max(need) > 4:
            continue
        for pr in range(9):
            need[pr] += 2
            if need[pr] <= 4:
                best = min(best, sum(max(0, n - h) for n, h in zip(need, have, strict=True)))
            need[pr] -= 2
    return best


def test_pairs_shanten_and_ukeire_match_a_plain_reference():
    n_checked = 0
    for h in _random_hands(400, 13, seed=1) + [_counts("1122334455667z"), _counts("1111223344556m")]:
        p, s = beijing_value.pairs_count(h)
        assert beijing_value.pairs_shanten(p, s) == ref_pairs_distance(h) - 1
        unseen = (4 - h).astype(np.int32)
        assert beijing_value.pairs_ukeire(h, unseen) == ref_pairs_ukeire(h, unseen)
        n_checked += 1
    assert n_checked == 402


@pytest.mark.parametrize("suit", [0, 1, 2])
def test_suit_shanten_and_ukeire_match_a_plain_reference(suit):
    rs = np.zeros(34, dtype=np.uint8)
    one = np.eye(34, dtype=np.uint8)
    for nm in (0, 1, 2):
        melds = 4 - nm
        for h in _random_hands(25, 13 - 3 * nm, seed=10 * suit + nm, suit_bias=suit):
            sh = beijing_value.suit_shanten(h, suit, melds, TABS, rs)
            assert sh == ref_suit_distance(h, suit, melds) - 1
            unseen = (4 - h).astype(np.int32)
            uk = beijing_value.suit_ukeire(h, suit, melds, TABS, unseen, sh, rs)
            x = [9 * suit + i for i in range(9)]
            assert uk == sum(
                int(unseen[y]) for y in x if h[y] < 4 and ref_suit_distance(h + one[y], suit, melds) - 1 < sh
            )
            assert rs.sum() == 0  # the scratch is left clean


def test_suit_route_in_hand_notation():
    rs = np.zeros(34, dtype=np.uint8)
    nine_gates = _counts("1112345678999m1z")  # 13 manzu and an honor: one suit ready without 东
    assert beijing_value.suit_shanten(nine_gates, 0, 4, TABS, rs) == 0
    mixed = _counts("1234567m123p123s")
    assert beijing_value.suit_shanten(mixed, 0, 4, TABS, rs) == ref_suit_distance(mixed, 0, 4) - 1 == 6
    no = np.zeros(4, np.int8)
    assert beijing_value.open_routes(nine_gates, no, no, 0, 0, 9) == (False, 0)
    assert beijing_value.open_routes(mixed, no, no, 0, 0, 9) == (False, -1)  # 7 manzu: too few
    assert beijing_value.open_routes(_counts("1122m3344p5566s7z"), no, no, 0, 4, 0) == (True, -1)
    # melds in two suits close the one-suit route; an honor meld too
    mk = np.array([PENG, CHI, 0, 0], np.int8)
    assert beijing_value.melds_suit(mk, np.array([0, 9, 0, 0], np.int8), 2) == -1
    assert beijing_value.melds_suit(mk, np.array([0, 3, 0, 0], np.int8), 2) == 0
    assert beijing_value.melds_suit(mk, np.array([28, 3, 0, 0], np.int8), 2) == -1


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
    assert set(knob_specs("expert", "beijing")) == set(beijing_expert.KNOBS)
    assert "expert" in beijing.PLAYERS
    for k, knob in beijing_expert.KNOBS.items():
        assert knob.low <= knob.default <= knob.high and knob.doc
        with pytest.raises(ValueError, match=k):
            encode_strategies([("expert", {k: knob.high + 1})] + ["greedy"] * 3, family="beijing")
    with pytest.raises(ValueError, match="unknown knob"):
        ds.simulate(4, rules=BEIJING, strategies=[("expert", {"outs_power": 1.0})] + ["greedy"] * 3)
    _, codes, kn = encode_strategies([("expert", {"win_value": 3.0})] + ["greedy"] * 3, family="beijing")
    assert codes[0] == EXPERT and kn[0, beijing_expert.K_WIN_VALUE] == 3.0


def test_discard_table_explains_the_choice():
    rules = BEIJING.encode()
    _, _, kn = encode_strategies(["expert"] * 4, family="beijing")
    out = np.zeros((34, beijing_expert.N_V))
    rng = np.random.default_rng(3)
    n = 0
    for h in _random_hands(60, 14, seed=4):
        st, obs = new_deal_state("beijing")
        st.conc[0] = h
        for s in (1, 2, 3):  # opponents with discards and melds: some of them look ready
            k = int(rng.integers(3, 10))
            st.pond[s, :k] = rng.integers(0, 34, k)
            st.n_pond[s] = k
            st.nm[s] = int(rng.integers(0, 4))
        st.n_pond[0] = int(st.n_pond[1:].min())
        observe(st, obs, 0, 0, 50, -1, -1, False, False)
        t = beijing_expert.discard_table(kn[0], obs, rules, TABS, out)
        held = np.flatnonzero(h)
        assert h[t] > 0 and np.isnan(out[np.setdiff1d(np.arange(34), held)]).all()
        assert out[t, beijing_expert.V_EV] == np.nanmax(out[held, beijing_expert.V_EV])
        assert (
            (out[held, beijing_expert.V_P_DEAL_IN] >= 0) & (out[held, beijing_expert.V_P_DEAL_IN] <= 1)
        ).all()
        assert (obs.hand == h).all()  # the hand is restored
        n += 1
    assert n == 60


@pytest.mark.parametrize(
    "field",
    [
        ("expert",) * 4,
        ("expert", "greedy", "expert", "random"),
        (("expert", {"pairs_value": 1.0, "suit_value": 1.0}),) * 4,
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
