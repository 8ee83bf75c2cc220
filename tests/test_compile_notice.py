"""Every command and public function that compiles says so first, once, and only then.

The cold cases run in a subprocess with an empty ``NUMBA_CACHE_DIR`` and are stopped as soon as
the notice is printed (before the compile it announces): what is tested is that the user hears
of the wait before it starts.
"""

from __future__ import annotations

import logging
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import daqing_sim as ds
from daqing_sim import compile_notice

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "daqing_sim: compiling "
CLI = [sys.executable, "-m", "daqing_sim.cli"]
PY = [sys.executable, "-c"]

COLD = {
    "hand": [*CLI, "hand", "13m456p789s中中 [345m]"],
    "hand two_player": [*CLI, "hand", "19m19p19s1234566z7z", "--rules", "family=two_player"],
    "advise": [*CLI, "advise", "134m456p789s中中 [345m]", "--k", "1"],
    "advise --claim": [*CLI, "advise", "13m456p789s中中 [345m]", "--claim", "2m", "--claim-from", "3"],
    "advise --method simulate": [*CLI, "advise", "134m456p789s中中 [345m]", "--method", "simulate"],
    "replay": [*CLI, "replay", "--seed", "0", "--deal", "1"],
    "tournament": [*CLI, "tournament", "greedy", "random", "random", "random", "--walls", "1"],
    "run": [*CLI, "run", str(ROOT / "experiments" / "baseline.toml"), "--n-deals", "64", "--out", "{tmp}"],
    "bench": [*CLI, "bench", "--n", "100", "--skip-deals", "--skip-advise"],
    "ds.advise": [*PY, "import daqing_sim as ds; ds.advise('134m456p789s中中 [345m]', k=1)"],
    "ds.simulate": [*PY, "import daqing_sim as ds; ds.simulate(2, seed=0)"],
    "ds.deal_log": [*PY, "import daqing_sim as ds; ds.deal_log(0, 0)"],
    "ds.DealEnv": [*PY, "import daqing_sim as ds; ds.DealEnv(0, 0).reset()"],
    "ds.analyze_hand": [*PY, "import daqing_sim as ds; ds.analyze_hand('13m456p789s中中 [345m]')"],
}


def _stderr_until_notice(argv: list[str], env: dict[str, str], timeout: float = 120.0) -> str:
    """Standard error of ``argv`` up to the notice (then the process is stopped) or its end."""
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen = b""
    deadline = time.monotonic() + timeout  # a hang guard, not a speed test
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 65536)
                if not chunk:
                    break
                seen += chunk
                if NOTICE.encode() in seen and b"\n" in seen.split(NOTICE.encode(), 1)[1]:
                    break
            elif proc.poll() is not None:
                break
    finally:
        proc.kill()
        proc.wait()
    return seen.decode(errors="replace")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1", **extra}


@pytest.mark.parametrize("name", list(COLD))
def test_a_cold_cache_is_announced_before_compiling(name: str, tmp_path: Path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path / "out")) for a in COLD[name]]
    err = _stderr_until_notice(argv, _env(NUMBA_CACHE_DIR=str(tmp_path / "numba")))
    lines = [x for x in err.splitlines() if NOTICE in x]
    assert len(lines) == 1, err[-2000:]
    assert "first use only, about " in lines[0] and "; numba caches them on disk)" in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "name", ["hand", "advise", "advise --claim", "replay", "ds.simulate", "ds.DealEnv", "ds.analyze_hand"]
)
def test_a_warm_cache_says_nothing(name: str) -> None:
    env = _env()
    for _ in range(2):  # a second run only when the first filled the cache (not compiled here yet)
        proc = subprocess.run(COLD[name], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-2000:]
        if NOTICE not in proc.stderr:
            break
    assert NOTICE not in proc.stderr


def test_the_notice_is_logged_once_per_feature(monkeypatch, caplog) -> None:
    monkeypatch.setattr(compile_notice, "_cached", lambda module, name, signature="": False)
    monkeypatch.setattr(compile_notice, "_done", set())
    with caplog.at_level(logging.WARNING, logger="daqing_sim.compile"):
        compile_notice.announce("advise")
        compile_notice.announce("advise")
        compile_notice.announce("simulate")
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert messages[0].startswith("daqing_sim: compiling the exact advisor's kernels (first use only, about ")
    assert "game engine" in messages[1]


def test_cold_seconds_add_up_the_cold_kernels(monkeypatch) -> None:
    cold = {("daqing_sim.advisor.exact", "outs_k")}
    monkeypatch.setattr(
        compile_notice, "_cached", lambda module, name, signature="": (module, name) not in cold
    )
    monkeypatch.setattr(compile_notice, "_tables_cached", lambda: True)
    assert (
        compile_notice.compile_seconds("advise")
        == compile_notice.SECONDS[("daqing_sim.advisor.exact", "outs_k")]
    )
    assert compile_notice.compile_seconds("hand") == 0
    monkeypatch.setattr(compile_notice, "_tables_cached", lambda: False)
    assert (
        compile_notice.compile_seconds("advise")
        == compile_notice.SECONDS[("daqing_sim.advisor.exact", "outs_k")] + compile_notice.TABLE_SECONDS
    )
    assert compile_notice.compile_seconds("hand") == 0  # no kernel to compile: the tables alone say nothing


def test_a_used_feature_reads_as_cached() -> None:
    ds.analyze_hand("13m456p789s中中 [345m]")  # compiled (or loaded) and on disk now
    assert compile_notice.will_compile("hand") is False
    with pytest.raises(ValueError, match="unknown feature 'nope'"):
        compile_notice.will_compile("nope")
