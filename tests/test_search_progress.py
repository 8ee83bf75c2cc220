"""The search's ``opponents="progress"`` worlds (:mod:`daqing_sim.search.progress`): hands built
to a target shanten from the unseen multiset, the shipped tables, no peeking (every family),
one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_beijing as R
from reference import ref_standard_shanten
from test_search import _mid_deal, _paused, _rules, _shuffle_hidden, _shuffle_hidden_tp

from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.game.engine import C_BACK, C_FRONT
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer, check_knobs
from daqing_sim.search.progress import (
    N_MELD_ROWS,
    N_POND_BUCKETS,
    N_SHANTEN,
    PROGRESS,
    UNIFORM_FROM,
    draw_target,
    progress_hand,
    progress_table,
)


def _unseen(rng, nk, n_seen):
    """A multiset of unseen tiles: four of each kind less ``n_seen`` random ones."""
    u = np.full(nk, 4, dtype=np.int64)
    for t in rng.choice(np.repeat(np.arange(nk), 4), size=n_seen, replace=False):
        u[t] -= 1
    return u


@pytest.mark.parametrize(("nk", "n_tiles"), [(28, 13), (28, 10), (34, 13), (34, 7)])
def test_built_hands_come_from_the_multiset_and_are_within_the_target(nk, n_tiles):
    """300 random cases: the hand's tiles leave the multiset, and its shanten by the reference
    (by definition, not the engine's kernel) is at most the target; each target is met exactly
    in some case (the hands are not all readier than asked)."""
    rng = np.random.default_rng(nk * 100 + n_tiles)
    seed = np.zeros(1, dtype=np.uint64)
    exact = set()
    for i in range(300):
        seed[0] = np.uint64(1000 + i)
        u = _unseen(rng, nk, int(rng.integers(10, 60)))
        before = u.copy()
        target = int(rng.integers(0, UNIFORM_FROM))
        v, c, out = (np.zeros(nk, dtype=np.int64) for _ in range(3))
        hand = np.zeros(nk, dtype=np.uint8)
        if not progress_hand(u, n_tiles, target, seed, v, c, hand):
            np.testing.assert_array_equal(u, before)  # untouched when it gives up
            continue
        assert int(hand.sum()) == n_tiles
        np.testing.assert_array_equal(u + hand, before)
        counts = [int(x) for x in hand]
        if nk == 34 and n_tiles != 13:
            continue  # the Beijing reference takes a 13-tile hand (melds would fill the rest)
        sh = ref_standard_shanten(counts) if nk == 28 else R.shanten(counts)
        assert sh <= target, (counts, target)
        if sh == target:
            exact.add(target)
    if nk == 28 or n_tiles == 13:
        assert exact == set(range(UNIFORM_FROM))


def test_a_target_of_three_or_more_deals_uniform_tiles():
    u = np.full(34, 4, dtype=np.int64)
    v, c = np.zeros(34, dtype=np.int64), np.zeros(34, dtype=np.int64)
    hand = np.zeros(34, dtype=np.uint8)
    assert not progress_hand(u, 13, UNIFORM_FROM, np.ones(1, dtype=np.uint64), v, c, hand)
    assert (u == 4).all()


@pytest.mark.parametrize("family", ["daqing", "beijing", "two_player"])
def test_shipped_tables_say_how_they_were_made(family):
    entry = json.loads(PROGRESS.read_text(encoding="utf-8"))[family]
    assert "tools/opponent_progress.py" in entry["measured_by"] and entry["positions"] > 10_000
    assert np.asarray(entry["counts"]).shape == (N_POND_BUCKETS, N_MELD_ROWS, N_SHANTEN)
    table = progress_table(family)
    assert (np.diff(table, axis=-1) >= 0).all() and np.allclose(table[..., -1], 1.0)
    none = progress_table(family, 0.0)  # share 0: every opponent uniform
    assert np.allclose(none[..., :UNIFORM_FROM], 0.0)


def test_targets_follow_the_table():
    """Draws of :func:`draw_target` land in each column as often as the table says."""
    table = progress_table("beijing", 1.0)
    rng = np.ones(1, dtype=np.uint64)
    got = np.bincount([draw_target(table, 9, 0, rng) for _ in range(20_000)], minlength=N_SHANTEN)
    want = np.diff(table[3, 0], prepend=0.0)
    np.testing.assert_allclose(got / 20_000, want, atol=0.02)


def _tp_undeclared(deal):
    return not deal.st.ready[1] and deal.ctl[C_BACK] - deal.ctl[C_FRONT] > 20 and deal.st.n_pond[1] > 4


@pytest.mark.parametrize("family", ["daqing", "beijing", "two_player"])
def test_progress_worlds_do_not_peek_and_differ_from_uniform(family):
    two = family == "two_player"
    deal = _paused(_tp_undeclared if two else _mid_deal, family=family)
    ev = Evaluator(_rules(family), "expert", family, "progress")
    cands = list(deal.observation().legal_discards[:2])
    first = ev.evaluate(deal, cands, 12, seed=7)
    player = SearchPlayer(worlds=12, min_t=0, opponents="progress")
    picked = player.decide_paused(deal, DECISION_DISCARD, None)
    uniform = Evaluator(_rules(family), "expert", family).evaluate(deal, cands, 12, seed=7)
    assert not np.array_equal(uniform.pays, first.pays)
    (_shuffle_hidden_tp if two else _shuffle_hidden)(deal, np.random.default_rng(3))
    np.testing.assert_array_equal(ev.evaluate(deal, cands, 12, seed=7).pays, first.pays)
    assert player.decide_paused(deal, DECISION_DISCARD, None) == picked


def test_bad_opponents_are_one_line_errors():
    with pytest.raises(ValueError, match="use 'uniform' or 'progress'") as e:
        Evaluator(_rules("daqing"), "expert", "daqing", "clever")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="opponents='x' is not allowed for strategy 'search'"):
        check_knobs({"opponents": "x"})
    with pytest.raises(ValueError, match="no opponent progress table for family 'riichi'"):
        progress_table("riichi")
