"""Say so, once and before it starts, when a call is about to compile numba kernels.

The first use of a feature on a fresh install (or after its source changed) compiles its
kernels, which takes from a few seconds to minutes; later runs load them from numba's disk
cache. :func:`announce` checks numba's cache index of the feature's entry kernels (the same
check numba makes before it loads them: an index written for this source file and this
function's code) and, when one would be compiled, logs one line on the ``daqing_sim``
logger at WARNING level, so that it shows on standard error, in a terminal and in a notebook,
with no logging set up. It says nothing when the kernels are cached, and each feature at most
once per process. Silence it with ``logging.getLogger("daqing_sim.compile").setLevel(logging.ERROR)``.

The expected times were measured on a cold cache (``tools/compile_timings.py``) on the
project's shared two-core machine, as the time on an idle machine; on a busy one the line says
both, the longer one scaled by the load (:func:`busy_factor`).

>>> announce("no such feature")
Traceback (most recent call last):
...
ValueError: unknown feature 'no such feature': one of advise, advise_claim, ...
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass

from daqing_sim.families import FAMILY_PACKAGES, family_spec

logger = logging.getLogger("daqing_sim.compile")

#: entry kernel -> about how long its first compile takes, callees included (seconds, cold
#: cache, measured 2026-12-01 by ``tools/compile_timings.py`` on the busy two-core machine)
SECONDS = {
    ("daqing_sim.hand.kernels", "daqing_shanten_k"): 17,
    ("daqing_sim.hand.kernels", "wait_set_k"): 3,
    ("daqing_sim.hand.kernels", "std_shanten_k"): 1,
    # the batch kernels: not measured, taken as long as their one-hand kernels
    ("daqing_sim.hand.kernels", "daqing_shanten_batch_k"): 17,
    ("daqing_sim.hand.kernels", "wait_set_batch_k"): 3,
    ("daqing_sim.hand.kernels", "std_shanten_batch_k"): 1,
    # the first exact advise on a fresh clone: 8.5 s wall, 15 s CPU (2026-12-02, idle machine). The
    # wait set and outs_k compile in a helper process while this one builds the tables and compiles
    # the values, so each kernel counts the wall time it adds; the claim's two value kernels share
    # the search (a claim: 9.4 s)
    ("daqing_sim.advisor.exact", "discard_values_k"): 4,
    ("daqing_sim.advisor.exact", "outs_k"): 2,
    ("daqing_sim.advisor.exact", "state_value_k"): 2,
    # the engines hold no table-thinking player (players.seats: each compiles on its own, below);
    # the batch engine and the expert: CPU seconds, inclusive, measured 2026-12-05 by
    # tools/compile_timings.py main-job (71 s of CPU compiling in all, one process; a compile runs
    # on one core, so its CPU time is its wall time on an idle machine; at load 8 it took 465 s)
    ("daqing_sim.game.handle", "step_handle_k"): 40,
    ("daqing_sim.game.engine", "play_batch_k"): 40,
    # the search evaluator holds a deal loop of its own (the rollouts): 59 s of CPU for the first
    # Daqing decision, measured 2026-12-05 with the engine and the expert cached
    ("daqing_sim.search.evaluator", "evaluate_k"): 60,
}
#: building the evaluator's lookup tables when their disk cache is empty (their kernel compiles
#: only then, so it is counted here, not as an entry kernel)
TABLE_SECONDS = 3  # about 2 s of CPU since the build moved to numba (2026-12-02)

_HAND = (
    ("daqing_sim.hand.kernels", "daqing_shanten_k"),
    ("daqing_sim.hand.kernels", "wait_set_k"),
    ("daqing_sim.hand.kernels", "std_shanten_k"),
)
_STEPPED = (("daqing_sim.game.handle", "step_handle_k"),)
_BATCH = (("daqing_sim.game.engine", "play_batch_k"),)
_SEARCH = (("daqing_sim.search.evaluator", "evaluate_k"),)


@dataclass(frozen=True)
class Feature:
    """What a feature compiles: a name for people and its entry kernels."""

    what: str
    kernels: tuple[tuple[str, str], ...]
    signature: str = ""  # a text the compiled signature must hold (a family's deal state type)


#: feature -> what it compiles (the kernels numba compiles at the top level on its first use)
FEATURES = {
    "hand": Feature("the hand evaluator's kernels", _HAND),
    "advise": Feature(
        "the exact advisor's kernels",
        (("daqing_sim.advisor.exact", "discard_values_k"), ("daqing_sim.advisor.exact", "outs_k")),
    ),
    "advise_draw": Feature(
        "the exact advisor's kernels",
        (("daqing_sim.advisor.exact", "state_value_k"), ("daqing_sim.advisor.exact", "outs_k")),
    ),
    "advise_claim": Feature(
        "the exact advisor's kernels",
        (
            ("daqing_sim.advisor.exact", "state_value_k"),
            ("daqing_sim.advisor.exact", "discard_values_k"),
            ("daqing_sim.advisor.exact", "outs_k"),
        ),
    ),
    "advise_simulate": Feature(
        "the simulated advisor's kernels (the stepped engine and its players)",
        (*_STEPPED, ("daqing_sim.advisor.exact", "outs_k")),
    ),
    "hand_batch": Feature(
        "the hand evaluator's batch kernels",
        (
            ("daqing_sim.hand.kernels", "daqing_shanten_batch_k"),
            ("daqing_sim.hand.kernels", "wait_set_batch_k"),
            ("daqing_sim.hand.kernels", "std_shanten_batch_k"),
        ),
    ),
    "player_defaults": Feature(
        "the greedy claim and kong that Python players default to",
        (("daqing_sim.families.daqing.greedy", "claim"), ("daqing_sim.families.daqing.greedy", "kong")),
    ),
    "stepped": Feature("the stepped game engine and the players' kernels", _STEPPED),
}


def _kernel(family: str, module: str) -> str:
    """A spec's module of a kernel: a role of the family's package, or a module of the package."""
    return module if module.startswith("daqing_sim.") else f"{FAMILY_PACKAGES[family]}.{module}"


def _add_families() -> None:
    """Each family's features and figures, from its spec: ``hand_<name>`` (its hand kernels),
    the batch engine compiled for its deal state (``simulate``, the first family's, and
    ``simulate_<name>``), the search evaluator for it (``search_<name>``), and its players'
    kernels' seconds."""
    for i, family in enumerate(FAMILY_PACKAGES):
        spec = family_spec(family)
        for module, kernel, seconds in (*spec.hand_kernels, *spec.player_seconds):
            SECONDS[(_kernel(family, module), kernel)] = seconds
        if spec.hand_kernels:
            kernels = tuple((_kernel(family, m), k) for m, k, _ in spec.hand_kernels)
            FEATURES[f"hand_{family}"] = Feature(f"the {spec.title} hand kernels", kernels)
        if spec.state_type:
            signature = f", {spec.state_type}("
            games = f"{spec.title} {'games' if spec.seats == 2 else 'deals'}"
            what = "the game engine and the players' kernels"
            if i == 0:
                FEATURES["simulate"] = Feature(what, _BATCH, signature)
            else:
                FEATURES[f"simulate_{family}"] = Feature(f"{what} for {games}", _BATCH, signature)
            FEATURES[f"search_{family}"] = Feature(f"the search evaluator for {games}", _SEARCH, signature)


