"""The decision evaluator by simulation and the ``search`` player (daqing_sim.search)."""

from __future__ import annotations

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.codes import CLAIM_WIN, CONCEALED_KONG, DECISION_CLAIM, DECISION_DISCARD, EXTERNAL, PASS
from daqing_sim.game.engine import C_BACK, C_BAO, C_FRONT, C_OPTS, C_SEAT, O_PAY
from daqing_sim.game.external import SteppedDeal, seat_rngs
from daqing_sim.game.state import new_deal_state
from daqing_sim.game.wall import TP_EXTRA_START, TP_FLOWER_START, TP_WIDTH, generate_walls
from daqing_sim.players.registry import encode_strategies
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer, check_knobs, choose

RULES = ds.RuleSet().encode()


def _rules(family):
    return ds.RuleSet(family=family).encode()


def paused_decisions(seed, n_walls, field="expert", family="daqing"):
    """The deal at each decision of seat 0 in turn, over ``n_walls`` walls of ``seed`` (an outside
    seat answered by the expert, through a one-candidate search player; ``field`` at the others).
    One deal object, moved on when the next is asked for: copy what is to be kept."""
    n_seats = 2 if family == "two_player" else 4
    _, codes, knobs = encode_strategies((field,) * n_seats, None, family)
    codes = codes.copy()
    codes[0] = EXTERNAL
    deal = SteppedDeal(_rules(family), codes, knobs, 0)
    walls, _, seeds = generate_walls(n_walls, seed, 0, family=family)
    expert_like = SearchPlayer(candidates=1)
    players = [expert_like, *[None] * (n_seats - 1)]
    for i in range(n_walls):
        deal.start(walls[i], seeds[i])
        while deal.paused:
            yield deal
            deal.play_out_one(players, seat_rngs(int(seeds[i]), players), i)


def _paused(condition, seed=5, n_walls=300, field="expert", family="daqing", decision="discard"):
    """A deal paused at a ``decision`` of seat 0 (:func:`paused_decisions`) where
    ``condition(deal)`` holds."""
    for deal in paused_decisions(seed, n_walls, field, family):
        if deal.decision == decision and condition(deal):
            return deal
    raise AssertionError("no such position in the walls tried")


def _opponent_ready(deal):
    return deal.st.ready[0] == 0 and deal.st.ready[1:].any() and deal.ctl[C_BACK] - deal.ctl[C_FRONT] > 20


def _shuffle_hidden(deal, rng):
    """Move the tiles seat 0 cannot see: swap each opponent's concealed tiles with live-wall tiles
    (hand sizes kept), shuffle the live wall, and swap the unseen bao with a live tile."""
    st, wall = deal.st, deal.wall
    front, back = int(deal.ctl[C_FRONT]), int(deal.ctl[C_BACK])
    live = wall[front : back + 1].astype(np.int64).tolist()
    for s in (1, 2, 3):
        held = np.repeat(np.arange(st.conc.shape[1]), st.conc[s]).tolist()
        pool = held + live
        rng.shuffle(pool)
        new, live = pool[: len(held)], pool[len(held) :]
        st.conc[s] = np.bincount(new, minlength=st.conc.shape[1])
    rng.shuffle(live)
    if not st.ready[0] and deal.ctl[C_BAO] >= 0:
        bao = int(deal.ctl[C_BAO])
        deal.ctl[C_BAO], live[0] = live[0], bao
    wall[front : back + 1] = live


def _mid_deal(deal):
    return deal.ctl[C_BACK] - deal.ctl[C_FRONT] > 30 and deal.st.own_draws[0] > 3


