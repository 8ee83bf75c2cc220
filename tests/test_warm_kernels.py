"""The test command says first, within seconds, that it compiles the kernels and about how long
that takes (``conftest.pytest_configure``, ``warm_kernels.py``); its check of which parts are cold
finds none once they are compiled."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import warm_kernels

ROOT = Path(__file__).resolve().parent.parent


def test_the_test_command_says_it_compiles_before_it_does(tmp_path: Path) -> None:
    """A cold cache (an empty NUMBA_CACHE_DIR): the first line on standard error names the parts to
    compile and the expected wait; the run is stopped there (its compiles would take minutes)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONPATH": str(ROOT)}
    env.pop("DAQING_TEST_WARM", None)
    argv = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-o", "addopts=", "tests/test_layout.py"]
    t0 = time.monotonic()
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )  # its part processes in its group, stopped with it
    seen = b""
    try:
        while b"\n" not in seen and time.monotonic() - t0 < 120:  # a hang guard, not the speed test
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 65536)
                if not chunk:
                    break
                seen += chunk
        took = time.monotonic() - t0
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    first = seen.decode(errors="replace").splitlines()[0] if seen else ""
    total = len(warm_kernels.ORDER)
    assert re.match(rf"numba kernels: compiling (\d+) of {total} parts before the tests", first), first
    assert ", about " in first and "at a time (tests/warm_kernels.py)" in first, first
    assert (
        int(re.search(r"compiling (\d+) of", first).group(1)) >= total - 1
    )  # all but boundscheck's own cache
    assert took < 60, took  # seconds, not the minutes of compiling (10 s on an idle machine)


@pytest.mark.skipif(os.environ.get("DAQING_TEST_WARM") == "0", reason="the kernels were not compiled first")
def test_once_compiled_no_part_is_cold() -> None:
    assert warm_kernels.cold_parts() == []


def test_the_estimate_follows_the_schedule() -> None:
    everything = warm_kernels.estimate(list(warm_kernels.ORDER), 2)
    assert warm_kernels.estimate([], 2) < everything < warm_kernels.estimate(list(warm_kernels.ORDER), 1)
    assert warm_kernels.estimate(list(warm_kernels.ORDER), 1) == pytest.approx(
        sum(warm_kernels.COLD_CPU.values())
    )
