"""Duplicate tournaments: rotations on the same walls, per-wall statistics, TOML and CLI."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import daqing_sim as ds
from daqing_sim import cli
from daqing_sim.analysis.duplicate import duplicate_table, tournament_pairs, wall_means
from daqing_sim.experiments.config import experiment_from_dict, load_experiment
from daqing_sim.experiments.entrants import entrant_label, parse_entrant, rotate, seat_labels
from daqing_sim.experiments.runner import run_experiment
from daqing_sim.experiments.tournament import tournament_frames
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.notation import Hand, format_hand

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"
SEED = 11
# rows for the dealer (seat 0) and the three others in the wall layout of daqing_sim.game.wall
SEAT_SLICES = [slice(0, 14), slice(14, 27), slice(27, 40), slice(40, 53)]


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the CLI, expect exit status 2 and a one-line message; return it."""
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


# ---------------------------------------------------------------- rotations


def test_rotation_r_seats_entrant_i_at_seat_i_plus_r() -> None:
    for r in range(4):
        seats = rotate(["a", "b", "c", "d"], r)
        assert [seats[(i + r) % 4] for i in range(4)] == ["a", "b", "c", "d"]
    assert seat_labels(["a", "b", "a", "c"])["rotation_1"] == ("c", "a", "b", "a")


def test_each_rotation_is_one_simulate_call_with_the_same_seed_and_unchanged_entries() -> None:
    knobbed = ("defensive", {"fold_shanten": 3})
    entrants = ["greedy", knobbed, "random", "jia_hunter"]
    calls = []

    def spy(n, **kw):
        calls.append((n, kw))
        return ds.simulate(n, **kw)

    frames = tournament_frames(entrants, 5, SEED, n_jobs=1, simulate_fn=spy)
    assert len(calls) == 4
    assert {(n, kw["seed"], kw["n_jobs"], kw["rules"]) for n, kw in calls} == {(5, SEED, 1, ds.RuleSet())}
    for r, (_, kw) in enumerate(calls):
        assert list(kw["strategies"]) == rotate(entrants, r)
        assert kw["strategies"][(1 + r) % 4] is knobbed  # handed over unchanged, not re-spelled
    assert list(frames["variant"].unique()) == [f"rotation_{r}" for r in range(4)]


def test_rotations_play_the_same_walls_and_deal_seeds() -> None:
    # Four copies of the random player: in-game randomness comes from the deal seed, so the
    # rotations are the same deals only if every rotation got the same walls and deal seeds.
    frames = tournament_frames(["random"] * 4, 50, SEED)
    cols = ["deal", "outcome", "winner", "draws", *[f"pay_{s}" for s in range(4)]]
    parts = [g[cols].reset_index(drop=True) for _, g in frames.groupby("variant", observed=True)]
    for part in parts[1:]:
        pd.testing.assert_frame_equal(part, parts[0])
    other = tournament_frames(["random"] * 4, 50, SEED + 1)
    assert not np.array_equal(other["draws"].to_numpy(), frames["draws"].to_numpy())


def test_the_same_walls_tiles_go_to_the_rotated_seat() -> None:
    entrants = ["greedy", "jia_hunter", "defensive", "random"]
    frames = tournament_frames(entrants, 6, SEED)
    walls, _, _ = generate_walls(6, SEED)
    for r in range(4):
        part = frames[frames["variant"] == f"rotation_{r}"].reset_index(drop=True)
        seats = rotate(entrants, r)
        for i, name in enumerate(entrants):
            assert (part[f"strategy_{(i + r) % 4}"].astype(str) == name).all()
        for deal in (0, 5):
            lines = ds.replay(SEED, deal, strategies=seats)
            row = ds.simulate(1, strategies=seats, seed=SEED, start=deal).iloc[0]
            assert [row[f"pay_{s}"] for s in range(4)] == [part.loc[deal, f"pay_{s}"] for s in range(4)]
            for i in range(4):
                seat = (i + r) % 4
                counts = np.bincount(walls[deal, SEAT_SLICES[seat]], minlength=28).astype(np.uint8)
                line = next(x for x in lines if x.startswith(f"seat {seat}"))
                assert line.endswith(": " + format_hand(Hand(counts=counts, melds=())))


