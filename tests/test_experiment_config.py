"""Experiment TOML files: validation, resolved plan, hash, CLI errors (exit 2, one line)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from daqing_sim import cli
from daqing_sim.experiments.config import experiment_from_dict, known_strategies, load_experiment
from daqing_sim.experiments.runner import plan_tasks, run_experiment
from daqing_sim.rules import RuleSet, unrestricted

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"

GOOD = """\
name = "tiny"
description = "two variants"
n_deals = 12
seed = 5
chunk_size = 6
strategies = "greedy"

[rules]
last_tiles_no_claim = 4

[[variants]]
name = "classic"

[[variants]]
name = "no_replacement"
rules = { bao_replacement = false }
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the CLI, expect exit status 2 and a one-line message; return it."""
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


# ---------------------------------------------------------------- valid files


def test_good_file_resolves_variants_over_base_rules(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, GOOD))
    assert exp.name == "tiny" and exp.n_deals == 12 and exp.chunk_size == 6 and exp.n_chunks == 2
    assert [v.name for v in exp.variants] == ["classic", "no_replacement"]
    assert exp.variants[0].rules == RuleSet()
    assert exp.variants[1].rules == RuleSet(bao_replacement=False)
    assert exp.variants[1].strategies == ("greedy",) * 4
    assert exp.baseline == "classic"
    tasks = list(plan_tasks(exp))
    assert [(t.variant, t.index, t.start, t.n_deals) for t in tasks] == [
        ("classic", 0, 0, 6),
        ("no_replacement", 0, 0, 6),
        ("classic", 1, 6, 6),
        ("no_replacement", 1, 6, 6),
    ]
    assert {t.seed for t in tasks} == {5}  # common random numbers: one seed for all variants


def test_name_defaults_to_file_stem_and_last_chunk_is_short(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, "n_deals = 10\nchunk_size = 4\n", name="quick.toml"))
    assert exp.name == "quick"
    assert [v.name for v in exp.variants] == ["base"]
    assert [t.n_deals for t in plan_tasks(exp)] == [4, 4, 2]


def test_config_hash_covers_results_not_descriptions(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, GOOD))
    redescribed = load_experiment(write(tmp_path, GOOD.replace("two variants", "other words"), "b.toml"))
    assert redescribed.config_hash() == exp.config_hash()
    assert exp.with_n_deals(13).config_hash() != exp.config_hash()
    changed = load_experiment(write(tmp_path, GOOD.replace("seed = 5", "seed = 6"), "c.toml"))
    assert changed.config_hash() != exp.config_hash()


@pytest.mark.parametrize("path", sorted(EXPERIMENTS.glob("*.toml")), ids=lambda p: p.stem)
def test_shipped_experiments_load(path: Path) -> None:
    exp = load_experiment(path)
    assert exp.name == path.stem
    assert exp.description
    assert exp.n_deals >= exp.chunk_size > 0


def test_shipped_experiments_cover_the_questions() -> None:
    names = {p.stem for p in EXPERIMENTS.glob("*.toml")}
    assert {"baseline", "bao_replacement", "kong_fan", "jia_edge", "restrictions", "strategies"} <= names
    restrictions = {v.name: v.rules for v in load_experiment(EXPERIMENTS / "restrictions.toml").variants}
    assert restrictions["all_off"] == unrestricted()
    single = [r.changed() for name, r in restrictions.items() if name not in ("classic", "all_off")]
    assert sorted(k for c in single for k in c) == sorted(
        [
            "require_open",
            "require_terminal",
            "require_triplet",
            "require_two_suits",
            "require_sequence",
            "min_concealed_at_ready",
        ]
    )
    assert all(len(c) == 1 for c in single)


def test_strategies_experiment_rotates_every_strategy_through_every_seat() -> None:
    exp = load_experiment(EXPERIMENTS / "strategies.toml")
    seats = [v.strategies for v in exp.variants]
    assert len(seats) == 4
    for s in range(4):
        assert sorted(v[s] for v in seats) == sorted(seats[0])  # each seat sees each strategy once
    assert len(set(seats[0])) == 4
    assert set(seats[0]) <= set(known_strategies())
    assert all(v.rules == RuleSet() for v in exp.variants)


def test_dry_run_prints_plan_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD)
    out = tmp_path / "res"
    assert cli.main(["run", str(path), "--dry-run", "--out", str(out), "--jobs", "2"]) == 0
    text = capsys.readouterr().out
    assert "no_replacement" in text and "bao_replacement=false" in text
    assert "greedy greedy greedy greedy" in text
    assert "2 per variant" in text and str(out / "tiny") in text
    assert not out.exists()
    assert cli.main(["run", str(path), "--dry-run", "--out", str(out), "--n-deals", "30"]) == 0
    text = capsys.readouterr().out
    assert "30 per variant" in text and str(out / ".quick" / "tiny-n30") in text


# ---------------------------------------------------------------- errors


def test_unknown_key_is_named_with_valid_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD.replace("n_deals = 12", "n_deal = 12"))
    with pytest.raises(ValueError, match="n_deal") as err:
        load_experiment(path)
    assert str(path) in str(err.value) and "valid keys" in str(err.value) and "n_deals" in str(err.value)
    line = cli_error(capsys, ["run", str(path)])
    assert "n_deal" in line and str(path) in line


def test_unknown_key_in_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD + "flags = { kong_fan = true }\n")
    line = cli_error(capsys, ["run", str(path)])
    assert "flags" in line and "'no_replacement'" in line
    assert str(path) in line and "valid keys" in line


@pytest.mark.parametrize("where", ["[rules]", "variant"])
def test_bad_flag_name(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    if where == "[rules]":
        text = GOOD.replace("last_tiles_no_claim = 4", "bao_replace = false")
    else:
        text = GOOD.replace("bao_replacement = false", "bao_replace = false")
    path = write(tmp_path, text)
    line = cli_error(capsys, ["run", str(path)])
    assert "bao_replace" in line and str(path) in line and "valid flags" in line


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("n_deals = 12", "n_deals = 0", "n_deals"),
        ("n_deals = 12", 'n_deals = "many"', "n_deals"),
        ("chunk_size = 6", "chunk_size = -6", "chunk_size"),
        ("seed = 5", "seed = -1", "seed"),
        ("seed = 5", "dealer = 4", "dealer"),
        ("bao_replacement = false", "bao_replacement = 0", "bao_replacement"),
        ("last_tiles_no_claim = 4", "min_concealed_at_ready = 0", "min_concealed_at_ready"),
        ('strategies = "greedy"', 'strategies = ["greedy", "greedy"]', "strategies"),
        ('name = "tiny"', 'name = "../escape"', "name"),
    ],
)
def test_bad_value(tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, key: str) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ValueError, match=key):
        load_experiment(path)
    line = cli_error(capsys, ["run", str(path)])
    assert key in line and str(path) in line


def test_duplicate_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD + '\n[[variants]]\nname = "classic"\nrules = { kong_fan = true }\n')
    line = cli_error(capsys, ["run", str(path)])
    assert "duplicate variant" in line and "'classic'" in line and str(path) in line


@pytest.mark.parametrize("where", ["base", "variant"])
def test_unknown_strategy(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    if where == "base":
        text = GOOD.replace('strategies = "greedy"', 'strategies = ["greedy", "greedy", "gready", "greedy"]')
    else:
        text = GOOD + 'strategies = "gready"\n'
    path = write(tmp_path, text)
    line = cli_error(capsys, ["run", str(path)])
    assert "'gready'" in line and str(path) in line and "strategies" in line and "greedy" in line


def test_unknown_baseline_and_missing_variant_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="baseline.*nope"):
        load_experiment(write(tmp_path, 'baseline = "nope"\n' + GOOD))
    with pytest.raises(ValueError, match="missing key name"):
        experiment_from_dict({"variants": [{"rules": {}}]}, where="x.toml", name="x")
    with pytest.raises(ValueError, match="missing key name in x.toml"):
        experiment_from_dict({}, where="x.toml")


def test_invalid_toml_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "n_deals = = 3\n")
    line = cli_error(capsys, ["run", str(path)])
    assert str(path) in line and "TOML" in line
    line = cli_error(capsys, ["run", str(tmp_path / "absent.toml")])
    assert "absent.toml" in line and "not found" in line


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--n-deals", "0"], "n_deals"),
        (["--jobs", "0"], "n_jobs"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--backend dask"),
    ],
)
def test_bad_command_line_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], word: str
) -> None:
    path = write(tmp_path, GOOD)
    line = cli_error(capsys, ["run", str(path), "--out", str(tmp_path / "res"), *args])
    assert word in line


def test_changed_config_is_refused_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD)
    out = tmp_path / "res"
    first = run_experiment(path, n_jobs=1, out=out, progress=False, summary=False)
    assert first.n_computed == 4
    path.write_text(GOOD.replace("bao_replacement = false", "kong_fan = true"), encoding="utf-8")
    with pytest.raises(ValueError, match="--force") as err:
        run_experiment(path, n_jobs=1, out=out, progress=False, summary=False)
    message = str(err.value)
    assert str(path) in message and "no_replacement" in message and "kong_fan" in message
    line = cli_error(capsys, ["run", str(path), "--out", str(out), "--jobs", "1", "--no-progress"])
    assert str(path) in line and "--force" in line
    again = run_experiment(path, n_jobs=1, out=out, progress=False, summary=False, force=True)
    assert again.n_computed == 4 and again.n_reused == 0


def test_knobs_by_strategy_reach_the_seats_playing_it(tmp_path: Path) -> None:
    text = GOOD.replace(
        'strategies = "greedy"',
        'strategies = ["greedy", "jia_hunter", "greedy", "jia_hunter"]\n'
        "knobs = { jia_hunter = { min_outs_fraction = 0.25 } }",
    )
    text += "knobs = { jia_hunter = { min_outs_fraction = 0.75 }, defensive = { fold_shanten = 1 } }\n"
    exp = load_experiment(write(tmp_path, text))
    classic, changed = exp.variants
    assert classic.seat_knobs() == [None, {"min_outs_fraction": 0.25}, None, {"min_outs_fraction": 0.25}]
    assert changed.seat_knobs() == [None, {"min_outs_fraction": 0.75}, None, {"min_outs_fraction": 0.75}]
    assert changed.knobs["defensive"] == {"fold_shanten": 1}
    assert load_experiment(write(tmp_path, GOOD, "plain.toml")).variants[0].seat_knobs() is None
    assert classic.knobs != changed.knobs


@pytest.mark.parametrize(
    ("knobs", "word"),
    [
        ("knobs = { jia_hunter = { min_outs = 0.3 } }", "min_outs"),
        ("knobs = { jia_hunter = { min_outs_fraction = 3.0 } }", "min_outs_fraction"),
        ("knobs = { jia_huntr = { min_outs_fraction = 0.3 } }", "jia_huntr"),
        ("knobs = { min_outs_fraction = 0.3 }", "knobs"),
    ],
)
def test_bad_knobs(tmp_path: Path, capsys: pytest.CaptureFixture[str], knobs: str, word: str) -> None:
    path = write(tmp_path, GOOD.replace('strategies = "greedy"', f'strategies = "greedy"\n{knobs}'))
    line = cli_error(capsys, ["run", str(path)])
    assert word in line and str(path) in line


def test_unreadable_or_missing_manifest_needs_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, GOOD)
    out = tmp_path / "res"
    run_experiment(path, n_jobs=1, out=out, progress=False, summary=False)
    manifest = out / "tiny" / "manifest.json"
    manifest.write_text("{ half", encoding="utf-8")
    line = cli_error(capsys, ["run", str(path), "--out", str(out), "--no-progress"])
    assert str(manifest) in line and "--force" in line
    manifest.unlink()
    with pytest.raises(ValueError, match="no manifest.json.*--force"):
        run_experiment(path, n_jobs=1, out=out, progress=False, summary=False)
    again = run_experiment(path, n_jobs=1, out=out, progress=False, summary=False, force=True)
    assert again.n_computed == 4 and manifest.is_file()


def test_module_docstring_example_is_a_valid_experiment() -> None:
    import tomllib

    import daqing_sim.experiments.config as config

    block = config.__doc__.split("A minimal file::")[1].split("``daqing-sim run FILE``")[0]
    exp = experiment_from_dict(tomllib.loads("\n".join(line[4:] for line in block.splitlines())), where="doc")
    assert [v.name for v in exp.variants] == ["classic", "no_replacement"]
    assert exp.variants[1].rules == RuleSet(bao_replacement=False)


def test_the_hash_follows_what_expert_plays(monkeypatch):
    """``expert`` is each family's stronger version (issue 38): results of a field that played
    another version under the same name must not be reused, so the hash records what it plays
    where that is not what it played before (expert1)."""
    from daqing_sim.families.daqing import expert as expert1_module
    from daqing_sim.players import registry

    daqing = experiment_from_dict({"name": "x", "strategies": "expert"})
    beijing = experiment_from_dict({"name": "x", "strategies": "expert", "rules": {"family": "beijing"}})
    assert daqing.variants[0].resolved()["plays"] == {"expert": "expert2"}
    assert beijing.variants[0].resolved()["plays"] == {"expert": "expert2"}  # since session 18
    before = daqing.config_hash()
    monkeypatch.setitem(registry.PLAYER_MODULES, "expert", expert1_module)  # as before issue 38
    assert "plays" not in daqing.variants[0].resolved()
    assert daqing.config_hash() != before
