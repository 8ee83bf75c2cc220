"""``expert2`` in the two-player game (issue 38): legal games, the hand routes against a plain-Python
reference (random hands and hands in notation), a thirteen orphans route played to the win on a
hand-built wall, no peeking, and the v1 moves when the routes are off."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import reference_beijing as RB
from reference_two_player import ORPHANS, kokushi_shanten
from test_two_player_deals import _play_logged, _wall
from two_player_deal_check import check_game

import daqing_sim as ds
from daqing_sim.codes import CLAIM_PENG
from daqing_sim.families.two_player import expert as tp_expert
from daqing_sim.families.two_player import expert2 as tp2
from daqing_sim.game.events import EV_DRAW
from daqing_sim.game.simulate import run_walls, simulate_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.notation import parse_hand
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.registry import encode_strategies, knob_specs

TWO = ds.RuleSet(family="two_player")
WEIGHTS = Path(__file__).resolve().parents[1] / "daqing_sim" / "players" / "expert2_weights.json"
ROUTES_ON = {"orphans_min": 9, "orphans_slack": 13, "pairs_min": 5, "suit_min": 10}
NAMES = {tp2.NO_ROUTE: "none", tp2.ORPHANS: "orphans", tp2.PAIRS: "pairs", tp2.ONE_SUIT: "suit"}


# ---------------------------------------------------------------- the plain-Python reference


def ref_route(counts, unseen, orphans_min, orphans_slack, pairs_min, suit_min):
    """The route of a meldless 14-tile hand, by the module docstring's words."""
    held = [t for t in ORPHANS if counts[t] > 0]
    if len(held) >= orphans_min and all(unseen[t] > 0 for t in ORPHANS if counts[t] == 0):
        if kokushi_shanten(counts) <= RB.shanten(counts) + orphans_slack:
            return "orphans", -1
    if sum(1 for c in counts if c >= 2) >= pairs_min:
        return "pairs", -1
    per_suit = [sum(counts[9 * s : 9 * s + 9]) for s in range(3)]
    suit = per_suit.index(max(per_suit))
    if per_suit[suit] + sum(counts[27:34]) >= suit_min:
        return "suit", suit
    return "none", -1