@pytest.mark.parametrize("family", ["daqing", "beijing"])
def test_no_peeking_at_hidden_tiles(family):
    """Other hands, the wall's order and the unseen bao change neither the evaluator's numbers
    nor the search player's decision, for the same sampling seed (Daqing: with a ready
    opponent, whose hand is constructed)."""
    deal = _paused(_opponent_ready if family == "daqing" else _mid_deal, family=family)
    ev = Evaluator(_rules(family), "expert", family)
    cands = list(deal.observation().legal_discards[:3])
    kept = [a.copy() for a in (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo)]
    first = ev.evaluate(deal, cands, 12, seed=7)
    for a, b in zip(kept, (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo), strict=True):
        np.testing.assert_array_equal(a, b)  # the paused deal is only read
    player = SearchPlayer(worlds=12, min_t=0)
    picked = player.decide_paused(deal, DECISION_DISCARD, None)
    assert first.fallbacks == 0
    before = (deal.st.conc.copy(), deal.wall.copy(), int(deal.ctl[C_BAO]))
    _shuffle_hidden(deal, np.random.default_rng(1))
    assert not (np.array_equal(before[0], deal.st.conc) and np.array_equal(before[1], deal.wall))
    again = ev.evaluate(deal, cands, 12, seed=7)
    np.testing.assert_array_equal(first.pays, again.pays)
    assert player.decide_paused(deal, DECISION_DISCARD, None) == picked
    # and the numbers do depend on the sampling seed (the test above could not pass vacuously)
    assert not np.array_equal(ev.evaluate(deal, cands, 12, seed=8).pays, first.pays)


def test_common_random_numbers_and_intervals():
    """The same candidate twice gets the same payment in every world (common random numbers),
    a zero paired difference; the intervals hold the means."""
    deal = _paused(lambda d: d.ctl[C_BACK] - d.ctl[C_FRONT] > 30)
    ev = Evaluator(RULES, "greedy")
    c = deal.observation().legal_discards[0]
    r = ev.evaluate(deal, [c, c], 16, seed=3)
    np.testing.assert_array_equal(r.pays[:, 0], r.pays[:, 1])
    assert r.diff[1] == r.diff_lo[1] == r.diff_hi[1] == 0
    assert (r.lo <= r.mean).all() and (r.mean <= r.hi).all()
    assert (r.pays.sum(axis=0) != 0).any() or r.lo[0] == r.hi[0]


def test_last_tiles_pay_nothing():
    """Known answer: the seat's discard after the last live tile ends the deal (RULES: the last
    four tiles are claimed by nobody, 荒庄 pays nothing), so every candidate pays exactly 0."""
    deal = _paused(lambda d: d.ctl[C_FRONT] > d.ctl[C_BACK], field="random")
    r = Evaluator(RULES, "expert").evaluate(deal, list(deal.observation().legal_discards), 8, seed=1)
    assert (r.pays == 0).all() and (r.lo == 0).all() and (r.hi == 0).all()


@pytest.mark.parametrize("family", ["daqing", "beijing", "two_player"])
def test_search_plays_in_simulate_reproducibly(family):
    seats = (("search", {"worlds": 3}), "expert", "expert", "expert")[: 2 if family == "two_player" else 4]
    rules = ds.RuleSet(family=family)
    a = ds.simulate(2, rules=rules, strategies=seats, seed=11)
    b = ds.simulate(2, rules=rules, strategies=seats, seed=11)
    assert a.equals(b)
    assert int(a[[f"pay_{s}" for s in range(len(seats))]].to_numpy().sum()) == 0


def test_choose_keeps_the_expert_unless_clearly_better():
    pays = np.array([[0.0, 1.0, 4.0], [0.0, 1.0, -2.0], [0.0, 1.0, 4.0], [0.0, 1.0, -2.0]])
    assert choose(pays, 1.0) == 1  # candidate 1 gains 1 in every world; 2 gains 1 +- 3
    assert choose(pays, 0.0) == 1
    assert choose(pays[:, [0, 2]], 1.0) == 0
    assert choose(-pays, 0.0) == 0


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"wrolds": 3}, "unknown knob(s) wrolds for strategy 'search'"),
        ({"worlds": 0}, "worlds=0 is not allowed"),
        ({"field": "search"}, "field='search' is not allowed"),
        ({"when": "sometimes"}, "when='sometimes' is not allowed"),
    ],
)
def test_bad_knobs_are_one_line_errors(knobs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        check_knobs(knobs)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="for strategy 'search'|is not allowed"):
        ds.simulate(1, strategies=(("search", knobs), "expert", "expert", "expert"))


