"""The hand kernels and the claim helpers run with numba's bounds checking on
(``NUMBA_BOUNDSCHECK=1``), so an out-of-bounds index in a jitted kernel fails here instead of
reading or writing memory silently (as a chi option on 9s once did in ``claim_take``).

The probe runs in a subprocess with its own ``NUMBA_CACHE_DIR`` in the system's temporary
folder, so the bounds-checked compile never mixes with the normal cache, and later runs load
it (numba keys its cache by source path and stamp; the engine drops kernels older than the
modules they call). Measured on two busy cores: the hand kernels compile in about 20 s of CPU;
complete deals (the engine and every player) take about 100 s more, too much for every run of
the suite, so that part runs only with ``DAQING_TEST_BOUNDSCHECK_DEALS=1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CACHE = Path(tempfile.gettempdir()) / f"daqing_sim-boundscheck-cache-{os.getuid()}"


def _probe(cache: Path, *parts: str, boundscheck: str = "1") -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "NUMBA_BOUNDSCHECK": boundscheck,
        "NUMBA_CACHE_DIR": str(cache),
        "NUMBA_NUM_THREADS": "1",
        "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, str(HERE / "boundscheck_probe.py"), *parts],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,  # hang guard: about 2 minutes on 2 busy cores
    )


def test_hand_kernels_stay_in_bounds():
    proc = _probe(CACHE, "hands")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["boundscheck active", "hand kernels: 60 hands"]


@pytest.mark.skipif(
    os.environ.get("DAQING_TEST_BOUNDSCHECK_DEALS") != "1",
    reason="about 2 CPU minutes of bounds-checked engine compile: set DAQING_TEST_BOUNDSCHECK_DEALS=1",
)
def test_deals_stay_in_bounds():
    proc = _probe(CACHE, "deals")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["boundscheck active", "deals: 60"]


def test_the_probe_fails_when_bounds_are_not_checked(tmp_path):
    proc = _probe(tmp_path / "numba-cache", boundscheck="0")
    assert proc.returncode != 0 and "NUMBA_BOUNDSCHECK is not in effect" in proc.stderr