_add_families()

_done: set[str] = set()


def _cached(module: str, name: str, signature: str = "") -> bool:
    """Whether numba's cache holds ``module.name`` compiled from the current source (for a
    signature whose text holds ``signature``)."""
    disp = getattr(importlib.import_module(module), name)
    cache = getattr(disp, "_cache", None)
    index_file = getattr(cache, "_cache_file", None)
    if index_file is None:  # not a cache=True dispatcher (or numba changed): no way to tell
        return True
    try:
        index = index_file._load_index()
    except Exception:  # an unreadable index is recompiled by numba: say so
        return False
    code = hashlib.sha256(disp.py_func.__code__.co_code).hexdigest()
    return any(
        isinstance(key, tuple) and len(key) == 3 and key[2][0] == code and signature in str(key[0])
        for key in index
    )


def is_cached(module: str, name: str) -> bool:
    """Whether numba's disk cache holds the kernel ``module.name`` compiled from its source."""
    return _cached(module, name)


def _tables_cached() -> bool:
    from daqing_sim.hand.tables import cache_path

    return cache_path().exists()


def player_kernels(players: Sequence[str], family: str = "daqing") -> list[tuple[str, str]]:
    """The entry kernels of the built-in players among ``players`` (names) that the engine calls
    through its function table (:mod:`daqing_sim.players.seats`), each compiled on its own."""
    if not players:  # a hand or advisor feature: the players layer stays unimported
        return []
    from daqing_sim.players.registry import PLAYER_NAMES
    from daqing_sim.players.seats import TABLE_FREE_CODES, player_module, py_functions

    table = [p for p in dict.fromkeys(players) if p in PLAYER_NAMES]
    table = [p for p in table if PLAYER_NAMES.index(p) not in TABLE_FREE_CODES]
    out = []
    for p in table:
        module = player_module(PLAYER_NAMES.index(p), family)
        if module is None:  # the family's players.seat_functions
            out += [(f.__module__, f.__name__) for f in py_functions(PLAYER_NAMES.index(p), family)]
        else:
            out += [(module.__name__, fn) for fn in ("discard", "claim", "kong")]
    return out


