"""Experiment files of the two-player family: configuration, runs, the summary, tournaments, the CLI.

The runs are tiny (tens of games): they check the plumbing and that every figure of the summary is
the direct computation on the frame; notebook 09 and experiments/two_player.toml are the figures.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import daqing_sim as ds
from daqing_sim import cli
from daqing_sim.analysis import families as fam
from daqing_sim.analysis.intervals import exact_interval, wilson_interval
from daqing_sim.analysis.summary import summarize
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.runner import batch_feature, run_experiment
from daqing_sim.experiments.tournament import tournament_results
from daqing_sim.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
TWO = RuleSet(family="two_player")

TWO_FILE = """\
name = "two"
n_deals = 48
seed = 5
chunk_size = 24

[rules]
family = "two_player"

[[variants]]
name = "declare"

[[variants]]
name = "never_declare"
knobs = { expert = { declare_min_outs = 40 } }

[[variants]]
name = "no_flower"
rules = { flower_tiles = 0 }
"""

TOURNAMENT_FILE = """\
name = "duo"
chunk_size = 16

[tournament]
entrants = [{ strategy = "expert", knobs = { declare_min_outs = 40 } }, "greedy"]
n_walls = 32
seed = 3
rules = { family = "two_player" }
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    tmp = tmp_path_factory.mktemp("two")
    result = run_experiment(write(tmp, TWO_FILE), n_jobs=1, out=tmp / "res", progress=False)
    return tmp, result.load()


# ---------------------------------------------------------------- configuration


def test_two_player_variants_seat_two_with_their_knobs_and_rules(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, TWO_FILE))
    declare, never, flower = exp.variants
    assert declare.strategies == never.strategies == ("expert", "expert")  # the family's default field
    assert declare.seat_knobs() is None
    assert never.seat_knobs() == [{"declare_min_outs": 40}] * 2
    assert flower.rules == RuleSet(family="two_player", flower_tiles=0)
    both = write(
        tmp_path, TWO_FILE.replace('name = "declare"', 'name = "declare"\nstrategies = ["expert", "greedy"]')
    )
    assert load_experiment(both).variants[0].strategies == ("expert", "greedy")
    one = write(tmp_path, 'strategies = "greedy"\n' + TWO_FILE, name="one.toml")
    assert {v.strategies for v in load_experiment(one).variants} == {("greedy", "greedy")}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[rules]\nfamily = "two_player"\n[[variants]]\nname = "x"\n'
            'strategies = ["expert", "greedy", "greedy", "greedy"]\n',
            ["has 4 seats, but two-player games seat two", "give one name or a list of two"],
        ),
        (
            'strategies = ["greedy", "greedy"]\n[[variants]]\nname = "x"\n',
            ["has 2 seats, but Daqing games seat four", 'family = "two_player"'],
        ),
        (
            '[rules]\nfamily = "beijing"\n[[variants]]\nname = "x"\nstrategies = ["greedy", "expert"]\n',
            ["has 2 seats, but Beijing games seat four"],
        ),
        (
            'strategies = ["greedy", "greedy", "greedy", "greedy"]\n[[variants]]\nname = "x"\n'
            'rules = { family = "two_player" }\n',
            ["which the two-player variant 'x' plays", "has 4 seats"],
        ),
        (
            '[rules]\nfamily = "two_player"\n[[variants]]\nname = "x"\nstrategies = "jia_hunter"\n',
            [
                "'jia_hunter' does not play two-player yet",
                "(or two of expert, greedy, random, expert1, expert2)",
            ],
        ),
        (
            '[rules]\nfamily = "two_player"\n[knobs]\nexpert = { fold_shanten = 0 }\n'
            '[[variants]]\nname = "x"\n',
            ["fold_shanten"],
        ),
        ('dealer = 2\n[rules]\nfamily = "two_player"\n[[variants]]\nname = "x"\n', ["its seats are 0-1"]),
        (
            '[tournament]\nentrants = ["expert", "greedy", "greedy", "greedy"]\nn_walls = 8\n'
            'rules = { family = "two_player" }\n',
            ["has 4 entrant(s): a tournament seats exactly two under two-player rules"],
        ),
        (
            '[tournament]\nentrants = ["expert", "greedy"]\nn_walls = 8\n',
            ["has 2 entrant(s): a tournament seats exactly four", 'family = "two_player"'],
        ),
        (
            '[tournament]\nentrants = ["expert", "greedy"]\nn_walls = 8\nrules = { family = "two_player" }\n'
            "knobs = { expert = { declare_min_outs = 99 } }\n",
            ["declare_min_outs"],
        ),
    ],
)
def test_seat_count_errors_are_one_line(tmp_path, capsys, text: str, words: list[str]) -> None:
    line = cli_error(capsys, ["run", str(write(tmp_path, text)), "--dry-run"])
    for w in words:
        assert w in line, line


