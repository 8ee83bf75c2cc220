"""Measuring the search with the luck taken out (issue 36): the evaluator's worlds of the real
position (:meth:`Evaluator.evaluate_actual`, every hidden tile where it is, only the live wall's
order drawn again), the search's ``confirm`` knob, and tools/search_advantage.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_search import _paused, _rules, paused_decisions

from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.game.engine import C_BACK, C_FRONT, O_PAY
from daqing_sim.layout import N_CTL
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer, choose

ROOT = Path(__file__).resolve().parents[1]


def _winning_discard(deal):
    """A legal discard of seat 0 that an opponent's real hand wins on (the reference's wait set
    of its concealed tiles and melds), or None."""
    import reference_beijing as R
    from test_expert2_beijing_routes import ref_melds_of

    st = deal.st
    legal = {d.tile for d in deal.observation().legal_discards}
    for s in (1, 2, 3):
        melds = ref_melds_of(st.mk[s], st.mt[s], st.nm[s])
        waits = set(R.wait_set([int(x) for x in st.conc[s][:34]], melds)) & legal
        if waits:
            return min(waits)
    return None


def test_actual_worlds_keep_the_others_hands():
    """Known answer: a discard that an opponent's real hand wins on ends the deal at once (the
    engine takes every win, RULES_BEIJING.md), so in every world of ``evaluate_actual`` it pays
    what the real deal pays when the seat throws it; the sampled worlds of ``evaluate`` deal the
    others' hands again and do not (in some of the positions)."""
    ev = Evaluator(_rules("beijing"), "expert", "beijing")
    checked = differs = 0
    for i, deal in enumerate(paused_decisions(71, 200, "expert", "beijing")):
        if deal.decision != "discard" or checked >= 5:
            continue
        t = _winning_discard(deal)
        if t is None:
            continue
        r = ev.evaluate_actual(deal, [(t, False)], 6, seed=i)
        sampled = ev.evaluate(deal, [(t, False)], 12, seed=i)
        deal.resume(t)
        assert deal.done
        paid = int(deal.orow[O_PAY + 0])
        assert paid <= 0 and (r.pays[:, 0] == paid).all()
        differs += not (sampled.pays[:, 0] == paid).all()
        checked += 1
    assert checked == 5 and differs >= 1, (checked, differs)