def cold_parts(feature: str, players: Sequence[str] = (), family: str = "daqing") -> list[str]:
    """What the first use of ``feature`` with ``players`` compiles, as parts compiled on their
    own: ``feature`` itself when its kernels are cold, then each cold player's name."""
    _check(feature)
    sig = FEATURES[feature].signature
    parts = [feature] if any(not _cached(*k, sig) for k in FEATURES[feature].kernels) else []
    return parts + [
        p for p in dict.fromkeys(players) if any(not _cached(*k) for k in player_kernels([p], family))
    ]


def _check(feature: str) -> None:
    if feature not in FEATURES:
        raise ValueError(f"unknown feature {feature!r}: one of {', '.join(sorted(FEATURES))}")


def _makespan(parts: Sequence[float], jobs: int) -> float:
    """The wall time of ``parts`` (seconds each) on ``jobs`` processes, longest first.

    >>> _makespan([40, 30, 20], 2), _makespan([40, 30, 20], 1)
    (50.0, 90.0)
    """
    loads = [0.0] * max(1, jobs)
    for p in sorted(parts, reverse=True):
        loads[loads.index(min(loads))] += p
    return max(loads)


def compile_seconds(feature: str, players: Sequence[str] = (), family: str = "daqing", jobs: int = 1) -> int:
    """About how long the first use of ``feature`` compiles on an idle machine, 0 when its kernels
    are cached (and the lookup tables built); ``players``: the built-in players the call seats
    (those that compile on their own are counted, once each); ``jobs``: processes compiling the
    feature and each player side by side (``daqing-sim run``), one after the other with 1.

    >>> compile_seconds("hand") >= 0
    True
    """
    _check(feature)
    sig = FEATURES[feature].signature
    parts = [[k for k in FEATURES[feature].kernels if not _cached(*k, sig)]]
    parts += [[k for k in player_kernels([p], family) if not _cached(*k)] for p in dict.fromkeys(players)]
    seconds = [sum(SECONDS.get(k, 1) for k in part) for part in parts if part]
    if not seconds:
        return 0
    return round(_makespan(seconds, jobs)) + (0 if _tables_cached() else TABLE_SECONDS)


def will_compile(feature: str) -> bool:
    """Whether the first use of ``feature`` in this process compiles kernels (a cold cache).

    >>> isinstance(will_compile("hand"), bool)
    True
    """
    return compile_seconds(feature) > 0


def announce(feature: str, players: Sequence[str] = (), family: str = "daqing", jobs: int = 1) -> None:
    """Log one line if ``feature`` (with the built-in ``players`` it seats) is about to compile,
    with about how long it takes idle and, on a busy machine, at its load (``jobs``: the
    processes compiling side by side, as :func:`compile_seconds`); at most once per feature and
    process."""
    _check(feature)
    # worker processes of a parallel run stay quiet: the process that started them has said it
    if feature in _done or multiprocessing.current_process().name != "MainProcess":
        return
    _done.add(feature)
    seconds = compile_seconds(feature, players, family, jobs)
    if seconds:
        logger.warning(
            "daqing_sim: compiling %s (first use only, %s; numba caches them on disk)",
            FEATURES[feature].what,
            say_seconds(seconds, busy_factor(jobs)),
        )


def _round(seconds: int) -> int:
    return seconds if seconds < 10 else 5 * round(seconds / 5)


def _usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def busy_factor(jobs: int = 1, cores: int | None = None, load: float | None = None) -> float:
    """How many times longer ``jobs`` compiling processes take than on an idle machine, when
    ``load`` other processes (default: the 1-minute load average) want the ``cores`` (default: the
    usable ones): each then gets ``cores / (load + jobs)`` of a core, when that is below one.

    >>> busy_factor(2, cores=2, load=0.0), busy_factor(2, cores=2, load=4.0)
    (1.0, 3.0)
    """
    cores = _usable_cores() if cores is None else cores
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # pragma: no cover - no load average on this system
            load = 0.0
    return max(1.0, (load + min(jobs, cores)) / cores)


def say_seconds(seconds: float, factor: float = 1.0) -> str:
    """An expected wait in words: ``about 75 s``, ``about 4 min``; on a busy machine (a ``factor``
    of :func:`busy_factor`) a range: ``about 75 s idle, up to 4 min at this machine's load``.

    The load average only bounds the wait: its processes need not all want a core throughout
    (measured: a main-job compile of 73 s at load 7 announced as 45 s idle, up to 3 min).

    >>> say_seconds(74), say_seconds(230), say_seconds(74, 3.0)
    ('about 75 s', 'about 4 min', "about 75 s idle, up to 4 min at this machine's load")
    """

    def words(s: float) -> str:
        return f"{_round(round(s))} s" if s < 100 else f"{int(s / 60 + 0.5)} min"

    if factor < 1.25:
        return f"about {words(seconds)}"
    return f"about {words(seconds)} idle, up to {words(seconds * factor)} at this machine's load"


__all__ = [
    "FEATURES",
    "SECONDS",
    "announce",
    "busy_factor",
    "cold_parts",
    "compile_seconds",
    "player_kernels",
    "say_seconds",
    "will_compile",
]