def test_unknown_families_and_fields_are_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown rule family 'riichi'") as e:
        Evaluator(RULES, "expert", "riichi")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="2 of them") as e:
        Evaluator(_rules("two_player"), ("expert",) * 4, "two_player")
    assert "\n" not in str(e.value)


def test_seat_is_the_paused_one():
    deal = _paused(lambda d: True)
    assert int(deal.ctl[C_SEAT]) == 0


def test_search_is_an_entrant_of_duplicate_tournaments():
    t = ds.tournament([("search", {"worlds": 2}), "expert", "expert", "expert"], n_walls=1, seed=3)
    assert t["entrant"].tolist() == ["search(worlds=2)", "expert"]
    assert t["n_seat_deals"].tolist() == [4, 12]


def test_claims_are_evaluated_and_searched_without_peeking():
    """A claim decision: passing and claiming are played out on the same worlds; moving the
    hidden tiles changes nothing; ``claims=1`` searches it (``claims=0``: the expert's answer)."""
    deal = _paused(_mid_deal, decision="claim")
    options = [PASS, *(c.action for c in deal.observation().claim_options())]
    ev = Evaluator(RULES, "expert")
    first = ev.evaluate(deal, [(a, False) for a in options], 12, seed=5)
    assert first.pays.shape == (12, len(options))
    assert not np.array_equal(first.pays[:, 0], first.pays[:, 1])  # claiming changes the deal
    searching = SearchPlayer(worlds=12, min_t=0, claims=1)
    picked = searching.decide_paused(deal, DECISION_CLAIM, None)
    assert picked[0] in options and searching.decisions == 1
    assert SearchPlayer(claims=0).decide_paused(deal, DECISION_CLAIM, None)[0] in options
    _shuffle_hidden(deal, np.random.default_rng(2))
    np.testing.assert_array_equal(
        ev.evaluate(deal, [(a, False) for a in options], 12, seed=5).pays, first.pays
    )
    assert searching.decide_paused(deal, DECISION_CLAIM, None) == picked


# ---- two-player (its wall is 78 of the 136 tiles: the tiles never in play are hidden too)


def _tp_opponent_declared(deal):
    return deal.st.ready[1] and not deal.st.ready[0] and deal.ctl[C_BACK] - deal.ctl[C_FRONT] > 8


def _shuffle_hidden_tp(deal, rng):
    """Move the tiles two-player seat 0 cannot see: the opponent's concealed tiles, the live
    wall and the unused tiles after it (the extra draws, the flower places not turned up)."""
    st, wall = deal.st, deal.wall
    front, back = int(deal.ctl[C_FRONT]), int(deal.ctl[C_BACK])
    n_flowers = int(ds.RuleSet(family="two_player").flower_tiles)
    places = [
        *range(front, back + 1),
        *range(TP_EXTRA_START, TP_FLOWER_START),
        *range(TP_FLOWER_START + n_flowers, TP_WIDTH),
    ]
    held = np.repeat(np.arange(st.conc.shape[1]), st.conc[1]).tolist()
    pool = held + wall[places].astype(np.int64).tolist()
    rng.shuffle(pool)
    st.conc[1] = np.bincount(pool[: len(held)], minlength=st.conc.shape[1])
    wall[places] = pool[len(held) :]


def test_two_player_no_peeking_with_a_declared_opponent():
    """The opponent's concealed tiles (a declared 报听 hand, constructed to wait in every world),
    the wall's order and the tiles out of play change neither the numbers nor the decision."""
    deal = _paused(_tp_opponent_declared, family="two_player", n_walls=400)
    ev = Evaluator(_rules("two_player"), "expert", "two_player")
    cands = list(deal.observation().legal_discards[:3])
    kept = [a.copy() for a in (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo)]
    first = ev.evaluate(deal, cands, 12, seed=7)
    for a, b in zip(kept, (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo), strict=True):
        np.testing.assert_array_equal(a, b)  # the paused game is only read
    assert first.fallbacks == 0
    player = SearchPlayer(worlds=12, min_t=0, candidates=3)
    picked = player.decide_paused(deal, DECISION_DISCARD, None)
    before = (deal.st.conc.copy(), deal.wall.copy())
    _shuffle_hidden_tp(deal, np.random.default_rng(1))
    assert not (np.array_equal(before[0], deal.st.conc) and np.array_equal(before[1], deal.wall))
    again = ev.evaluate(deal, cands, 12, seed=7)
    np.testing.assert_array_equal(first.pays, again.pays)
    assert player.decide_paused(deal, DECISION_DISCARD, None) == picked
    assert not np.array_equal(ev.evaluate(deal, cands, 12, seed=8).pays, first.pays)


