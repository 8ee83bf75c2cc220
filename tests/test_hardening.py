"""Issue 13: no silent wrong answer, no traceback, no orphan, no corrupt chunk trusted; runs
that grow; a first run that says it compiles and keeps the repository clean."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pandas as pd
import pytest

from daqing_sim import cli
from daqing_sim.experiments import runner as _runner
from daqing_sim.experiments.results import load_results
from daqing_sim.experiments.runner import run_experiment
from daqing_sim.validation import PARTIAL

ROOT = Path(__file__).resolve().parent.parent
TWO = """\
name = "two"
n_deals = 24
seed = 4
chunk_size = 8
strategies = "random"

[[variants]]
name = "classic"

[[variants]]
name = "no_replacement"
rules = { bao_replacement = false }
"""


def write(tmp_path: Path, text: str = TWO, name: str = "two.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(path: Path, out: Path, **kw: object) -> _runner.RunResult:
    return run_experiment(path, n_jobs=1, out=out, progress=False, summary=False, **kw)


def run_messages(err: str) -> list[str]:
    """The run's own stderr lines: everything before a warning of loky's resource tracker (a
    separate process that may report a semaphore of a worker cut off mid-chunk as leaked
    after the run stopped; joblib's output, not the run's, noted in issue 24's closing note)."""
    lines = err.strip().splitlines()
    cut = next((i for i, x in enumerate(lines) if "loky/backend/resource_tracker.py" in x), len(lines))
    return lines[:cut]


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    tmp = tmp_path_factory.mktemp("clean")
    return load_results(run(write(tmp), tmp).outdir)


# ---------------------------------------------------------------- 2, 3: sizes and workers


def test_huge_plans_are_refused_quickly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import daqing_sim as ds

    path = write(tmp_path)
    t0 = time.monotonic()
    argv = ["run", str(path), "--n-deals", str(10**15), "--dry-run", "--out", str(tmp_path / "r")]
    line = one_line_error(capsys, argv)
    assert "1,000,000,000,000,000 in --n-deals needs" in line and "lower n_deals or raise chunk_size" in line
    with pytest.raises(ValueError, match=r"needs about .* GB of memory.*run_experiment"):
        ds.simulate(10**15)
    big_chunks = TWO.replace("chunk_size = 8", "chunk_size = 1_000_000_000_000")
    with pytest.raises(ValueError, match=r"chunk_size = 1,000,000,000,000 needs about .* per worker"):
        run(write(tmp_path, big_chunks), tmp_path / "r", n_deals=10**12)
    disk = TWO.replace("chunk_size = 8", "chunk_size = 10_000_000")
    with pytest.raises(ValueError, match=r"need about .* of disk.*--out"):
        run(write(tmp_path, disk), tmp_path / "r", n_deals=9 * 10**12)
    assert time.monotonic() - t0 < 60  # hang guard (about 2 s): nothing was computed or allocated
    assert not (tmp_path / "r").exists()


def test_jobs_are_capped_at_the_usable_cores(capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    assert _runner.resolve_jobs(1000) == cores
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"daqing-sim run: --jobs 1000 capped at {cores}, the cores this process may use"]
    assert _runner.resolve_jobs(None) == cores and _runner.resolve_jobs(-1) == cores
    assert _runner.resolve_jobs(1000, "dask") == 1000  # a cluster has other cores
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- 4: signals and orphans


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killed_run_leaves_no_worker_and_resumes_to_the_clean_result(
    tmp_path: Path, clean: pd.DataFrame, sig: signal.Signals
) -> None:
    # 2 x 16 chunks of 64 greedy deals; the run signals itself once 3 chunks are written
    text = TWO.replace("n_deals = 24", "n_deals = 1024").replace("chunk_size = 8", "chunk_size = 64")
    path = write(tmp_path, text.replace("random", "greedy"))
    out = tmp_path / "res"
    outdir = out / "two"
    marker = f"DAQING_SIM_TEST_RUN={uuid.uuid4().hex}"
    env = {**os.environ, "NUMBA_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    env["DAQING_SIM_TEST_RUN"] = marker.split("=")[1]
    env[_runner._STOP_AFTER_ENV] = f"3:{sig.name}"
    argv = ["run", str(path), "--out", str(out), "--jobs", "2", "--no-progress", "--no-summary"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "daqing_sim.cli", *argv], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
    )
    # hang guard only; the worker processes live for seconds (start-up, kernel loading, 3 chunks)
    deadline = time.monotonic() + 300
    workers: set[int] = set()
    while proc.poll() is None and time.monotonic() < deadline:
        workers |= set(_processes_with(marker)) - {proc.pid}
        time.sleep(0.02)
    assert workers, "the run had no worker process"
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 128 + signal.SIGTERM, err
        resume = f"resume with: daqing-sim run {path} --out {out}"
        assert run_messages(err) == [f"daqing-sim: interrupted; finished results are kept; {resume}"], err
        assert json.loads((outdir / "manifest.json").read_text())["status"] == "interrupted"
    else:
        assert proc.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with(marker) == [], "workers of the killed run are still alive"

    kept = len(list(outdir.rglob("chunk-*.parquet")))
    assert kept == 3  # the signal came right after the third chunk and its index entry
    result = run(path, out)  # the lock of the dead run is gone with it
    assert result.n_reused == kept
    from daqing_sim.game.simulate import simulate

    df = load_results(outdir)
    for name, rules in (("classic", {}), ("no_replacement", {"bao_replacement": False})):
        from daqing_sim.rules import RuleSet

        want = simulate(1024, rules=RuleSet(**rules), seed=4, strategies=("greedy",) * 4)
        got = df[df["variant"] == name].drop(columns="variant").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want)