def test_the_shipped_two_player_files_load() -> None:
    exp = load_experiment(ROOT / "experiments" / "two_player.toml")
    assert [v.name for v in exp.variants] == ["declare", "never_declare", "no_flower"]
    assert {v.rules.family for v in exp.variants} == {"two_player"}
    assert exp.variants[1].seat_knobs() == [{"declare_min_outs": 40}] * 2
    duo = load_experiment(ROOT / "experiments" / "two_player_declare.toml")
    assert duo.tournament.labels() == ["expert1(claim_shanten=13,declare_min_outs=40)", "greedy"]
    assert [v.strategies for v in duo.variants] == [("expert1", "greedy"), ("greedy", "expert1")]


def test_the_runner_compiles_the_two_player_engine_under_its_feature() -> None:
    assert batch_feature("two_player") == "simulate_two_player" and batch_feature("daqing") == "simulate"


# ---------------------------------------------------------------- runs and the store


def test_a_run_plays_each_variants_games_as_simulate_does(run) -> None:
    _, df = run
    assert df.groupby("variant", observed=True).size().tolist() == [48, 48, 48]
    never = df[df["variant"] == "never_declare"].drop(columns="variant").reset_index(drop=True)
    direct = ds.simulate(48, rules=TWO, seed=5, knobs=[{"declare_min_outs": 40}] * 2)
    pd.testing.assert_frame_equal(never, direct, check_categorical=False)
    assert (never[["declared_turn_0", "declared_turn_1"]] == -1).all().all()
    assert (df.loc[df["variant"] == "no_flower", "fan_flower"] == 0).all()


def test_results_are_never_reused_across_rules(run, tmp_path: Path) -> None:
    tmp, _ = run
    again = run_experiment(write(tmp, TWO_FILE), n_jobs=1, out=tmp / "res", progress=False, summary=False)
    assert again.n_computed == 0 and again.n_reused == 6
    changed = write(tmp, TWO_FILE.replace("flower_tiles = 0", "flower_tiles = 2"), name="exp.toml")
    with pytest.raises(ValueError, match=r"no_flower .* \(changed: rules\.flower_tiles\)"):
        run_experiment(changed, n_jobs=1, out=tmp / "res", progress=False)


# ---------------------------------------------------------------- the summary


def test_summary_figures_are_the_direct_frame_computations(run) -> None:
    tmp, df = run
    s = pd.read_csv(tmp / "res" / "two" / "summary.csv")
    assert (tmp / "res" / "two" / "two_player_patterns.png").is_file()
    row = s.set_index(["variant", "metric"])
    g = df[df["variant"] == "declare"]
    won = g["winner"].to_numpy() >= 0
    assert row.loc[("declare", "family_two_player"), "n"] == 48
    assert row.loc[("declare", "deals_won_share"), "estimate"] == pytest.approx(won.mean())
    dealer_wins = int((g["winner"] == g["dealer"]).sum())
    r = row.loc[("declare", "win_rate_dealer")]
    assert r["estimate"] == pytest.approx(dealer_wins / 48)
    assert (r["lo"], r["hi"]) == pytest.approx(tuple(float(x) for x in wilson_interval(dealer_wins, 48)))
    declared = int((g["declared_turn_1"] >= 0).sum())
    assert row.loc[("declare", "declared_non_dealer"), "estimate"] == pytest.approx(declared / 48)
    assert row.loc[("never_declare", "declared_dealer"), "estimate"] == 0
    assert row.loc[("declare", "value_mean_deal"), "estimate"] == pytest.approx(g["value"].mean())
    assert row.loc[("declare", "fan_total_mean"), "estimate"] == pytest.approx(g["fan_total"][won].mean())
    assert row.loc[("declare", "pay_mean_dealer"), "estimate"] == pytest.approx(g["pay_0"].mean())
    # a pattern held by few wins gets the exact binomial interval
    k = int((g["fan_riichi"][won] > 0).sum())
    r = row.loc[("declare", "pattern_share_riichi")]
    ci = stats.binomtest(k, int(won.sum())).proportion_ci(method="exact")
    assert r["estimate"] == pytest.approx(k / won.sum()) and "Clopper-Pearson" in r["method"]
    assert (r["lo"], r["hi"]) == pytest.approx((ci.low, ci.high))
    # paired differences, within the family, Bonferroni over 2 variants x 6 metrics
    d = row.loc[("never_declare", "diff_value")]
    h = df[df["variant"] == "never_declare"]
    assert d["estimate"] == pytest.approx(h["value"].mean() - g["value"].mean())
    assert "family of 12" in d["method"] and "two-player variants only" in d["method"]
    d = row.loc[("never_declare", "diff_declared_share")]
    share = ((g["declared_turn_0"] >= 0).mean() + (g["declared_turn_1"] >= 0).mean()) / 2
    assert d["estimate"] == pytest.approx(-share)


