"""The experiment runner with the real engine: identical results for any worker count or
backend, resume after an interruption without recomputing a chunk, Parquet + manifest."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from test_hardening import run_messages

from daqing_sim import cli
from daqing_sim.experiments import runner as _runner
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.results import load_results
from daqing_sim.experiments.runner import run_experiment
from daqing_sim.rules import RuleSet
from daqing_sim.validation import PARTIAL

# Two variants that change outcomes (no bao replacement, and the all-restrictions-off
# push-down game) on 2 x 3 chunks of 8 deals: small enough for seconds.
SMALL = """\
name = "small"
description = "runner test"
n_deals = 24
seed = 11
chunk_size = 8
strategies = "greedy"

[[variants]]
name = "classic"

[[variants]]
name = "no_replacement"
rules = { bao_replacement = false }

[[variants]]
name = "open"
[variants.rules]
require_open = false
require_terminal = false
require_triplet = false
min_concealed_at_ready = 1
"""
N_CHUNKS = 9


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("exp") / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reference(small_file: Path, tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    """The experiment run in one process, chunk after chunk."""
    out = tmp_path_factory.mktemp("ref")
    result = run_experiment(small_file, n_jobs=1, out=out, progress=False, summary=False)
    assert result.n_computed == N_CHUNKS and result.n_reused == 0
    return load_results(result.outdir)


def count_chunk_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, int]]:
    """Count in-process chunk computations by (variant, chunk)."""
    calls: Counter[tuple[str, int]] = Counter()
    original = _runner.compute_chunk

    def counted(task: _runner.ChunkTask, simulate_fn: object = None) -> pd.DataFrame:
        calls[(task.variant, task.index)] += 1
        return original(task, simulate_fn)

    monkeypatch.setattr(_runner, "compute_chunk", counted)
    return calls


def test_results_schema_order_and_common_walls(reference: pd.DataFrame) -> None:
    df = reference
    assert list(df["variant"].cat.categories) == ["classic", "no_replacement", "open"]
    assert df.columns[0] == "variant"
    assert len(df) == 3 * 24
    for _, part in df.groupby("variant", observed=True):
        assert part["deal"].tolist() == list(range(24))
    assert df.equals(df.sort_values(["variant", "deal"], kind="stable").reset_index(drop=True))
    for col in ("outcome", "winner", "pay_0", "pay_3", "ready_turn_0", "strategy_0"):
        assert col in df.columns
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    # The push-down variant is a different game on the same walls: its outcomes differ somewhere.
    classic = df[df["variant"] == "classic"].reset_index(drop=True)
    open_ = df[df["variant"] == "open"].reset_index(drop=True)
    assert not classic["pay_0"].equals(open_["pay_0"])


def test_chunks_equal_direct_simulate(reference: pd.DataFrame) -> None:
    from daqing_sim.game.simulate import simulate

    direct = simulate(
        8, rules=RuleSet(bao_replacement=False), strategies=("greedy",) * 4, seed=11, start=8, n_jobs=1
    )
    got = reference[reference["variant"] == "no_replacement"].iloc[8:16]
    got = got.drop(columns="variant").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, direct.reset_index(drop=True))


def test_two_workers_give_identical_results(
    small_file: Path, reference: pd.DataFrame, tmp_path: Path
) -> None:
    result = run_experiment(small_file, n_jobs=2, out=tmp_path, progress=False, summary=False)
    assert result.n_computed == N_CHUNKS
    pd.testing.assert_frame_equal(load_results(result.outdir), reference)


def test_dask_cluster_gives_identical_results(
    small_file: Path, reference: pd.DataFrame, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        result = run_experiment(
            small_file,
            out=tmp_path,
            progress=False,
            summary=False,
            backend="dask",
            scheduler=cluster.scheduler_address,
        )
    assert result.n_computed == N_CHUNKS
    pd.testing.assert_frame_equal(load_results(result.outdir), reference)


class Interrupt(KeyboardInterrupt):
    pass


def test_interrupted_run_resumes_without_recomputing(
    small_file: Path, reference: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_chunk_calls(monkeypatch)
    seen: list[tuple[str, int]] = []

    def stop_after_four(variant: str, index: int) -> None:
        seen.append((variant, index))
        if len(seen) == 4:
            raise Interrupt  # as Ctrl-C right after the fourth chunk was written

    with pytest.raises(Interrupt):
        run_experiment(
            small_file, n_jobs=1, out=tmp_path, progress=False, summary=False, on_chunk=stop_after_four
        )
    outdir = tmp_path / "small"
    first = dict(calls)
    assert sum(first.values()) == 4
    assert json.loads((outdir / "manifest.json").read_text())["status"] == "interrupted"
    with pytest.raises(ValueError, match="incomplete: 5 of 9 chunks missing"):
        load_results(outdir)
    assert len(load_results(outdir, allow_partial=True)) == 4 * 8

    # A half-written chunk left by a killed process never counts and is cleaned.
    victim = _runner.chunk_path(outdir, "open", 2)
    stale = victim.with_name(victim.name + PARTIAL)
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_bytes(b"PAR1 half a file")

    result = run_experiment(small_file, n_jobs=1, out=outdir.parent, progress=False, summary=False)
    assert result.n_reused == 4 and result.n_computed == N_CHUNKS - 4
    assert set(calls) == {(v, k) for v in ("classic", "no_replacement", "open") for k in range(3)}
    assert all(n == 1 for n in calls.values()), calls  # no chunk computed twice
    assert not stale.exists()
    assert not list(outdir.rglob("*" + PARTIAL))
    pd.testing.assert_frame_equal(load_results(outdir), reference)

    # A third run computes nothing.
    calls.clear()
    again = run_experiment(small_file, n_jobs=1, out=outdir.parent, progress=False, summary=False)
    assert again.n_computed == 0 and not calls


def test_corrupt_or_short_chunk_is_recomputed(
    small_file: Path, reference: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    outdir = tmp_path / "small"
    _runner.chunk_path(outdir, "classic", 1).write_bytes(b"not parquet")
    short = _runner.chunk_path(outdir, "open", 0)
    pd.read_parquet(short).iloc[:3].to_parquet(short, index=False)
    calls = count_chunk_calls(monkeypatch)
    result = run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    assert set(calls) == {("classic", 1), ("open", 0)} and result.n_computed == 2
    pd.testing.assert_frame_equal(load_results(outdir), reference)


def test_manifest_records_run(small_file: Path, tmp_path: Path) -> None:
    result = run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    manifest = json.loads((result.outdir / "manifest.json").read_text())
    exp = load_experiment(small_file)
    assert manifest["config_hash"] == exp.config_hash()
    assert manifest["status"] == "complete"
    assert manifest["config"]["variants"][1]["rules"]["bao_replacement"] is False
    assert manifest["config"]["n_deals"] == 24
    assert manifest["package_version"]
    # What changes from run to run is kept out of the manifest (tracked in git for results/); so
    # is the engine fingerprint, which changes with any edit of the engine: the chunk index,
    # which decides reuse, holds it
    changing = {"started", "finished", "seconds", "deals_per_s", "git_commit", "n_jobs", "engine_fingerprint"}
    assert not changing & set(manifest)
    timings = json.loads((result.outdir / "timings.json").read_text())
    assert timings["deals_computed"] == 3 * 24 and timings["deals_per_s"] > 0
    assert timings["started"] <= timings["finished"]
    index = json.loads((result.outdir / "chunks" / "open" / "index.json").read_text())
    assert index["identity"]["rules"]["require_open"] is False and index["identity"]["seed"] == 11
    assert index["engine_fingerprint"] == _runner.engine_fingerprint()
    entry = index["chunks"]["2"]
    assert entry == {
        "start": 16,
        "rows": 8,
        "sha256": hashlib.sha256(_runner.chunk_path(result.outdir, "open", 2).read_bytes()).hexdigest(),
    }
    files = sorted(p.relative_to(result.outdir).as_posix() for p in result.outdir.rglob("*.parquet"))
    assert files[0] == "chunks/classic/chunk-000000.parquet" and len(files) == N_CHUNKS
    assert not [p for p in os.listdir(result.outdir) if p.endswith(PARTIAL)]


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("outdir", sorted(p.parent.name for p in (ROOT / "results").glob("*/manifest.json")))
def test_shipped_manifests_are_what_a_run_writes_now(outdir: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Running a shipped experiment rewrites its tracked manifest.json with the same bytes (the
    README's main job leaves ``git status`` clean): no field of it may change while the plan does
    not. Regenerate a manifest by running its experiment after changing what it records."""
    monkeypatch.chdir(ROOT)
    path = ROOT / "results" / outdir / "manifest.json"
    shipped = json.loads(path.read_text(encoding="utf-8"))
    experiment = load_experiment(shipped["source"])
    run = _runner._Run(experiment, path.parent, 1, "loky", None, None, None)
    assert run.manifest("complete") == shipped
    text = json.dumps(run.manifest("complete"), indent=2, ensure_ascii=False) + "\n"
    assert path.read_text(encoding="utf-8") == text