# ---------------------------------------------------------------- 5: one-line errors


def test_unwritable_out_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path)
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    base = ["run", str(path), "--jobs", "1", "--no-progress", "--no-summary"]
    line = one_line_error(capsys, [*base, "--out", str(a_file)])
    assert "cannot write results to" in line and "give --out a directory" in line

    real_mkdir = Path.mkdir

    def read_only(self: Path, *args: object, **kw: object) -> None:
        if str(self).startswith(str(tmp_path / "ro")):
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        real_mkdir(self, *args, **kw)

    monkeypatch.setattr(Path, "mkdir", read_only)
    line = one_line_error(capsys, [*base, "--out", str(tmp_path / "ro")])
    assert "Read-only file system" in line and "read-only; write elsewhere with --out" in line
    monkeypatch.undo()

    def full(self: pd.DataFrame, *args: object, **kw: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    line = one_line_error(capsys, [*base, "--out", str(tmp_path / "full")])
    assert "No space left on device" in line and "the disk is full" in line
    assert not list((tmp_path / "full").rglob("*" + PARTIAL))


def test_load_results_on_a_truncated_chunk_or_a_bare_manifest(tmp_path: Path) -> None:
    outdir = run(write(tmp_path), tmp_path).outdir
    chunk = _runner.chunk_path(outdir, "classic", 1)
    chunk.write_bytes(chunk.read_bytes()[:-100])
    with pytest.raises(ValueError, match=r"chunk 1 of variant classic .*checksum mismatch.*re-run"):
        load_results(outdir)
    manifest = outdir / "manifest.json"
    manifest.write_text(json.dumps({"name": "two"}))
    with pytest.raises(ValueError, match=r"manifest.json has no valid config.*--force"):
        load_results(outdir)


# ---------------------------------------------------------------- 6: corrupt chunks


def test_a_flipped_chunk_is_recomputed_and_said(
    tmp_path: Path, clean: pd.DataFrame, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path)
    outdir = run(path, tmp_path).outdir
    chunk = _runner.chunk_path(outdir, "no_replacement", 2)
    data = bytearray(chunk.read_bytes())
    mid = len(data) // 2
    data[mid : mid + 64] = bytes(b ^ 0xFF for b in data[mid : mid + 64])  # same size, other bytes
    chunk.write_bytes(bytes(data))
    capsys.readouterr()
    again = run(path, tmp_path)
    assert again.n_computed == 1 and again.n_reused == 5
    assert "chunk 2 of variant no_replacement: checksum mismatch, recomputed" in capsys.readouterr().err
    pd.testing.assert_frame_equal(load_results(outdir), clean)


def test_a_chunk_copied_over_another_is_refused(tmp_path: Path) -> None:
    outdir = run(write(tmp_path), tmp_path).outdir
    src, dst = _runner.chunk_path(outdir, "classic", 0), _runner.chunk_path(outdir, "classic", 1)
    shutil.copyfile(src, dst)
    with pytest.raises(ValueError, match="chunk 1 of variant classic.*checksum mismatch"):
        load_results(outdir)
    # Even with its checksum forged into the index, its deal ids give it away.
    index_path = outdir / "chunks" / "classic" / "index.json"
    index = json.loads(index_path.read_text())
    index["chunks"]["1"]["sha256"] = _runner.file_sha256(dst)
    index_path.write_text(json.dumps(index))
    with pytest.raises(ValueError, match=r"chunk 1 of variant classic.*deal ids are not 8\.\.15"):
        load_results(outdir)


# ---------------------------------------------------------------- 7, 9: messages


def test_experiment_file_encoding_and_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(TWO.replace('name = "two"', 'name = "two"\ndescription = "caf\xe9"').encode("latin-1"))
    line = one_line_error(capsys, ["run", str(latin), "--dry-run"])
    assert str(latin) in line and "not UTF-8" in line and "save it as UTF-8" in line
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + TWO.encode("utf-8"))  # as Windows editors save it
    assert cli.main(["run", str(bom), "--dry-run", "--out", str(tmp_path / "r")]) == 0
    line = one_line_error(capsys, ["run", "/dev/null", "--dry-run"])
    assert "/dev/null is not a regular file" in line and "not found" not in line