# ---------------------------------------------------------------- statistics


def _reference(frames: pd.DataFrame, labels: dict[str, tuple[str, ...]]) -> pd.DataFrame:
    """Slow: one row per seat-deal, then a per-(wall, label) mean by pandas groupby."""
    rows = []
    for rec in frames.to_dict("records"):
        for s in range(4):
            rows.append({"deal": rec["deal"], "label": labels[rec["variant"]][s], "pay": rec[f"pay_{s}"]})
    long = pd.DataFrame(rows)
    return long.groupby(["deal", "label"])["pay"].mean().unstack("label")


def _t(x: np.ndarray) -> tuple[float, float, float]:
    m = float(np.mean(x))
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=m, scale=stats.sem(x))
    return m, lo, hi


def test_per_wall_means_and_intervals_match_a_slow_reference() -> None:
    entrants = ["greedy", "random", ("random", {}), ("defensive", {"fold_shanten": 4})]
    frames = tournament_frames(entrants, 200, SEED)
    labels = seat_labels(entrants)
    ref = _reference(frames, labels)
    got = wall_means(frames, labels)
    assert list(got.columns) == ["greedy", "random", "defensive(fold_shanten=4)"]
    pd.testing.assert_frame_equal(got[ref.columns], ref, check_names=False, check_dtype=False)
    table = duplicate_table(frames, labels).set_index("entrant")
    for label in ref.columns:
        m, lo, hi = _t(ref[label].to_numpy())
        r = table.loc[label]
        others = ref.drop(columns=label).mean(axis=1).to_numpy()
        d, dlo, dhi = _t(ref[label].to_numpy() - others)
        np.testing.assert_allclose([r.mean_pay, r.lo, r.hi], [m, lo, hi], rtol=1e-9)
        np.testing.assert_allclose([r["diff"], r.diff_lo, r.diff_hi], [d, dlo, dhi], rtol=1e-9)
        assert r.n_walls == 200
        seat_deals = sum(1 for seats in labels.values() for x in seats if x == label) * 200
        assert r.n_seat_deals == seat_deals
        pays = [frames.loc[frames["variant"] == v, f"pay_{s}"] for v, seats in labels.items()
                for s, x in enumerate(seats) if x == label]  # fmt: skip
        assert r.mean_pay == pytest.approx(np.concatenate(pays).mean(), rel=1e-12)
    pairs = tournament_pairs(duplicate_table(frames, labels))
    assert len(pairs) == 3 * 2
    for p in pairs.itertuples():
        d, lo, hi = _t(ref[p.a].to_numpy() - ref[p.b].to_numpy())
        np.testing.assert_allclose([p.diff, p.lo, p.hi], [d, lo, hi], rtol=1e-9)


def test_a_player_against_copies_of_itself_breaks_even() -> None:
    same = ("jia_hunter", {"min_outs_fraction": 0.5})  # the default knob: the same player, another label
    table = ds.tournament(["jia_hunter", "random", same, "random"], 100, SEED)
    t = table.set_index("entrant")
    assert list(t.index) == ["jia_hunter", "random", "jia_hunter(min_outs_fraction=0.5)"]
    assert (t["copies"] * t["mean_pay"]).sum() == pytest.approx(0.0, abs=1e-9)  # payments sum to zero
    pair = tournament_pairs(table).query("a == 'jia_hunter' and b == 'jia_hunter(min_outs_fraction=0.5)'")
    assert pair["lo"].item() <= 0 <= pair["hi"].item()
    assert pair["diff"].item() == pytest.approx(0.0, abs=1e-12)
    assert t.loc["random", "hi"] < 0 < t.loc["jia_hunter", "lo"]  # and the field is not all noise
    alone = ds.tournament(["greedy"] * 4, 30, SEED)
    assert alone["entrant"].tolist() == ["greedy"] and alone["copies"].item() == 4
    assert alone["mean_pay"].item() == 0 and np.isnan(alone["diff"].item())