def test_the_manifest_names_the_file_as_given_from_any_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    names = [
        "experiments/baseline.toml",
        "./experiments/baseline.toml",
        str(ROOT / "experiments/baseline.toml"),
    ]
    assert {_runner.manifest_source(n) for n in names} == {"experiments/baseline.toml"}
    monkeypatch.chdir(tmp_path)  # a file outside the current directory keeps its absolute path
    assert _runner.manifest_source(names[2]) == (ROOT / "experiments/baseline.toml").as_posix()


def test_a_run_says_its_plan_and_the_defaults_it_took(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.toml"
    path.write_text('name = "plain"\nchunk_size = 8\nstrategies = "greedy"\n', encoding="utf-8")
    argv = ["run", str(path), "--n-deals", "16", "--jobs", "1", "--out", str(tmp_path), "--no-summary"]
    assert cli.main(argv) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith("plain: 16 deals x 1 variant, seed 0, 2 of 2 chunks (8 deals each)"), first
    assert first.endswith("(the file sets no seed: default seed 0)"), first  # --n-deals replaced n_deals
    assert cli.main(["run", str(path), "--dry-run", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "defaults:  the file sets no n_deals or seed: defaults 10,000 deals, seed 0" in out


def test_the_closing_line_gives_the_whole_wall_time_first(
    small_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    argv = ["run", str(small_file), "--jobs", "1", "--out", str(tmp_path), "--no-progress"]
    t0 = time.perf_counter()
    assert cli.main(argv) == 0
    took = time.perf_counter() - t0
    line = capsys.readouterr().out.splitlines()[0]
    wall = float(re.search(r"reused in ([0-9.]+) s in all \(", line).group(1))
    assert "simulating" in line and wall <= took + 0.05  # the line rounds to 0.1 s
    chunks = json.loads((tmp_path / "small" / "timings.json").read_text())["seconds"]
    assert wall > chunks  # the summary and plots are in the whole, not in the chunks' time


def test_compiling_shows_which_part_and_how_many_are_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from daqing_sim import compile_notice

    seen: list[str] = []

    def fake_part(part: str, family: str, parent_pid: int | None = None) -> tuple[str, float]:
        seen.append(part)
        return part, 0.0

    monkeypatch.setattr(compile_notice, "cold_parts", lambda feature, players, family: [feature, "expert"])
    monkeypatch.setattr(_runner, "_compile_part", fake_part)
    took = _runner.precompile(["expert"] * 4, 1, "daqing", progress=True)
    assert seen == ["hand", "engine", "expert"] and set(took) == set(seen)
    err = capsys.readouterr().err.replace("\r", "\n")
    assert "compiling: 0/3 parts done [00:00], now: hand kernels" in err
    assert "compiling: 1/3 parts done" in err and "now: engine" in err
    assert "compiling: 3/3 parts done" in err


def test_cli_run_quick_look_with_summary(
    small_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", str(small_file), "--n-deals", "16", "--jobs", "1", "--out", str(tmp_path), "--no-progress"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    outdir = tmp_path / ".quick" / "small-n16"  # a quick look never touches results of the full size
    assert "6 chunk(s) computed" in out and str(outdir) in out
    assert (outdir / "summary.csv").is_file()
    summary = pd.read_csv(outdir / "summary.csv")
    assert len(summary) >= 3
    assert not (tmp_path / "small").exists()
    df = load_results(outdir)
    assert len(df) == 3 * 16
    assert cli.main(argv) == 0
    assert "0 chunk(s) computed, 6 reused" in capsys.readouterr().out


def test_missing_dask_is_a_clear_error(
    small_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails as if not installed
    argv = ["run", str(small_file), "--backend", "dask", "--out", str(tmp_path), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "pip install 'daqing_sim[dask]'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "small").exists()  # refused before anything was written


def counting(calls: list[int], compute):
    def count(task, simulate_fn=None):
        calls.append(task.index)
        return compute(task, simulate_fn)

    return count


def test_ctrl_c_keeps_finished_chunks_and_resume_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real SIGINT to ``daqing-sim run --jobs 2`` once it has written 2 chunks (the run sends
    it to itself, see ``runner._STOP_AFTER_ENV``): exit 130, no temp file, then resume."""
    from daqing_sim.game.simulate import simulate

    path = tmp_path / "sigint.toml"
    path.write_text('name = "sigint"\nn_deals = 4000\nseed = 3\nchunk_size = 125\n', encoding="utf-8")
    out = tmp_path / "res"
    outdir = out / "sigint"
    argv = ["run", str(path), "--out", str(out), "--jobs", "2", "--no-progress", "--no-summary"]
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "NUMBA_NUM_THREADS": "1",
        "PYTHONPATH": str(root),
        _runner._STOP_AFTER_ENV: "2:SIGINT",
    }
    # a child inherits an ignored SIGINT (pytest-xdist workers ignore it), and Python then raises
    # no KeyboardInterrupt: give the run the disposition of a terminal's foreground job
    proc = subprocess.Popen(
        [sys.executable, "-m", "daqing_sim.cli", *argv],
        cwd=root,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    _, err = proc.communicate(timeout=300)  # hang guard only
    assert proc.returncode == 130, err
    command = f"daqing-sim run {path} --out {out}"
    assert run_messages(err) == [
        f"daqing-sim: interrupted; finished results are kept; resume with: {command}"
    ]
    assert not list(outdir.rglob("*" + PARTIAL))
    kept = {int(p.stem.split("-")[1]) for p in outdir.rglob("chunk-*.parquet")}
    assert len(kept) == 2
    assert json.loads((outdir / "manifest.json").read_text())["status"] == "interrupted"

    computed: list[int] = []
    monkeypatch.setattr(_runner, "compute_chunk", counting(computed, _runner.compute_chunk))
    # the command it printed, as given: resumes the run
    assert cli.main([*shlex.split(command)[1:], "--jobs", "1", "--no-progress", "--no-summary"]) == 0
    assert sorted(computed + sorted(kept)) == list(range(32))  # each chunk computed exactly once
    assert "30 chunk(s) computed, 2 reused" in capsys.readouterr().out
    df = load_results(outdir)
    expected = simulate(4000, seed=3)
    pd.testing.assert_frame_equal(df.drop(columns="variant"), expected)


def test_load_results_selects_columns_and_variants(
    small_file: Path, reference: pd.DataFrame, tmp_path: Path
) -> None:
    outdir = run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False).outdir
    df = load_results(outdir, columns=["pay_0", "outcome"], variants=["open", "classic"])
    assert list(df.columns) == ["variant", "deal", "pay_0", "outcome"]
    assert list(df["variant"].cat.categories) == ["open", "classic"]
    for name in ("open", "classic"):
        want = reference.loc[reference["variant"] == name, ["deal", "pay_0", "outcome"]].reset_index(
            drop=True
        )
        got = df.loc[df["variant"] == name, ["deal", "pay_0", "outcome"]].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want)
    with pytest.raises(ValueError, match="pay_9.*columns: deal"):
        load_results(outdir, columns=["pay_9"])
    with pytest.raises(ValueError, match="variant.*nope.*variants: classic"):
        load_results(outdir, variants=["nope"])


def test_a_second_run_of_the_same_results_is_refused(small_file: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "small"
    outdir.mkdir()
    lock = outdir / _runner.LOCK
    holder = subprocess.Popen(  # another run holding the lock
        [
            sys.executable,
            "-c",
            f"import filelock, time; lock = filelock.FileLock({str(lock)!r}); lock.acquire(); "
            "print('held', flush=True); time.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ValueError, match="being written by another run"):
            run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
        assert not (outdir / "manifest.json").exists()
    finally:
        holder.kill()  # SIGKILL: no chance to clean up, yet the kernel releases its lock
        holder.wait()
    result = run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    assert result.n_computed == N_CHUNKS


def test_chunks_of_another_engine_are_not_reused(small_file: Path, tmp_path: Path) -> None:
    first = run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    path = first.outdir / "chunks" / "open" / "index.json"
    index = json.loads(path.read_text())
    index["engine_fingerprint"] = "0123456789abcdef"  # as written by an older version
    path.write_text(json.dumps(index))
    with pytest.raises(ValueError, match="another version of the simulator.*--force"):
        run_experiment(small_file, n_jobs=1, out=tmp_path, progress=False, summary=False)
    again = run_experiment(small_file, n_jobs=1, out=tmp_path, force=True, progress=False, summary=False)
    assert again.n_computed == N_CHUNKS and again.n_reused == 0


def test_engine_fingerprint_follows_the_engine_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import daqing_sim

    package = Path(daqing_sim.__file__).parent
    real = _runner.engine_fingerprint()
    shutil.copytree(package, tmp_path / "pkg", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_runner, "__file__", str(tmp_path / "pkg" / "experiments" / "runner.py"))
    try:
        _runner.engine_fingerprint.cache_clear()
        copy = _runner.engine_fingerprint()
        with (tmp_path / "pkg" / "players" / "strategies.py").open("a") as f:
            f.write("\n# changed\n")
        _runner.engine_fingerprint.cache_clear()
        changed = _runner.engine_fingerprint()
    finally:
        _runner.engine_fingerprint.cache_clear()
    assert copy == real != changed
