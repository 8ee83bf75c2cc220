"""A cold first call compiles its independent parts side by side: :func:`start`, :func:`wait`.

On a cold numba cache a call may need kernels that do not call each other (the game engine and a
player, the exact advisor's values and its outs): compiled one after the other, the wait is their
sum. :func:`start` compiles one such part in a helper process while this process compiles the
rest; :func:`wait` blocks before the part's first use, which then loads it from numba's disk cache.
So on two cores the wait is the longer part. Nothing is started in a worker process of a parallel
run, with a single usable core, or with ``DAQING_SIM_HELPERS=0``; a helper that fails costs only
the compile this process then makes itself. A helper stops when this process ends.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import subprocess
import sys

_running: dict[str, subprocess.Popen] = {}
# the helper exits when its standard input closes, i.e. when this process ends, however it ends
_WATCH = (
    "import os, sys, threading\n"
    "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n"
)


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def start(part: str, code: str) -> bool:
    """Run ``code`` (Python source compiling ``part``'s kernels) in a helper process, unless
    ``part`` runs already or helpers are off here. Returns whether a helper started."""
    if (
        part in _running
        or os.environ.get("DAQING_SIM_HELPERS") == "0"
        or multiprocessing.current_process().name != "MainProcess"
        or _usable_cores() < 2
    ):
        return False
    env = {**os.environ, "DAQING_SIM_HELPERS": "0"}  # a helper starts no helpers of its own
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", _WATCH + code],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:
        return False
    _running[part] = proc
    return True


def wait(part: str) -> None:
    """Wait until the helper compiling ``part`` (if any) is done."""
    proc = _running.pop(part, None)
    if proc is not None:
        proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()


@atexit.register
def _stop() -> None:
    for proc in _running.values():
        proc.kill()
    _running.clear()


__all__ = ["start", "wait"]