def test_labels_and_pooling() -> None:
    class Anon:
        pass

    class Named:
        name = "mine"

    assert entrant_label(Anon()) == "Anon" and entrant_label(Named()) == "mine"
    assert entrant_label(("defensive", {"fold_shanten": 3.0})) == "defensive(fold_shanten=3)"
    assert entrant_label(("jia_hunter", {})) == entrant_label(("jia_hunter", None)) == "jia_hunter"
    assert parse_entrant("defensive(fold_shanten=3)") == ("defensive", {"fold_shanten": 3})
    table = ds.tournament(["greedy", ("random", {}), "random", ("greedy", None)], 20, SEED)
    assert table["entrant"].tolist() == ["greedy", "random"]
    assert table["copies"].tolist() == [2, 2] and table["n_seat_deals"].tolist() == [160, 160]
    assert table["mean_pay"].sum() == pytest.approx(0.0, abs=1e-9)
    pd.concat([table, table])  # the pairs in attrs do not stop tables from being combined


def test_bad_tournament_input() -> None:
    with pytest.raises(ValueError, match="exactly four"):
        ds.tournament(["greedy"] * 3, 10, SEED)
    with pytest.raises(ValueError, match="list of four entrants"):
        ds.tournament("greedy", 10, SEED)
    with pytest.raises(ValueError, match="n_walls"):
        ds.tournament(["greedy"] * 4, 0, SEED)
    with pytest.raises(ValueError, match="4 rotations x n_walls"):
        ds.tournament(["greedy"] * 4, 10**13, SEED)  # refused before anything is played
    with pytest.raises(ValueError, match="unknown strategy"):
        ds.tournament(["greedy", "greedy", "greedy", "gredy"], 10, SEED)
    frames = tournament_frames(["random"] * 4, 10, SEED)
    with pytest.raises(ValueError, match="same"):
        duplicate_table(frames.iloc[:-1], seat_labels(["random"] * 4))


# ---------------------------------------------------------------- TOML