@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_reshuffle_moves_only_the_live_wall(n):
    """The kernel against its definition: positions front..back hold the same multiset (in a new
    order when there are two or more), every other position is untouched."""
    from daqing_sim.game.state import new_deal_state
    from daqing_sim.search.evaluator import reshuffle_live_wall

    wall = np.random.default_rng(n).integers(0, 34, 60).astype(np.int8)
    ctl = np.zeros(N_CTL, dtype=np.int64)
    ctl[C_FRONT], ctl[C_BACK] = 10, 10 + n - 1
    _, obs = new_deal_state("beijing")
    u = np.zeros(34, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    orders = set()
    for k in range(200):
        state[0] = np.uint64(k * 7919 + 1)
        w = wall.copy()
        reshuffle_live_wall(wall, ctl, state, u, w, obs)
        live = range(10, 10 + n)
        np.testing.assert_array_equal(np.delete(w, live), np.delete(wall, live))
        assert sorted(w[live]) == sorted(wall[live])
        orders.add(tuple(w[live]))
    assert len(orders) == 1 if n == 1 or len(set(wall[10 : 10 + n])) == 1 else len(orders) > 1


def test_reshuffle_orders_are_uniform():
    """Each of the six orders of three distinct live tiles comes up about equally often
    (chi-square over 6,000 draws)."""
    from scipy import stats

    from daqing_sim.game.state import new_deal_state
    from daqing_sim.search.evaluator import reshuffle_live_wall

    wall = np.array([5, 1, 2, 3, 9], dtype=np.int8)
    ctl = np.zeros(N_CTL, dtype=np.int64)
    ctl[C_FRONT], ctl[C_BACK] = 1, 3
    _, obs = new_deal_state("beijing")
    u = np.zeros(34, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    counts = {}
    for k in range(6000):
        state[0] = np.uint64(k * 7919 + 1)
        w = wall.copy()
        reshuffle_live_wall(wall, ctl, state, u, w, obs)
        counts[tuple(w[1:4])] = counts.get(tuple(w[1:4]), 0) + 1
    assert len(counts) == 6
    assert stats.chisquare(list(counts.values())).pvalue > 1e-4


def test_actual_worlds_draw_the_live_wall_again():
    """Far from the end the real position has many futures: the worlds differ, the same seed
    gives the same numbers, and the paused deal is left as it was."""
    deal = _paused(lambda d: d.ctl[C_BACK] - d.ctl[C_FRONT] > 40, family="beijing")
    kept = [a.copy() for a in (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo)]
    ev = Evaluator(_rules("beijing"), "expert", "beijing")
    cands = list(deal.observation().legal_discards)[:2]
    a = ev.evaluate_actual(deal, cands, 32, seed=5)
    np.testing.assert_array_equal(a.pays, ev.evaluate_actual(deal, cands, 32, seed=5).pays)
    assert len(np.unique(a.pays[:, 0])) > 1
    for x, y in zip(kept, (*deal.st, deal.wall, deal.ctl, deal.orow, deal.obs.memo), strict=True):
        np.testing.assert_array_equal(x, y)


def test_the_search_player_never_reads_the_real_position(monkeypatch):
    """``evaluate_actual`` knows the hidden tiles: the search player (``confirm`` included) must
    decide without it."""

    def refuse(*args, **kwargs):
        raise AssertionError("a player read the real position")

    monkeypatch.setattr(Evaluator, "evaluate_actual", refuse)
    import daqing_sim as ds

    seats = (("search", {"worlds": 4, "min_t": 0, "confirm": 4, "claims": 1}), "expert", "expert", "expert")
    df = ds.simulate(2, rules=ds.RuleSet(family="beijing"), strategies=seats, seed=3)
    assert len(df) == 2


def test_confirm_takes_a_switch_only_if_fresh_worlds_agree():
    """``confirm`` n: the candidate the first worlds pick replaces the expert's only when
    :func:`choose` picks it again on n fresh worlds of the decision's own seed (both branches met)."""
    from daqing_sim.game.engine import C_N_DRAWS, C_SEAT

    ev = Evaluator(_rules("beijing"), "expert", "beijing")
    seen = set()
    for deal in paused_decisions(5, 40, "expert", "beijing"):
        if deal.decision != "discard" or deal.ctl[C_BACK] - deal.ctl[C_FRONT] < 20 or len(seen) == 2:
            continue
        expert = SearchPlayer(candidates=1).decide_paused(deal, DECISION_DISCARD, None)
        first = SearchPlayer(worlds=8, min_t=0, candidates=3).decide_paused(deal, DECISION_DISCARD, None)
        if first == expert:
            continue
        key = [0, 0, int(deal.ctl[C_SEAT]), int(deal.ctl[C_N_DRAWS]), DECISION_DISCARD]
        fresh = ev.evaluate(deal, [expert, first], 16, np.random.SeedSequence([*key, 1]))
        want = first if choose(fresh.pays, 0.0) == 1 else expert
        p = SearchPlayer(worlds=8, min_t=0, candidates=3, confirm=16)
        assert p.decide_paused(deal, DECISION_DISCARD, None) == want
        assert p.confirmations == 1 and p.switches == (want != expert)
        seen.add(want == first)
    assert seen == {True, False}, seen


def test_choose_on_fresh_worlds_decides_the_confirmation():
    """The rule itself: a switch whose fresh paired gain is not clear is dropped."""
    rng = np.random.default_rng(0)
    clear = np.column_stack([rng.normal(0, 1, 64), rng.normal(5, 1, 64)])
    noise = np.column_stack([rng.normal(0, 1, 64), rng.normal(0, 1, 64)])
    assert choose(clear, 2.0) == 1 and choose(noise, 2.0) == 0


def test_search_advantage_tool_runs_and_explains(tmp_path):
    """tools/search_advantage.py on a few two-player walls: both estimates printed, per-wall rows
    saved, and a player that never leaves the expert's answer has an advantage sum of 0."""
    out = tmp_path / "walls.csv"
    cmd = [sys.executable, str(ROOT / "tools" / "search_advantage.py"), "two_player", "6", "1", "50901"]
    r = subprocess.run(
        [*cmd, "{'candidates': 1}", "--rollouts", "8", "--save", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert "departures=0" in r.stdout and "advantage sum +0.000" in r.stdout
    import pandas as pd

    rows = pd.read_csv(out)
    assert list(rows.columns) == ["seed", "wall", "plain", "advantage"] and len(rows) == 6
    assert (rows["advantage"] == 0).all() and (rows["plain"] == 0).all()