def test_two_player_worlds_deal_the_unseen_multiset():
    """A world holds exactly the tiles the seat cannot see where they were hidden: the opponent's
    tiles and the live wall are a sub-multiset of 136 less what seat 0 sees, in every world,
    and a declared opponent's world hand waits on no tile it let pass."""
    from daqing_sim.families.two_player.hand import tp_wait_set_k
    from daqing_sim.families.two_player.world import sample_world_tp
    from daqing_sim.hand.tables import get_tables

    deal = _paused(_tp_opponent_declared, family="two_player", n_walls=400)
    st, front, back = deal.st, int(deal.ctl[C_FRONT]), int(deal.ctl[C_BACK])
    seen = st.conc[0].astype(np.int64) + st.visible
    for j in range(int(st.nm[0])):
        if st.mk[0, j] == CONCEALED_KONG:
            seen[st.mt[0, j]] += 4
    st_w, obs_w = new_deal_state("two_player")
    nk = st.conc.shape[1]
    u, v, c = (np.zeros(nk, dtype=np.int64) for _ in range(3))
    waits = np.zeros(nk, dtype=np.int8)
    for w in range(20):
        for a, b in zip(st_w, st, strict=True):
            a[...] = b
        wall_w = deal.wall.copy()
        rng = np.array([w + 1], dtype=np.uint64)
        uniform = np.zeros((0, 5, 4))  # no progress table: an undeclared opponent is uniform
        fb = sample_world_tp(
            deal.wall, st, deal.ctl, 0, deal.rules, get_tables(), rng, u, v, c, wall_w, st_w, obs_w, uniform
        )
        assert fb == 0
        dealt = st_w.conc[1].astype(np.int64) + np.bincount(wall_w[front : back + 1], minlength=nk)
        assert (dealt <= 4 - seen).all()
        assert st_w.conc[1].sum() == st.conc[1].sum()
        assert tp_wait_set_k(st_w.conc[1], st.mk[1], st.mt[1], st.nm[1], get_tables(), waits) > 0
        assert not (st.safe[1][waits >= 0]).any()


def _offered_win(deal):
    return deal.ctl[C_OPTS] >> CLAIM_WIN & 1


def test_two_player_win_or_pass_known_answer():
    """Known answer: taking an offered win (报听) pays the seat the same in every world, what the
    game itself pays when it takes it; passing is played out and differs. Moving the hidden
    tiles changes neither the numbers nor the search player's answer."""
    deal = _paused(_offered_win, family="two_player", n_walls=600, decision="claim")
    ev = Evaluator(_rules("two_player"), "expert", "two_player")
    r = ev.evaluate(deal, [(CLAIM_WIN, False), (PASS, False)], 16, seed=2)
    player = SearchPlayer(worlds=16, min_t=0)
    picked = player.decide_paused(deal, DECISION_CLAIM, None)
    assert picked[0] in (CLAIM_WIN, PASS) and player.decisions == 1
    _shuffle_hidden_tp(deal, np.random.default_rng(3))
    again = ev.evaluate(deal, [(CLAIM_WIN, False), (PASS, False)], 16, seed=2)
    np.testing.assert_array_equal(r.pays, again.pays)
    assert player.decide_paused(deal, DECISION_CLAIM, None) == picked
    deal.resume(CLAIM_WIN)
    assert deal.done
    paid = int(deal.orow[O_PAY + 0])
    assert paid > 0 and (r.pays[:, 0] == paid).all()
    assert r.lo[0] == r.hi[0] == paid
    assert not (r.pays[:, 1] == paid).all()