def ref_allowed(counts, route, suit):
    held = [t for t in range(34) if counts[t] > 0]
    orphan_pairs = sum(1 for t in ORPHANS if counts[t] >= 2)
    if route == "orphans":
        ok = [t for t in held if t not in ORPHANS or counts[t] >= 3 or (counts[t] == 2 and orphan_pairs >= 2)]
    elif route == "pairs":
        ok = [t for t in held if counts[t] == 1]
    else:
        ok = [t for t in held if t < 27 and t // 9 != suit]
    return ok or held


def ref_discard(counts, route, suit, unseen):
    """Lowest shanten (four melds and a pair, or seven pairs) after the discard, then the fewest
    unseen copies, then the lowest kind."""

    def key(t):
        c = list(counts)
        c[t] -= 1
        return (RB.shanten(c), unseen[t], t)

    return min(ref_allowed(counts, route, suit), key=key)


def _kernel(counts, unseen, knobs):
    hand = np.array(counts, dtype=np.uint8)
    u = np.array(unseen, dtype=np.int32)
    route, suit = tp2.route_k(hand, 0, get_tables(), u, *knobs)
    if route == tp2.NO_ROUTE:
        return "none", -1, -1
    allowed = np.empty(34, dtype=np.int32)
    tp2.route_allows_k(hand, route, suit, allowed)
    after = np.empty(34, dtype=np.int32)
    return NAMES[route], int(suit), int(tp2.route_discard_k(hand, 0, get_tables(), u, allowed, after))


def _random_case(rng):
    """A 14-tile hand leaning to a route (orphans, pairs or one suit) and the unseen counts."""
    kind = rng.integers(4)
    if kind == 0:
        pool = np.r_[np.repeat(ORPHANS, 4), rng.choice(np.arange(34), 12)]
    elif kind == 1:
        pool = np.repeat(rng.choice(34, 9, replace=False), 2)
    elif kind == 2:
        s = rng.integers(3)
        pool = np.r_[
            np.repeat(np.arange(9 * s, 9 * s + 9), 4), np.repeat(np.arange(27, 34), 2), rng.choice(27, 6)
        ]
    else:
        pool = np.repeat(np.arange(34), 4)
    tiles = rng.choice(pool, 14, replace=False)
    counts = np.bincount(tiles, minlength=34)
    if counts.max() > 4:
        return None
    unseen = [int(rng.integers(0, 5 - c)) for c in counts]
    return counts.tolist(), unseen


def test_routes_match_the_reference_on_random_hands():
    rng = np.random.default_rng(38)
    seen = set()
    n = 0
    while n < 250:
        case = _random_case(rng)
        if case is None:
            continue
        counts, unseen = case
        knobs = (
            int(rng.integers(7, 14)),
            int(rng.integers(0, 4)),
            int(rng.integers(4, 8)),
            int(rng.integers(8, 15)),
        )
        route, suit = ref_route(counts, unseen, *knobs)
        got = _kernel(counts, unseen, knobs)
        assert got[:2] == (route, suit), (counts, unseen, knobs)
        if route != "none":
            assert got[2] == ref_discard(counts, route, suit, unseen), (counts, unseen, knobs, route)
        seen.add(route)
        n += 1
    assert seen == {"none", "orphans", "pairs", "suit"}


@pytest.mark.parametrize(
    ("hand", "knobs", "route", "throws"),
    [
        # ten orphan kinds: the route throws a simple, never an orphan
        ("19m19p19s东南西北2m5p6s8s", (9, 13, 8, 15), "orphans", {"2m", "5p", "6s", "8s"}),
        # one short of the knob: no route (the expert's discard)
        ("19m19p19s东南西北2m5p6s8s", (11, 13, 8, 15), "none", None),
        # twelve kinds and a pair: the simple goes; the orphans stay
        ("19m19p19s东南西北白发1m5p", (9, 13, 8, 15), "orphans", {"5p"}),
        # three orphan pairs and no simple: one of a pair's tiles goes
        ("1199m19p19s东南西北白白", (9, 13, 8, 15), "orphans", {"1m", "9m", "白"}),
        # seven orphan pairs (complete as seven pairs): thirteen orphans is 5 behind, so slack 0
        # keeps the hand off the route and slack 6 puts it on
        ("1199m1199p1199s东东", (7, 0, 8, 15), "none", None),
        ("1199m1199p1199s东东", (7, 6, 8, 15), "orphans", {"1m", "9m", "1p", "9p", "1s", "9s", "东"}),
        # five pairs: a single goes
        ("1122m3344p56s东东发中", (14, 13, 5, 15), "pairs", {"5s", "6s", "发", "中"}),
        # ten characters and honours: a tile of another suit goes
        ("1234567m东东中3p5s6s9s", (14, 13, 8, 10), "suit", {"3p", "5s", "6s", "9s"}),
        # ... at suit_min 11 it is not on the route
        ("1234567m东东中3p5s6s9s", (14, 13, 8, 11), "none", None),
    ],
)
def test_routes_on_hands_in_notation(hand, knobs, route, throws):
    counts = parse_hand(hand, family="two_player").counts.tolist()
    unseen = [4 - c for c in counts]
    got_route, suit, d = _kernel(counts, unseen, knobs)
    assert got_route == route
    if throws is not None:
        names = {parse_hand(x, family="two_player", require_full=False).order[0] for x in throws}
        assert d in names
        assert d == ref_discard(counts, route, suit, unseen)


def test_a_dead_orphans_route_is_left():
    """Every copy of a missing orphan kind seen: thirteen orphans cannot complete."""
    counts = parse_hand("19m19p19s东南西北2m5p6s8s", family="two_player").counts.tolist()
    unseen = [4 - c for c in counts]
    unseen[parse_hand("中", family="two_player", require_full=False).order[0]] = 0
    assert _kernel(counts, unseen, (9, 13, 8, 15))[0] == "none"


# ---------------------------------------------------------------- whole games


def test_thirteen_orphans_route_is_played_to_the_win():
    """Ten orphan kinds dealt, 白 发 中 and a pair drawn between simples: the route keeps the
    orphans and wins thirteen orphans; expert1 (no route) on the same wall does not."""
    draws = [
        parse_hand(x, family="two_player", require_full=False).order[0]
        for x in "2p 白 3p 发 4p 中 7p 1m".split()
    ]
    wall = _wall("19m19p19s东南西北2m5p6s8s", "3m5m7m2p4p6p8p1s3s5s7s9s9p", draws=draws)
    v2 = simulate_walls(wall, [1], rules=TWO, strategies=(("expert2", {"orphans_min": 10}), "expert1"))
    v2 = v2.iloc[0]
    assert v2.winner == 0 and v2.fan_kokushi == 13
    v1 = simulate_walls(wall, [1], rules=TWO, strategies=("expert1", "expert1")).iloc[0]
    assert v1.fan_kokushi == 0


def test_expert2_games_follow_the_rules_move_by_move():
    seen: set[str] = set()
    games = _play_logged(120, 61, (("expert2", ROUTES_ON), "expert2"))
    for k, (wall, log, row, final) in enumerate(games):
        seen |= check_game(wall, log, row, final, dealer=k % 2)
    assert {"declared", "self_draw", "deal_in"} <= seen


def test_expert2_in_simulate_and_tournament():
    df = ds.simulate(3000, rules=TWO, strategies=(("expert2", {"orphans_min": 8}), "expert1"), seed=5)
    assert (df.pay_0 + df.pay_1).abs().max() == 0
    wins = df[df.winner == 0]
    assert (wins.fan_kokushi > 0).sum() > 0  # the route completes in play
    off = ds.simulate(3000, rules=TWO, strategies=(("expert2", {"orphans_min": 14}), "expert1"), seed=5)
    assert (off[off.winner == 0].fan_kokushi > 0).sum() == 0
    t = ds.tournament(["expert2", "expert1"], n_walls=50, seed=5, rules=TWO).set_index("entrant")
    assert t.loc["expert2", "n_seat_deals"] == 100 and t.loc["expert1", "n_seat_deals"] == 100
    assert t.loc["expert2", "mean_pay"] == pytest.approx(-t.loc["expert1", "mean_pay"])


def _events(wall, seed, strategies):
    _, codes, knobs = encode_strategies(strategies, None, "two_player")
    raw = run_walls(wall[None], np.array([seed], dtype=np.uint64), TWO, codes, knobs, record_log=True)
    return [tuple(int(x) for x in e) for e in raw["log"]]


def _stop_at_draw(events, j):
    """The first event that shows a reshuffled tile: front draw number j, or a draw from the back."""
    front = 0
    for i, e in enumerate(events):
        if e[0] == EV_DRAW:
            if e[3] == 1 or front == j:
                return i
            front += 1
    return len(events)


def test_the_wall_beyond_the_next_draw_does_not_change_a_decision():
    """No peeking: walls differing only in tiles not yet drawn (the rest of the 71, the extra
    draws) give the same moves until a reshuffled tile is drawn."""
    walls, _, seeds = generate_walls(60, seed=9, family="two_player")
    rng = np.random.default_rng(5)
    strategies = (("expert2", ROUTES_ON), "expert2")
    n_compared = n_diverged = 0
    for wall, seed in zip(walls, seeds, strict=True):
        j = int(rng.integers(2, 30))
        other = wall.copy()
        tail = np.r_[27 + j : 74]
        other[tail] = rng.permutation(wall[tail])
        ea, eb = _events(wall, seed, strategies), _events(other, seed, strategies)
        stop_a, stop_b = _stop_at_draw(ea, j), _stop_at_draw(eb, j)
        assert stop_a == stop_b and ea[:stop_a] == eb[:stop_b]
        n_compared += stop_a
        n_diverged += ea != eb
    assert n_compared > 500 and n_diverged > 10  # the reshuffles mattered later on


def test_with_v1_knobs_and_no_route_expert2_plays_expert1():
    v1 = {k: knob.default for k, knob in tp_expert.KNOBS.items()}
    a = ds.simulate(1000, rules=TWO, strategies=("expert1", "expert1"), seed=12)
    off = {**v1, **tp2.ROUTE_OFF, "claim_kong_shanten": 13}
    b = ds.simulate(1000, rules=TWO, strategies=(("expert2", off), "expert1"), seed=12)
    cols = [c for c in a.columns if not c.startswith("strategy_")]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    c = ds.simulate(1000, rules=TWO, strategies=(("expert2", {**off, "orphans_min": 8}), "expert1"), seed=12)
    assert not c[cols].equals(a[cols])


def test_a_concealed_hand_passes_kongs_on_discards_by_the_knob():
    """At claim_kong_shanten -1 (and v1's claim_shanten -1) expert2 never opens its hand: every
    game ends concealed (a concealed kong keeps it so); at 13 it takes kongs on discards as v1."""
    never = ds.simulate(
        3000, rules=TWO, strategies=(("expert2", {"claim_kong_shanten": -1}), "expert1"), seed=6
    )
    assert never.concealed_0.all()
    v1_like = ds.simulate(
        3000, rules=TWO, strategies=(("expert2", {"claim_kong_shanten": 13}), "expert1"), seed=6
    )
    assert not v1_like.concealed_0.all()
    assert not never.concealed_1.all()  # expert1 across the table does take them


def test_shipped_two_player_weights_are_the_defaults():
    w = json.loads(WEIGHTS.read_text(encoding="utf-8"))["two_player"]
    assert {"knobs", "fitted_by", "seed", "commit", "positions", "routes"} <= set(w)
    assert w["positions"] > 0 and "tools/fit_expert2.py" in w["fitted_by"]
    specs = knob_specs("expert2", "two_player")
    for name, value in {**w["knobs"], **w["routes"]["knobs"]}.items():
        assert specs[name].default == pytest.approx(value)
    assert specs["orphans_min"].default < tp2.ROUTE_OFF["orphans_min"]  # the route ships on


def test_two_player_expert2_knob_errors():
    with pytest.raises(ValueError, match="orphans_min"):
        ds.simulate(2, rules=TWO, strategies=(("expert2", {"nope": 1}), "expert1"))
    with pytest.raises(ValueError, match="orphans_min=15 is not allowed"):
        ds.simulate(2, rules=TWO, strategies=(("expert2", {"orphans_min": 15}), "expert1"))


def _tp_state(hand0, ponds, declared, hidden_rng, pool):
    """A two-player state: seat 0's 14 tiles, both ponds, seat 1 declared or not (with the tiles
    it let pass), and seat 1's 13 concealed tiles drawn from ``pool`` by ``hidden_rng``."""
    from daqing_sim.game.state import new_deal_state

    st, obs = new_deal_state("two_player")
    st.conc[0] = hand0
    np.add.at(st.conc[1], hidden_rng.permutation(pool)[:13], 1)
    for s, pond in enumerate(ponds):
        st.pond[s, : len(pond)] = pond
        st.n_pond[s] = len(pond)
        np.add.at(st.visible, pond, 1)
    if declared:
        st.ready[1] = 1
        st.safe[1, ponds[0][-3:]] = 1
    return st, obs


def test_decisions_ignore_the_opponents_tiles_and_the_tiles_out_of_play():
    """Seat 0's expert2 discard (routes on, so every route is exercised) and claim are the same
    for states that differ only in the opponent's concealed tiles (and so in which tiles are
    still in the wall or out of play)."""
    from daqing_sim.game.state import observe
    from daqing_sim.players.registry import PLAYER_NAMES
    from daqing_sim.players.seats import builtin_functions

    fns = builtin_functions(PLAYER_NAMES.index("expert2"), "two_player")
    rules, tabs = TWO.encode(), get_tables()
    rng = np.random.default_rng(21)
    routes = set()
    for trial in range(150):
        case = None
        while case is None:
            case = _random_case(rng)
        counts, _ = case
        rest = np.repeat(np.arange(34), 4 - np.array(counts))
        rest = rng.permutation(rest)
        ponds = [rest[:6], rest[6:12]]
        pool = rest[12:]
        knobs = {
            "orphans_min": int(rng.integers(7, 12)),
            "pairs_min": int(rng.integers(4, 7)),
            "suit_min": 10,
            "orphans_slack": 13,
        }
        kn = encode_strategies((("expert2", knobs), "expert1"), None, "two_player")[2][0]
        decisions = []
        for hidden in (trial, 10_000 + trial):
            st, obs = _tp_state(
                np.array(counts, np.uint8), ponds, trial % 2 == 1, np.random.default_rng(hidden), pool
            )
            observe(st, obs, 0, 0, 30, -1, -1, False, False)
            d, decl = fns[0](kn, obs, rules, tabs)
            t = int(ponds[1][-1])
            hand13 = obs.hand.copy()
            hand13[d] -= 1
            st.conc[0] = hand13
            observe(st, obs, 0, 0, 30, -1, -1, False, False)
            opts = (1 << CLAIM_PENG) if hand13[t] >= 2 else 0
            c = fns[1](kn, obs, rules, tabs, t, opts) if opts else -2
            decisions.append((int(d), bool(decl), int(c)))
        assert decisions[0] == decisions[1], (counts, knobs)
        unseen = [4 - counts[k] - int((ponds[0] == k).sum() + (ponds[1] == k).sum()) for k in range(34)]
        routes.add(ref_route(counts, unseen, knobs["orphans_min"], 13, knobs["pairs_min"], 10)[0])
    assert routes == {"none", "orphans", "pairs", "suit"}