TOURNAMENT = """\
name = "tiny_tournament"
chunk_size = 16

[tournament]
entrants = ["greedy", "random", { strategy = "defensive", knobs = { fold_shanten = 3 } }, "random"]
n_walls = 40
seed = 11
"""


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_toml_tournament_runs_through_the_runner_and_writes_tournament_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOURNAMENT)
    exp = load_experiment(path)
    assert [v.name for v in exp.variants] == [f"rotation_{r}" for r in range(4)]
    assert exp.variants[1].strategies == ("random", "greedy", "random", "defensive")
    assert exp.variants[1].seat_knobs()[3] == {"fold_shanten": 3}
    assert cli.main(["run", str(path), "--out", str(tmp_path / "res"), "--jobs", "1", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "duplicate tournament" in printed and "defensive(fold_shanten=3)" in printed
    outdir = tmp_path / "res" / "tiny_tournament"
    saved = pd.read_csv(outdir / "tournament.csv")
    direct = ds.tournament(["greedy", "random", ("defensive", {"fold_shanten": 3}), "random"], 40, 11)
    pd.testing.assert_frame_equal(saved, direct, check_dtype=False)
    pairs = pd.read_csv(outdir / "tournament_pairs.csv")
    pd.testing.assert_frame_equal(pairs, tournament_pairs(direct), check_dtype=False)
    again = run_experiment(path, n_jobs=1, out=tmp_path / "res", progress=False)
    assert again.n_computed == 0 and again.tournament is not None  # resumed: every chunk reused
    loaded = ds.tournament_results(path, out=tmp_path / "res")
    pd.testing.assert_frame_equal(loaded, direct)
    assert cli.main(["run", str(path), "--out", str(tmp_path / "res"), "--dry-run"]) == 0
    plan = capsys.readouterr().out
    assert "tournament: greedy, random, defensive(fold_shanten=3), random" in plan
    assert "(12 already done)" in plan and "seat2.fold_shanten=3" in plan  # 3 chunks x 4 rotations


def test_tournament_file_keeps_the_chunk_identity_of_rotation_variants() -> None:
    exp = load_experiment(EXPERIMENTS / "strategies.toml")
    entrants = ["expert", "greedy", "jia_hunter", "defensive"]
    assert exp.tournament is not None and exp.tournament.labels() == entrants
    assert exp.n_deals == 200_000 and exp.seed == 20240106
    rotated = [rotate(entrants, r) for r in range(4)]
    old = experiment_from_dict(
        {
            "name": "strategies",
            "n_deals": 200_000,
            "seed": 20240106,
            "chunk_size": 4096,
            "knobs": {"jia_hunter": {"min_outs_fraction": 0.5}, "defensive": {"fold_shanten": 2.0}},
            "variants": [{"name": f"rotation_{r}", "strategies": s} for r, s in enumerate(rotated)],
        }
    )
    for v_new, v_old in zip(exp.variants, old.variants, strict=True):
        assert exp.chunk_identity(v_new) == old.chunk_identity(v_old)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('entrants = ["greedy", "random", "random"]', "entrants in {f} [tournament] has 3 entrant(s)"),
        (
            'entrants = ["greedy", "random", "random", "gredy"]',
            "unknown strategy 'gredy' in {f} [tournament] entrants #4",
        ),
        (
            'entrants = ["greedy", "random", "random", { strategy = "defensive", knobs = { fold = 1 } }]',
            "unknown knob(s) fold for strategy 'defensive'",
        ),
        ('entrants = ["greedy", "random", "random", 3]', "in {f} [tournament] entrants #4"),
        ('entrants = ["greedy", "random", "random", "random"]\nwalls = 3', "unknown key(s) walls in {f}"),
    ],
)
def test_bad_tournament_table_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    body = "n_walls = 10\n" + text if "n_walls" not in text else text
    path = write(tmp_path, f"name = 'x'\n[tournament]\n{body}\n")
    line = cli_error(capsys, ["run", str(path), "--dry-run"])
    assert needle.format(f=path) in line


def test_tournament_and_variants_together_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOURNAMENT + '\n[[variants]]\nname = "a"\n')
    line = cli_error(capsys, ["run", str(path), "--dry-run"])
    assert "[[variants]] and [tournament] in " + str(path) in line
    path = write(tmp_path, "n_deals = 100\n" + TOURNAMENT, name="n.toml")
    assert "n_deals" in cli_error(capsys, ["run", str(path), "--dry-run"])


# ---------------------------------------------------------------- baseline


def test_baseline_is_the_first_entrant_replaced_on_the_same_walls() -> None:
    """``baseline``: the tournament again with the baseline in the first entrant's seat; the pair
    (first - baseline) is the t interval of the per-wall difference of the two tournaments'
    per-wall means."""
    entrants, base, n = ["greedy", "random", "random", "random"], "jia_hunter", 12
    table = ds.tournament(entrants, n, SEED, baseline=base)
    assert table["entrant"].tolist() == ["greedy", "random", "jia_hunter"]
    assert table["copies"].tolist() == [1, 3, 1]
    assert table["n_seat_deals"].tolist() == [4 * n, 2 * 3 * 4 * n, 4 * n]
    first = wall_means(tournament_frames(entrants, n, SEED), seat_labels(entrants))["greedy"]
    other = [base, *entrants[1:]]
    second = wall_means(tournament_frames(other, n, SEED), seat_labels(other))[base]
    x = (first - second).to_numpy()
    ci = stats.ttest_1samp(x, 0.0).confidence_interval(0.95)
    pair = tournament_pairs(table).query("a == 'greedy' and b == 'jia_hunter'").iloc[0]
    assert pair["diff"] == pytest.approx(x.mean())
    assert (pair["lo"], pair["hi"]) == pytest.approx((ci.low, ci.high))
    without = ds.tournament(entrants, n, SEED)  # the first tournament's own figures are unchanged
    assert table.loc[0, "mean_pay"] == without.loc[0, "mean_pay"]


