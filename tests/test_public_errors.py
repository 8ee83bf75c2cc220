"""Bad input of public functions gives one-line ``ValueError`` messages that name the
problem and the fix (issue 24, item 7): ``daqing_shanten``, ``deal_log``,
``experiment_results``, ``tournament_results``, ``tournament_pairs``, the ``DealEnv``
constructor and ``DealEnv.result``. Each case runs before any simulation starts."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import daqing_sim as ds

ROOT = Path(__file__).resolve().parent.parent
BAO = ROOT / "experiments" / "bao_replacement.toml"
TOUR = ROOT / "experiments" / "strategies.toml"


def _one_line(err: pytest.ExceptionInfo) -> str:
    msg = str(err.value)
    assert "\n" not in msg, msg
    return msg


@pytest.mark.parametrize(
    "hand, rules, match",
    [
        (5, None, "a hand must be a string in hand notation, not int"),
        (["1m"] * 13, None, "a hand must be a string in hand notation, not list"),
        ("123m456p789s12m", None, "has 11 concealed tiles.*a hand has 13 \\(or 14"),
        ("123m456p789s11122m中", None, "has 15 concealed tiles"),
        (ds.parse_hand("123m", require_full=False), None, "needs a 13- or 14-tile hand; .* has 3 tiles"),
        (ds.parse_hand("123m456p789s11122m3m", require_full=False), None, "has 15 tiles"),
        ("123m456p789s1234m", "classic", "rules must be a RuleSet, not str"),
    ],
)
def test_daqing_shanten(hand, rules, match):
    with pytest.raises(ValueError, match=match) as err:
        ds.daqing_shanten(hand, rules)
    _one_line(err)


def test_analyze_hand_checks_the_size_of_a_hand_object_too():
    with pytest.raises(ValueError, match="analyze_hand needs a 13- or 14-tile hand"):
        ds.analyze_hand(ds.parse_hand("123m456p", require_full=False))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(seed="a", deal=0), "seed must be a whole number, not 'a'"),
        (dict(seed=0, deal=-1), "deal=-1 is too small: use a whole number >= 0"),
        (dict(seed=0, deal=0, strategies=("nope",) * 4), "unknown strategy 'nope'; valid strategies: greedy"),
        (dict(seed=0, deal=0, strategies="greedy"), "strategies must be four strategy names"),
        (dict(seed=0, deal=0, strategies=("greedy",) * 3), "strategies has 3 entries: give one per seat"),
        (dict(seed=0, deal=0, dealer=5), "dealer=5 is out of range: seats are 0, 1, 2, 3"),
        (dict(seed=0, deal=0, rules=3), "rules must be a RuleSet, not int"),
        (dict(seed=0, deal=0, knobs=5), "knobs must be four mappings .*not 5"),
        (dict(seed=0, deal=0, knobs=(5, None, None, None)), "knobs must be four mappings"),
        (
            dict(seed=0, deal=0, knobs=({"x": 1}, None, None, None)),
            "unknown knob\\(s\\) x for strategy 'expert'",  # the default field: four experts
        ),
    ],
)
def test_deal_log(kwargs, match):
    with pytest.raises(ValueError, match=match) as err:
        ds.deal_log(**kwargs)
    _one_line(err)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (("x",), {}, "seed must be a whole number, not 'x'"),
        ((0, -3), {}, "deal=-3 is too small"),
        ((0,), dict(players=("greedy",)), "players must be four seats \\(None, a name or a Player\\)"),
        ((0,), dict(players="greedy"), "players must be four seats"),
        ((0,), dict(players=(None, "nope", "greedy", "greedy")), "unknown strategy 'nope'"),
        ((0,), dict(players=(None, 5, "greedy", "greedy")), "strategy of seat 1 must be a name"),
        ((0,), dict(rules="x"), "rules must be a RuleSet, not str"),
        ((0,), dict(dealer=9), "dealer=9 is out of range"),
    ],
)
def test_deal_env_constructor(args, kwargs, match):
    with pytest.raises(ValueError, match=match) as err:
        ds.DealEnv(*args, **kwargs)
    _one_line(err)


def test_deal_env_result_only_when_over():
    env = ds.DealEnv(0, 0, players=(None, "greedy", "greedy", "greedy"))
    for _ in range(2):  # before reset, then mid-deal
        with pytest.raises(ValueError, match="the deal is not over yet: step\\(\\) until done") as err:
            env.result()
        _one_line(err)
        obs = env.reset()
    steps = 0
    while not env.done:
        obs = env.step(obs.legal_discards[0] if obs.decision == "discard" else None)
        steps += 1
    row = env.result()
    assert steps > 0 and len(row) == 1 and row["deal"].item() == 0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda out: ds.experiment_results(5, out=out), "path must be an experiment .toml file .*not 5"),
        (lambda out: ds.experiment_results(BAO, out=5), "out must be the results folder .*not 5"),
        (lambda out: ds.experiment_results(BAO, n_deals=0, out=out), "n_deals=0 is too small"),
        (lambda out: ds.experiment_results(BAO, n_deals=2.5, out=out), "n_deals must be a whole number"),
        (
            lambda out: ds.experiment_results(BAO, n_deals=8, out=out, n_jobs="x"),
            "n_jobs = 'x' is impossible",
        ),
        (lambda out: ds.experiment_results(out / "none.toml", out=out), "experiment file .* not found"),
        (lambda out: ds.experiment_results(out, out=out), "is a directory; give an experiment .toml file"),
        (lambda out: ds.tournament_results(5, out=out), "path must be an experiment .toml file"),
        (lambda out: ds.tournament_results(TOUR, out=[]), "out must be the results folder"),
        (lambda out: ds.tournament_results(TOUR, n_walls=-1, out=out), "n_walls=-1 is too small"),
        (lambda out: ds.tournament_results(TOUR, n_walls="5", out=out), "n_walls must be a whole number"),
        (lambda out: ds.tournament_results(BAO, n_walls=8, out=out), "has no \\[tournament\\] table"),
    ],
)
def test_experiment_and_tournament_results(tmp_path, call, match):
    with pytest.raises((ValueError, FileNotFoundError, IsADirectoryError), match=match) as err:
        call(tmp_path)
    _one_line(err)
    assert not any(tmp_path.rglob("*.parquet")), "a run started before the arguments were checked"


@pytest.mark.parametrize("table", [None, 5, "results/strategies", pd.DataFrame({"a": [1]})])
def test_tournament_pairs(table):
    with pytest.raises(
        ValueError, match="give the table returned by ds.tournament or duplicate_table"
    ) as err:
        ds.tournament_pairs(table)
    assert "attrs['pairs'] is missing" in _one_line(err)
