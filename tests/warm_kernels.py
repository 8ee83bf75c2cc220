"""Compile (or load) the package's numba kernels before the tests: ``python tests/warm_kernels.py``.

Each part below compiles one unit of its own (the hand kernels, the batch engine, one player,
the stepped engine, ...), which numba caches on disk. ``conftest.py`` runs the parts in
subprocesses, as many at a time as there are cores, each as soon as the parts it builds on are
cached (``DEPS``), so a cold cache is filled once, on every core at once, and the test workers
then load the kernels instead of each compiling the same ones. ``python tests/warm_kernels.py
PART`` runs one part; with no argument, all of them, in order, in this process.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def _step_to_end(env) -> None:
    """Play a DealEnv out, the caller taking the first legal action (its stepped engine compiles)."""
    env.reset()
    while not env.done:
        env.step(env.legal_actions()[0] if env.legal_actions() else None)


def hand() -> None:
    """The Daqing hand kernels every other part calls (uint8 counts: one signature each)."""
    import daqing_sim as ds

    ds.analyze_hand("13m456p789s中中 [345m]")
    ds.analyze_hand("123m456p789s11m中中")
    ds.daqing_shanten(ds.parse_hand("123m456p789s112m中"))
    from daqing_sim.players.seats import hand_kernels

    hand_kernels()  # the wait set and declaration check as the engine and the players call them


def beijing() -> None:
    """The Beijing and two-player hand kernels."""
    import daqing_sim as ds

    beijing = ds.RuleSet(family="beijing")
    ds.analyze_hand("234m456p678s2233z", rules=beijing)
    ds.score_win("234m456p678s2233z", "3z", rules=beijing, self_draw=False)
    two = ds.RuleSet(family="two_player")
    ds.analyze_hand("19m19p19s1234566z", rules=two)
    ds.analyze_hand("234m456p678s2233z3z", rules=two)
    ds.score_win("234m456p678s2233z", "3z", rules=two, self_draw=False)


def beijing_engine() -> None:
    """The Beijing batch engine (random seats: no table-thinking player) and its stepped engine."""
    import daqing_sim as ds

    beijing = ds.RuleSet(family="beijing")
    ds.simulate(2, strategies=("random",) * 4, seed=0, rules=beijing)
    env = ds.DealEnv(0, 0, players=(None, "random", "random", "random"), rules=beijing)
    _step_to_end(env)


def beijing_players() -> None:
    """The Beijing greedy and expert (their own compiles)."""
    from daqing_sim.players.registry import strategy_code
    from daqing_sim.players.seats import builtin_functions

    for name in ("greedy", "expert"):
        builtin_functions(strategy_code(name), "beijing")


def two_player() -> None:
    """The two-player batch engine, its greedy and expert (their own compiles) and its stepped engine."""
    import daqing_sim as ds
    from daqing_sim.players.registry import strategy_code
    from daqing_sim.players.seats import builtin_functions

    two = ds.RuleSet(family="two_player")
    ds.simulate(2, strategies=("random",) * 2, seed=0, rules=two)
    for name in ("greedy", "expert"):
        builtin_functions(strategy_code(name), "two_player")
    env = ds.DealEnv(0, 0, players=(None, "random"), rules=two)  # the stepped engine
    _step_to_end(env)


def engine() -> None:
    """The batch engine (its table-free players included), compiled once for any field."""
    import daqing_sim as ds

    ds.simulate(2, strategies=("random",) * 4, seed=0)


def _players(*names: str) -> None:
    from daqing_sim.players.registry import strategy_code
    from daqing_sim.players.seats import builtin_functions

    for name in names:
        builtin_functions(strategy_code(name))


def expert() -> None:
    _players("expert")


def greedy() -> None:
    _players("greedy", "jia_hunter", "defensive")


def stepped() -> None:
    """The stepped engine (it shares the batch engine's deal loop, loaded from the cache)."""
    import daqing_sim as ds

    env = ds.DealEnv(0, 0, players=(None, "random", "random", "random"))
    _step_to_end(env)


def advisor() -> None:
    import daqing_sim as ds

    ds.advise("134m456p789s中中 [345m]", k=3)
    ds.advise("13m456p789s中中 [345m]", claim="2m", claim_from=3)
    ds.advise("134m456p789s中中 [345m]", ready=(1,), ponds={1: "19m2p"}, k=1)
    ds.advise("13m456p789s中中 [345m]", k=1)  # a 13-tile hand: the draw's value


def batch() -> None:
    """The batch hand kernels, and those the tests call with their own arrays."""
    sys.path.insert(0, os.path.dirname(__file__))
    from test_evaluator_reference import TABS, kernel_daqing_shanten, kernel_std_batch, kernel_wait_set

    import daqing_sim as ds
    from daqing_sim.hand import kernels as K

    rules = ds.RuleSet()
    counts = ds.parse_hand("123m456p789s112m中").counts
    kernel_wait_set(counts, [], rules)
    kernel_daqing_shanten(counts, [], rules)
    rows = np.zeros((2, 28), dtype=np.uint8)
    rows[:] = counts
    kernel_std_batch(rows)
    ds.standard_shanten(rows)
    K.daqing_shanten_batch_k(rows, rules.encode(), TABS, np.empty(2, dtype=np.int64))
    K.wait_set_batch_k(rows, rules.encode(), TABS, np.empty(2, dtype=np.int64))


def family_advisor() -> None:
    """The exact advisor of the Beijing and two-player families (34 kinds, their own values)."""
    import daqing_sim as ds

    ds.advise("123m456p789s1122z", k=2, rules=ds.RuleSet(family="beijing"))
    ds.advise("123m456p789s1122z", k=2, rules=ds.RuleSet(family="two_player"))


def _search(family: str) -> None:
    """The search evaluator for one family's deals (a deal loop of its own: the rollouts)."""
    import daqing_sim as ds

    n = 2 if family == "two_player" else 4
    search = ("search", {"worlds": 2})
    ds.simulate(1, rules=ds.RuleSet(family=family), strategies=(search,) + ("expert",) * (n - 1), seed=0)


def search_daqing() -> None:
    _search("daqing")


def search_beijing() -> None:
    _search("beijing")


def search_two_player() -> None:
    _search("two_player")


def boundscheck() -> None:
    """The bounds-checked hand kernels of ``test_boundscheck.py`` (a cache of their own)."""
    sys.path.insert(0, os.path.dirname(__file__))
    from test_boundscheck import CACHE, _probe

    _probe(CACHE, "hands")


def jitted() -> None:
    """The example user players (first-class functions of their own)."""
    from daqing_sim.players.examples_jitted import CAUTIOUS, FIRST_TILE

    for player in (CAUTIOUS, FIRST_TILE):
        player.functions()


#: part -> the parts whose kernels it calls (started once those are cached)
DEPS: dict[str, tuple[str, ...]] = {
    "hand": (),
    "beijing": (),
    "beijing_engine": ("beijing",),
    "beijing_players": ("beijing",),
    "two_player": ("beijing",),
    "engine": ("hand",),
    "expert": ("hand",),
    "greedy": ("hand",),
    "stepped": ("engine",),
    "advisor": ("hand",),
    "batch": ("hand",),
    "jitted": ("greedy",),
    "boundscheck": (),
    "family_advisor": ("beijing",),
    "search_daqing": ("stepped", "expert"),
    "search_beijing": ("beijing_engine", "beijing_players"),
    "search_two_player": ("two_player",),
}
#: the order parts start in when several could (longest first)
ORDER = (
    "hand",
    "beijing",
    "engine",
    "beijing_engine",
    "two_player",
    "search_beijing",
    "search_two_player",
    "search_daqing",
    "expert",
    "greedy",
    "stepped",
    "advisor",
    "family_advisor",
    "batch",
    "beijing_players",
    "jitted",
    "boundscheck",
)
PARTS = {name: globals()[name] for name in ORDER}


#: each part's compile on a cold cache, CPU seconds, measured 2026-12-05 on the project's two-core
#: machine (``DAQING_TEST_WARM_LOG=FILE python -m pytest tests/test_notation.py`` on an empty
#: cache: 290 s of CPU in all; the machine was busy, load 6-11, so the wall time was 892 s). A part
#: compiles on one core, so on an idle machine its wall time is about its CPU time.
COLD_CPU: dict[str, float] = {
    "hand": 9,
    "beijing": 15,
    "beijing_engine": 60,
    "beijing_players": 16,
    "two_player": 83,
    "engine": 39,
    "expert": 11,
    "greedy": 7,
    "stepped": 12,
    "advisor": 11,
    "batch": 12,
    "jitted": 5,
    "boundscheck": 12,
    "family_advisor": 15,
    # the first search decision with the engines and players cached (2026-12-05, busy machine)
    "search_daqing": 59,
    "search_beijing": 60,
    "search_two_player": 60,
}
#: a part whose kernels are cached: a process that imports the package and loads them (s)
LOAD_SECONDS = 4.0


def _players_cold(names: tuple[str, ...], family: str = "daqing") -> bool:
    from daqing_sim.compile_notice import is_cached, player_kernels

    return not all(is_cached(*k) for k in player_kernels(names, family))


def _features_cold(*features: str) -> bool:
    from daqing_sim.compile_notice import cold_parts

    return any(cold_parts(f) for f in features)


def _index_files_cold(cache_dir: Path, pattern: str, source: Path) -> bool:
    """Whether no numba index matching ``pattern`` in ``cache_dir`` is newer than ``source``."""
    newest = max((p.stat().st_mtime for p in cache_dir.glob(pattern)), default=None)
    return newest is None or newest < source.stat().st_mtime


def cold_parts() -> list[str]:
    """The parts whose kernels numba's cache lacks (they compile), checked without compiling:
    numba's own index of each part's entry kernels (``daqing_sim.compile_notice``)."""
    import daqing_sim
    from daqing_sim import kernel_cache

    package = Path(daqing_sim.__file__).parent
    caches = dict(zip(kernel_cache._KERNEL_DIRS, kernel_cache._cache_dirs(), strict=True))
    players_cache = caches["players"]
    bounds = Path(tempfile.gettempdir()) / f"daqing_sim-boundscheck-cache-{os.getuid()}"
    hand_dir = package / "hand"
    checks = {
        "hand": lambda: _features_cold("hand"),
        "beijing": lambda: _features_cold("hand_beijing", "hand_two_player"),
        "beijing_engine": lambda: _features_cold("simulate_beijing"),
        "beijing_players": lambda: _players_cold(("greedy", "expert"), "beijing"),
        "two_player": lambda: (
            _features_cold("simulate_two_player") or _players_cold(("greedy", "expert"), "two_player")
        ),
        "engine": lambda: _features_cold("simulate"),
        "expert": lambda: _players_cold(("expert",)),
        "greedy": lambda: _players_cold(("greedy", "jia_hunter", "defensive")),
        "stepped": lambda: _features_cold("stepped"),
        "advisor": lambda: _features_cold("advise", "advise_claim", "advise_draw"),
        "batch": lambda: _features_cold("hand_batch"),
        "jitted": lambda: _index_files_cold(
            players_cache, "examples_jitted.*.nbi", package / "players" / "examples_jitted.py"
        ),
        "family_advisor": lambda: _index_files_cold(
            caches["advisor"], "family_exact.*.nbi", package / "advisor" / "family_exact.py"
        ),
        "search_daqing": lambda: _features_cold("search_daqing"),
        "search_beijing": lambda: _features_cold("search_beijing"),
        "search_two_player": lambda: _features_cold("search_two_player"),
        "boundscheck": lambda: _index_files_cold(
            bounds / f"hand_{hashlib.sha1(str(hand_dir).encode()).hexdigest()}",
            "kernels.*.nbi",
            hand_dir / "kernels.py",
        ),
    }
    return [name for name in ORDER if checks[name]()]


def schedule(seconds: dict[str, float], jobs: int) -> float:
    """The wall time of :func:`run_parts` when part ``p`` takes ``seconds[p]`` on a core of its own:
    the same order, at most ``jobs`` at a time, each once its ``DEPS`` are done.

    >>> schedule({p: 10.0 for p in ORDER}, 16)  # four levels of dependencies
    40.0
    """
    now, waiting, running, done = 0.0, list(ORDER), {}, set()
    while waiting or running:
        for name in [n for n in waiting if all(d in done for d in DEPS[n])]:
            if len(running) >= jobs:
                break
            waiting.remove(name)
            running[name] = now + seconds[name]
        name = min(running, key=running.get)
        now = running.pop(name)
        done.add(name)
    return now


def estimate(cold: list[str], jobs: int) -> float:
    """About how long :func:`run_parts` takes on an idle machine with ``jobs`` cores, the ``cold``
    parts compiling (:data:`COLD_CPU`), the others loading."""
    return schedule({p: COLD_CPU[p] if p in cold else LOAD_SECONDS for p in ORDER}, jobs)


def run_parts(
    jobs: int,
    env: dict[str, str] | None = None,
    report: Callable[[str, list[str], list[str]], None] | None = None,
) -> tuple[float, list[str], dict[str, tuple]]:
    """Run every part in a subprocess, at most ``jobs`` at a time, each once its ``DEPS`` are
    done. ``report(part, done, running)`` is called as each part ends. Returns the wall time, the
    parts that failed (a failing part fails no other: the tests that use its kernels report it)
    and, per part, (start s, end s, CPU s) since the start."""
    script = os.path.abspath(__file__)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    start = time.perf_counter()
    waiting = list(ORDER)
    running: dict[str, tuple[subprocess.Popen, float]] = {}
    done: dict[str, tuple] = {}
    failed: list[str] = []
    ended: list[str] = []
    while waiting or running:
        for name in [n for n in waiting if all(d in done for d in DEPS[n])]:
            if len(running) >= jobs:
                break
            waiting.remove(name)
            proc = subprocess.Popen([sys.executable, script, name], env=env, **quiet)
            running[name] = (proc, time.perf_counter() - start)
        if not running:  # pragma: no cover - a dependency cycle
            raise RuntimeError(f"parts {waiting} wait for each other")
        if ended and report is not None:  # once the next parts run, so that report can name them
            for name in ended:
                report(name, list(done), list(running))
            ended.clear()
        time.sleep(0.2)
        for name, (proc, began) in list(running.items()):
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # the part's own CPU time
            if pid == 0:
                continue
            proc.returncode = os.waitstatus_to_exitcode(status)
            del running[name]
            done[name] = (
                round(began, 1),
                round(time.perf_counter() - start, 1),
                round(usage.ru_utime + usage.ru_stime, 1),
            )
            if proc.returncode != 0:
                failed.append(name)
            ended.append(name)
    for name in ended:
        if report is not None:
            report(name, list(done), [])
    return time.perf_counter() - start, failed, done


if __name__ == "__main__":
    for part in sys.argv[1:] or ORDER:
        PARTS[part]()