def test_baseline_must_not_be_an_entrant() -> None:
    with pytest.raises(ValueError, match="baseline 'random' is already an entrant"):
        ds.tournament(["greedy", "random", "random", "random"], 4, SEED, baseline="random")


def test_cli_tournament_baseline_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    argv = ["tournament", "defensive(fold_shanten=3)", "random", "random", "random", "--walls", "6"]
    assert cli.main([*argv, "--baseline", "defensive"]) == 0
    out = capsys.readouterr().out
    assert "x 4 rotations x 2 fields (defensive in place of defensive(fold_shanten=3)) = 48 deals" in out
    assert "defensive(fold_shanten=3) - defensive" in out
    assert cli.main([*argv, "--baseline", "defensive", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["entrant"] for r in records["table"]] == ["defensive(fold_shanten=3)", "random", "defensive"]
    assert {(r["a"], r["b"]) for r in records["pairs"]} >= {("defensive(fold_shanten=3)", "defensive")}
    line = cli_error(capsys, [*argv, "--baseline", "random"])
    assert "--baseline 'random' is already an entrant" in line


# ---------------------------------------------------------------- CLI


def test_cli_tournament_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "greedy", "random", "defensive(fold_shanten=3)", "random", "--walls", "10"]
    assert cli.main([*argv, "--seed", "2", "--rules", "kong_fan=true"]) == 0
    out = capsys.readouterr().out
    assert "10 walls of seed 2 x 4 rotations = 40 deals" in out
    assert "defensive(fold_shanten=3)" in out and "greedy - random" in out


def test_cli_tournament_rules_before_the_entrants_do_not_swallow_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["tournament", "--rules", "kong_fan=true", "greedy", "random", "random", "random", "--walls", "2"]
    assert cli.main(argv) == 0
    assert "2 walls of seed 0 x 4 rotations = 8 deals" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["greedy", "random", "random", "gredy", "--walls", "5"], "unknown strategy 'gredy'"),
        (["greedy", "random", "random", "defensive(fold_shanten=x)", "--walls", "5"], "not a number"),
        (["greedy", "random", "random", "defensive(fold_shanten)", "--walls", "5"], "knob=value"),
        (["greedy", "random", "random", "random", "--walls", "0"], "--walls 0"),
        (["greedy", "random", "random", "random", "--walls", "5", "--seed", "-1"], "seed"),
        (["greedy", "random", "random", "random", "--walls", "5", "--rules", "kongfan=1"], "kongfan"),
    ],
)
def test_cli_tournament_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    assert needle in cli_error(capsys, ["tournament", *args])


def test_cli_tournament_wrong_number_of_entrants_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    line = cli_error(capsys, ["tournament", "greedy", "random", "random", "--walls", "5"])
    assert "3 entrant(s) given (greedy random random): a tournament seats exactly four" in line
    assert "required" not in line


def test_config_docstring_tournament_example_is_valid() -> None:
    import tomllib

    import daqing_sim.experiments.config as config

    block = config.__doc__.split("A tournament file::")[1]
    exp = experiment_from_dict(tomllib.loads("\n".join(line[4:] for line in block.splitlines())), where="doc")
    assert exp.tournament is not None
    assert exp.tournament.labels() == ["greedy", "jia_hunter", "defensive(fold_shanten=3)", "random"]