def test_unreachable_scheduler_fails_fast_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    argv = ["run", str(write(tmp_path)), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"]
    line = one_line_error(capsys, [*argv, "--out", str(tmp_path / "r"), "--no-progress"])
    assert time.monotonic() - t0 < 60  # hang guard: 12x the 5 s connect timeout
    assert "tcp://127.0.0.1:1" in line and "within 5 s" in line


def test_incomplete_hint_gives_the_command_used(tmp_path: Path) -> None:
    path = write(tmp_path)
    out = tmp_path / "elsewhere"
    result = run(path, out, n_deals=16)
    _runner.chunk_path(result.outdir, "classic", 1).unlink()
    with pytest.raises(ValueError) as err:
        load_results(result.outdir)
    assert f"`daqing-sim run {path} --out {out} --n-deals 16`" in str(err.value)


# ---------------------------------------------------------------- 10: runs that grow


def test_more_deals_and_a_new_variant_reuse_every_finished_chunk(
    tmp_path: Path, clean: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, TWO.replace("n_deals = 24", "n_deals = 12"))  # chunks of 8 and 4 deals
    run(path, tmp_path)
    computed: list[tuple[str, int]] = []
    original = _runner.compute_chunk

    def counted(task: _runner.ChunkTask, simulate_fn: object = None) -> pd.DataFrame:
        computed.append((task.variant, task.index))
        return original(task, simulate_fn)

    monkeypatch.setattr(_runner, "compute_chunk", counted)
    grown = TWO + '\n[[variants]]\nname = "kong"\nrules = { kong_fan = true }\n'
    path.write_text(grown, encoding="utf-8")
    result = run(path, tmp_path)
    # chunk 0 of both old variants is kept; their short chunk 1 grows; chunk 2 and the new variant are new
    assert sorted(computed) == sorted(
        [("classic", 1), ("classic", 2), ("no_replacement", 1), ("no_replacement", 2)]
        + [("kong", k) for k in range(3)]
    )
    assert result.n_reused == 2
    df = load_results(result.outdir)
    pd.testing.assert_frame_equal(
        df[df["variant"] != "kong"].reset_index(drop=True),
        clean.assign(
            variant=pd.Categorical(clean["variant"], categories=["classic", "no_replacement", "kong"])
        ),
    )
    # Fewer deals again: served from the bigger chunks, nothing computed.
    computed.clear()
    path.write_text(grown.replace("n_deals = 24", "n_deals = 10"), encoding="utf-8")
    assert run(path, tmp_path).n_computed == 0 and not computed
    small = load_results(result.outdir)
    assert small.groupby("variant", observed=True).size().tolist() == [10, 10, 10]
    # A change that alters existing chunks still needs --force, and names what changed.
    path.write_text(grown.replace("kong_fan = true", "kong_fan = false"), encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"variant kong played under other settings.*rules\.kong_fan.*--force"
    ):
        run(path, tmp_path)


# ---------------------------------------------------------------- 11: first run


def test_cold_kernel_cache_is_announced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from daqing_sim import compile_notice

    assert _runner.compile_seconds_if_cold() is None  # this suite has compiled them already
    # numba reads NUMBA_CACHE_DIR when it is imported: a cold cache is simulated instead
    # (tests/test_compile_notice.py runs a real one in a subprocess)
    monkeypatch.setattr(compile_notice, "_cached", lambda module, name, signature="": False)
    assert _runner.compile_seconds_if_cold() > 0


def test_eta_restarts_after_the_first_chunk() -> None:
    from tqdm import tqdm

    bar = tqdm(total=100, initial=10, file=open(os.devnull, "w"))  # noqa: SIM115
    bar.update(20)
    _runner._restart_eta(bar)
    assert bar.n == 30 and bar.initial == 30 and bar.format_dict["rate"] is None
    bar.close()


def test_tracked_files_do_not_change_between_runs(tmp_path: Path) -> None:
    path = write(tmp_path)
    a = run_experiment(path, n_jobs=1, out=tmp_path / "a", progress=False).outdir
    b = run_experiment(path, n_jobs=2, out=tmp_path / "b", progress=False).outdir
    for name in ("manifest.json", "summary.csv"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert json.loads((a / "timings.json").read_text())["n_jobs"] == 1


def test_run_byproducts_and_quick_looks_are_ignored_by_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    paths = [
        "results/baseline/timings.json",
        "results/baseline/.lock",
        "results/baseline/chunks/base/index.json",
        "results/.quick/baseline-n20000/summary.csv",
    ]
    out = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.split() == paths
    kept = subprocess.run(["git", "check-ignore", "results/baseline/manifest.json"], cwd=ROOT)
    assert kept.returncode == 1  # tracked: the resolved config of the shipped results
