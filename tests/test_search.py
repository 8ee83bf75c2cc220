"""The decision evaluator by simulation and the ``search`` player (daqing_sim.search)."""

from __future__ import annotations

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.codes import DECISION_CLAIM, DECISION_DISCARD, EXTERNAL, PASS
from daqing_sim.game.engine import C_BACK, C_BAO, C_FRONT, C_SEAT
from daqing_sim.game.external import SteppedDeal, seat_rngs
from daqing_sim.game.wall import generate_walls
from daqing_sim.players.registry import encode_strategies
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer, check_knobs, choose

RULES = ds.RuleSet().encode()


def _rules(family):
    return ds.RuleSet(family=family).encode()


def _paused(condition, seed=5, n_walls=300, field="expert", family="daqing", decision="discard"):
    """A deal paused at a ``decision`` of seat 0 (an outside seat answered by the expert, through
    a one-candidate search player; ``field`` at the others) where ``condition(deal)`` holds."""
    _, codes, knobs = encode_strategies((field,) * 4, None, family)
    codes = codes.copy()
    codes[0] = EXTERNAL
    deal = SteppedDeal(_rules(family), codes, knobs, 0)
    walls, _, seeds = generate_walls(n_walls, seed, 0, family=family)
    expert_like = SearchPlayer(candidates=1)
    players = [expert_like, None, None, None]
    for i in range(n_walls):
        deal.start(walls[i], seeds[i])
        while deal.paused:
            if deal.decision == decision and condition(deal):
                return deal
            deal.play_out_one(players, seat_rngs(int(seeds[i]), players), i)
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


@pytest.mark.parametrize("family", ["daqing", "beijing"])
def test_search_plays_in_simulate_reproducibly(family):
    seats = (("search", {"worlds": 3}), "expert", "expert", "expert")
    rules = ds.RuleSet(family=family)
    a = ds.simulate(2, rules=rules, strategies=seats, seed=11)
    b = ds.simulate(2, rules=rules, strategies=seats, seed=11)
    assert a.equals(b)
    assert int(a[[f"pay_{s}" for s in range(4)]].to_numpy().sum()) == 0


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


def test_other_families_are_refused_in_one_line():
    with pytest.raises(ValueError, match="not 'two_player'") as e:
        Evaluator(ds.RuleSet(family="two_player").encode(), "expert", "two_player")
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