def test_cli_module_class_entrant_is_labelled_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cli_label_players.py").write_text(
        "import daqing_sim as ds\n\n\nclass Thrower(ds.Player):\n    name = 'thrower'\n\n"
        "    def discard(self, obs):\n        return obs.legal_discards[-1]\n"
    )
    monkeypatch.chdir(tmp_path)
    argv = ["tournament", "cli_label_players:Thrower", "greedy", "greedy", "greedy", "--walls", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "thrower" in out and "cli_label_players:Thrower" not in out  # as ds.tournament labels it


def test_toml_tournament_under_beijing_plays_beijing_deals_with_beijing_knobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A [tournament] with rules = { family = "beijing" }: its entrants' knobs are checked under
    Beijing (the Beijing expert's min_tenpai), its table is ds.tournament's, in points."""
    text = TOURNAMENT.replace(
        'entrants = ["greedy", "random", { strategy = "defensive", knobs = { fold_shanten = 3 } }, "random"]',
        'entrants = [{ strategy = "expert", knobs = { min_tenpai = 0.4 } }, "greedy", "random", "greedy"]\n'
        'rules = { family = "beijing" }',
    )
    path = write(tmp_path, text)
    assert cli.main(["run", str(path), "--out", str(tmp_path / "res"), "--jobs", "1", "--no-progress"]) == 0
    assert "points" in capsys.readouterr().out.splitlines()[-1]
    saved = pd.read_csv(tmp_path / "res" / "tiny_tournament" / "tournament.csv")
    bj = ds.RuleSet(family="beijing")
    direct = ds.tournament([("expert", {"min_tenpai": 0.4}), "greedy", "random", "greedy"], 40, 11, rules=bj)
    pd.testing.assert_frame_equal(saved, direct, check_dtype=False)
    with pytest.raises(ValueError, match="keep_zhong") as err:  # a Daqing knob: one line
        load_experiment(write(tmp_path, text.replace("min_tenpai = 0.4", "keep_zhong = 1"), "b.toml"))
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="does not play Beijing"):
        load_experiment(write(tmp_path, text.replace('"random"', '"jia_hunter"'), "c.toml"))


def test_two_player_tournaments_swap_the_two_seats():
    """Heads-up under the two-player family: two rotations of the same walls; copies of one player
    tie exactly, four entrants are a one-line error, and the CLI takes two."""
    two = ds.RuleSet(family="two_player")
    frames = tournament_frames(["expert", "greedy"], 40, 3, rules=two)
    assert list(frames.variant.cat.categories) == ["rotation_0", "rotation_1"]
    r0, r1 = (frames[frames.variant == f"rotation_{r}"] for r in (0, 1))
    assert (r0.strategy_0 == "expert").all() and (r1.strategy_0 == "greedy").all()
    assert (r0.deal.to_numpy() == r1.deal.to_numpy()).all()
    same = ds.tournament(["greedy", "greedy"], 40, 3, rules=two)
    assert same.n_seat_deals.tolist() == [160] and same.mean_pay.tolist() == [0.0]  # two copies pooled
    t = ds.tournament([("expert", {"fold_shanten": 2}), "greedy"], 60, 3, rules=two)
    assert t.entrant.tolist() == ["expert(fold_shanten=2)", "greedy"] and t.n_seat_deals.tolist() == [
        120,
        120,
    ]
    assert abs(t.mean_pay.sum()) < 1e-9  # heads-up: one's gain is the other's loss
    with pytest.raises(ValueError, match="a tournament seats exactly two under the two-player family"):
        ds.tournament(["greedy"] * 4, 10, 1, rules=two)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "daqing_sim.cli",
            "tournament",
            "expert",
            "greedy",
            "--walls",
            "30",
            "--rules",
            "family=two_player",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-1500:]
    assert "30 walls of seed 0 x 2 rotations = 60 games, two_player rules" in out.stdout
    assert "expert - greedy" in out.stdout and "F x multiplier" in out.stdout