def test_pattern_shares_switch_to_exact_intervals_below_the_rare_count() -> None:
    df = pd.DataFrame({"winner": [0] * 120 + [-1] * 10, "deal": np.arange(130)})
    for code in fam.TWO_PLAYER_FANS:
        df[f"fan_{code}"] = 0
    df.loc[:59, "fan_concealed"] = 1  # 60 of 120 wins: Wilson
    df.loc[[5, 9], "fan_kokushi"] = 13  # 2 wins: exact
    t = fam.two_player_pattern_shares(df).set_index("fan")
    assert t.loc["concealed", "method"].startswith("Wilson")
    lo, hi = exact_interval(2, 120)
    assert t.loc["kokushi", "method"].startswith("exact") and (
        t.loc["kokushi", "lo"],
        t.loc["kokushi", "hi"],
    ) == (lo, hi)
    assert t.loc["kokushi", "first_game"] == 5 and t.loc["kokushi", "games_per_win"] == 65
    assert t.loc["limit_any", "count"] == 2 and t.loc["tenhou", "hi"] == pytest.approx(1 - 0.025 ** (1 / 120))


def test_the_pattern_table_is_the_fan_table_of_the_hand_evaluator() -> None:
    from daqing_sim.families.two_player.hand import FAN_TABLE, N_PATTERNS

    assert [(c, f) for c, (_, f) in fam.TWO_PLAYER_FANS.items()] == [
        (c, f if i < N_PATTERNS else 0) for i, (c, f) in enumerate(FAN_TABLE)
    ]


def test_summarize_takes_a_simulate_frame() -> None:
    s = summarize(ds.simulate(30, rules=TWO, seed=2, strategies=("greedy", "random")))
    assert {"family_two_player", "pattern_share_limit_any", "draws_q50", "extra_draws_share"} <= set(
        s["metric"]
    )
    assert not s["metric"].str.startswith("diff_").any()


# ---------------------------------------------------------------- tournaments


def test_a_two_player_tournament_file_rates_as_ds_tournament_does(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, TOURNAMENT_FILE)
    assert cli.main(["run", str(path), "--out", str(tmp_path / "res"), "--jobs", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "points (F x multiplier x points per fan" in out
    table = pd.read_csv(tmp_path / "res" / "duo" / "tournament.csv")
    direct = ds.tournament([("expert", {"declare_min_outs": 40}), "greedy"], 32, 3, rules=TWO)
    assert (
        table["entrant"].tolist() == direct["entrant"].tolist() == ["expert(declare_min_outs=40)", "greedy"]
    )
    assert table["mean_pay"].to_numpy() == pytest.approx(direct["mean_pay"].to_numpy())
    assert table["n_seat_deals"].tolist() == [64, 64]
    loaded = tournament_results(path, out=tmp_path / "res")
    assert loaded["mean_pay"].to_numpy() == pytest.approx(direct["mean_pay"].to_numpy())


def test_cli_tournament_takes_two_entrants_under_the_family(capsys) -> None:
    argv = [
        "tournament",
        "expert(declare_min_outs=40)",
        "greedy",
        "--walls",
        "6",
        "--rules",
        "family=two_player",
    ]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "6 walls of seed 0 x 2 rotations = 12 games, two_player rules" in out and "greedy" in out
    line = cli_error(capsys, ["tournament", "expert", "greedy", "--walls", "6"])
    assert "a tournament seats exactly four" in line and "--rules family=two_player" in line
    line = cli_error(capsys, ["tournament", *["greedy"] * 4, "--walls", "6", "--rules", "family=two_player"])
    assert "4 entrant(s) given" in line and "exactly two under the two-player family" in line
