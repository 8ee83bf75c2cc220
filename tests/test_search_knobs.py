"""The search player's knobs (issue 36 item 2): when to search, the expert's ranking of the
candidates, one-line errors, and ``search`` in experiment files and on the command line."""

from __future__ import annotations

import numpy as np
import pytest
from test_search import _paused

import daqing_sim as ds
from daqing_sim import cli
from daqing_sim.codes import DECISION_DISCARD, N_KINDS_ALL
from daqing_sim.experiments.config import experiment_from_dict
from daqing_sim.experiments.runner import chunk_task, compute_chunk
from daqing_sim.families.beijing import expert as bx
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.interface import Discard
from daqing_sim.players.registry import encode_strategies
from daqing_sim.search.player import SearchPlayer, check_knobs, expert_ranking
from daqing_sim.search.ranking import EXPERT_EV, GREEDY, UNSCORED, Ranking

D = Discard


def _ranking(basis, scores=(0.0, 0.0), shanten=(1, 1), outs=(20, 16), second=(5, False)):
    return Ranking([D(3, False), D(*second)], list(scores), list(shanten), list(outs), basis)


def test_close_compares_the_best_two_on_the_experts_basis():
    assert _ranking(GREEDY).close(0.25)  # 16 outs of 20: within a quarter
    assert not _ranking(GREEDY).close(0.1)
    assert not _ranking(GREEDY, shanten=(1, 2), outs=(20, 20)).close(1.0)  # a shanten apart: never
    assert _ranking(EXPERT_EV, scores=(1.0, 0.8)).close(0.25)
    assert not _ranking(EXPERT_EV, scores=(1.0, 0.8)).close(0.1)
    assert not _ranking(EXPERT_EV, scores=(-1.0, -1.3)).close(0.25)
    assert _ranking(UNSCORED, outs=(30, 0)).close(0.0)  # the expert chose by danger: searched
    assert _ranking(GREEDY, outs=(30, 0), second=(3, True)).close(0.0)  # 报听 or not: searched
    assert not Ranking([D(3, False)], [0.0], [1], [20], GREEDY).close(1.0)


def test_beijing_candidates_are_ranked_by_the_experts_ev():
    """Where the Beijing expert reads danger, the candidates after its discard follow its EV
    table (``discard_table``), not greedy's shanten and outs."""
    from daqing_sim.search.ranking import _beijing_ev

    for seed in range(5, 12):
        deal = _paused(lambda d: _beijing_ev(d) is not None, family="beijing", seed=seed, n_walls=60)
        r = expert_ranking(deal, deal.observation().legal_discards, _expert_discard(deal))
        assert r.basis == EXPERT_EV
        kn = np.ascontiguousarray(encode_strategies(("expert",) * 4, None, "beijing")[2][0])
        table = np.empty((N_KINDS_ALL, bx.N_V))
        best = bx.discard_table(kn, deal.obs, deal.rules, get_tables(), table)
        assert r.discards[0].tile == best
        computed = [d.tile for d in r.discards[1:] if table[d.tile, bx.V_EV] > -1e299]
        evs = [table[t, bx.V_EV] for t in computed]
        assert evs == sorted(evs, reverse=True)  # the computed EVs in the expert's order
        if len({d.tile for d in r.discards}) > 2:
            return
    raise AssertionError("no Beijing position with three kinds to rank")


def _expert_discard(deal):
    return SearchPlayer(candidates=1).decide_paused(deal, DECISION_DISCARD, None)


def test_when_close_searches_only_close_decisions():
    def searched(**knobs):
        p = SearchPlayer(worlds=2, **knobs)
        ds.simulate(3, strategies=(p, "expert", "expert", "expert"), seed=4)
        return p.decisions

    always, close, tight = searched(), searched(when="close"), searched(when="close", close=0.0)
    assert 0 < tight < close < always


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"close": 2}, "close=2 is not allowed"),
        ({"when": "never"}, "when='never' is not allowed for strategy 'search': use one of always, close"),
        ({"candidates": 9}, "candidates=9 is not allowed"),
        ({"field": "search"}, "field='search' is not allowed"),
    ],
)
def test_bad_knob_values_are_one_line_errors(knobs, message):
    with pytest.raises(ValueError) as e:
        check_knobs(knobs)
    assert message in str(e.value) and "\n" not in str(e.value)


def _experiment(**over):
    data = {"n_deals": 2, "seed": 3, "strategies": ["search", "expert", "expert", "expert"]}
    data.update(over)
    return experiment_from_dict(data, where="search.toml", name="search")


def test_search_in_an_experiment_file_plays_with_its_knobs():
    exp = _experiment(knobs={"search": {"worlds": 2, "when": "close"}})
    frame = compute_chunk(chunk_task(exp, exp.variants[0], 0))
    seats = (("search", {"worlds": 2, "when": "close"}), "expert", "expert", "expert")
    direct = ds.simulate(2, strategies=seats, seed=3)
    cols = [f"pay_{s}" for s in range(4)] + ["outcome", "winner"]
    assert frame[cols].equals(direct[cols])


def test_search_in_other_families_experiments():
    exp = _experiment(strategies=["search", "expert"], rules={"family": "two_player"})
    assert exp.variants[0].strategies == ("search", "expert")
    exp = _experiment(rules={"family": "beijing"}, knobs={"search": {"candidates": 3}})
    assert exp.variants[0].knobs == {"search": {"candidates": 3}}


@pytest.mark.parametrize(
    ("over", "needle"),
    [
        ({"knobs": {"search": {"worlds": 0}}}, "worlds=0 is not allowed"),
        ({"knobs": {"search": {"wrolds": 3}}}, "unknown knob(s) wrolds for strategy 'search'"),
        ({"strategies": ["serach", "expert", "expert", "expert"]}, "unknown strategy 'serach'"),
    ],
)
def test_bad_search_seats_in_experiment_files_are_one_line_errors(over, needle):
    with pytest.raises(ValueError) as e:
        _experiment(**over)
    assert needle in str(e.value) and "search.toml" in str(e.value) and "\n" not in str(e.value)


def test_search_on_the_command_line(capsys):
    argv = ["tournament", "search(worlds=2,when=close)", "expert", "expert", "expert", "--walls", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "search(when=close,worlds=2)" in out and "1 walls of seed 0 x 4 rotations" in out


def test_the_rollout_field_takes_either_expert_by_its_fixed_name():
    """``expert`` moved to expert2 in Daqing (issue 38): the measured rollouts stay reachable."""
    assert check_knobs({"field": "expert1"})["field"] == "expert1"
    assert check_knobs({"field": "expert2"})["field"] == "expert2"
    from daqing_sim.search.evaluator import Evaluator

    assert Evaluator(ds.RuleSet().encode(), "expert1", "daqing").field_names == ("expert1",) * 4
