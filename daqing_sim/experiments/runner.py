"""Chunked, resumable execution of an experiment: :func:`run_experiment`.

Layout of one results directory (``results/NAME``; quick looks ``results/.quick/NAME-nN``)::

    manifest.json                          resolved config, hash, version, status (tracked in git:
                                           nothing in it changes unless the results' plan does)
    timings.json                           times, deals/s, workers, commit (not tracked in git)
    chunks/VARIANT/index.json              the variant's chunk identity; per chunk its deal
                                           range and the sha256 of its file
    chunks/VARIANT/chunk-000012.parquet    deals [12 * chunk_size, 13 * chunk_size)

Every file is written to a ``.tmp`` temporary file in its own directory and
``os.replace``-d into place when complete, so an interrupted run never leaves a
file that looks finished. A chunk is reused when its variant's identity (resolved rules, which
hold the rule family, strategies, knobs, seed, chunk size, dealer, engine fingerprint) is
unchanged and its file still has the recorded checksum; ``n_deals`` is not part of it, so a run
that grows (more deals, another variant) computes only what is new.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.compile_notice import announce
from daqing_sim.experiments.config import Experiment, load_experiment
from daqing_sim.experiments.results import load_results
from daqing_sim.experiments.store import (  # noqa: F401 (re-exported for the results and tests)
    CHUNKS,
    INDEX,
    MANIFEST,
    QUICK,
    TIMINGS,
    _read_json,
    check_chunk,
    chunk_path,
    clean_partials,
    clear_chunks,
    file_sha256,
    has_chunks,
    identity_hash,
    read_index,
    read_manifest,
    results_dir,
    write_chunk,
    write_index,
    write_json,
    write_manifest,
)
from daqing_sim.players.plugins import resolve_seats
from daqing_sim.validation import (
    RESULT_BYTES_PER_DEAL,
    check_int,
    physical_memory,
)

LOCK = ".lock"
BACKENDS = ("loky", "dask")
# Everything that decides a deal: the rules, the hand evaluator, the engine and the players.
ENGINE_PACKAGES = ("codes.py", "rules.py", "layout.py", "hand", "game", "players")
# Bytes of one deal in a Parquet chunk (measured: ~45 on baseline chunks of 4,096 deals),
# with room for the winner's hand column.
DISK_BYTES_PER_DEAL = 80
DASK_CONNECT_TIMEOUT = 5  # s
WATCHDOG_PERIOD = 0.5  # s between a worker's checks that the run's process is alive
# Tests interrupt a run at a known point: "N:SIGNAME" makes the run signal itself once it has
# written N chunks (a real signal, delivered where a user's could be, without a race).
_STOP_AFTER_ENV = "DAQING_SIM_TEST_STOP_AFTER"


def log(message: str) -> None:
    """One line of news on standard error (the progress bar's stream)."""
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class ChunkTask:
    """One unit of work: deals ``start .. start + n_deals - 1`` of one variant."""

    variant: str
    index: int
    start: int
    n_deals: int
    rules: Any  # RuleSet
    strategies: tuple[str, ...]
    knobs: Any
    seed: int
    dealer: int
    record_hands: bool


def chunk_task(experiment: Experiment, variant: Any, index: int) -> ChunkTask:
    start, n = experiment.chunk_range(index)
    return ChunkTask(
        variant=variant.name,
        index=index,
        start=start,
        n_deals=n,
        rules=variant.rules,
        strategies=variant.strategies,
        knobs=variant.seat_knobs(),
        seed=experiment.seed,
        dealer=experiment.dealer,
        record_hands=experiment.record_hands,
    )


def plan_tasks(experiment: Experiment, skip: Container[tuple[str, int]] = ()) -> Iterator[ChunkTask]:
    """The chunks of a plan but ``skip`` (``(variant, index)`` pairs), generated lazily and
    chunk-major, so that a partial run covers every variant alike."""
    for k in range(experiment.n_chunks):
        for v in experiment.variants:
            if (v.name, k) not in skip:
                yield chunk_task(experiment, v, k)


def python_builtin_knobs(strategies: Sequence[Any], knobs: Any) -> tuple[list[Any], Any]:
    """The seats with each Python-side built-in (``search``) given its knobs as
    ``(name, knobs)``, and the per-seat knobs left to ``simulate`` (theirs removed)."""
    from daqing_sim.players.plugins import PYTHON_BUILTINS

    seats = list(strategies)
    if not knobs:
        return seats, knobs
    knobs = list(knobs)
    for i, name in enumerate(seats):
        if isinstance(name, str) and name in PYTHON_BUILTINS and knobs[i]:
            seats[i], knobs[i] = (name, dict(knobs[i])), None
    return seats, (knobs if any(knobs) else None)


def compute_chunk(task: ChunkTask, simulate_fn: Callable[..., pd.DataFrame] | None = None) -> pd.DataFrame:
    """Simulate one chunk (runs in a worker process)."""
    if simulate_fn is None:
        from daqing_sim.game.simulate import simulate as simulate_fn
    seats, knobs = python_builtin_knobs(task.strategies, task.knobs)
    df = simulate_fn(
        task.n_deals,
        rules=task.rules,
        strategies=resolve_seats(seats),
        seed=task.seed,
        n_jobs=1,
        record_hands=task.record_hands,
        start=task.start,
        dealer=task.dealer,
        knobs=knobs,
        progress=False,
    )
    deals = df["deal"].to_numpy()
    if len(df) != task.n_deals or not (deals == np.arange(task.start, task.start + len(df))).all():
        raise RuntimeError(
            f"simulate returned {len(df)} rows for deals {task.start}..{task.start + task.n_deals - 1} "
            f"(variant {task.variant}, chunk {task.index})"
        )
    return df


_watchdog_started = False


def _watch_parent(parent_pid: int) -> None:
    """Exit this worker when the run's process is gone (SIGKILL leaves it no time to say so)."""
    while True:
        time.sleep(WATCHDOG_PERIOD)
        if os.getppid() != parent_pid:
            os._exit(1)


def _start_watchdog(parent_pid: int | None) -> None:
    global _watchdog_started
    if parent_pid is None or _watchdog_started or os.getpid() == parent_pid:
        return
    _watchdog_started = True
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True, name="daqing-watchdog").start()


def _compile_part(part: str, family: str, parent_pid: int | None = None) -> tuple[str, float]:
    """Compile (or load) one part of the kernels a run needs: ``"engine"`` (the batch engine of
    ``family``), ``"hand"`` (the Daqing hand kernels every other part calls) or a built-in
    player's name (its three decisions, :mod:`daqing_sim.players.seats`). Returns the part and
    its wall time."""
    _start_watchdog(parent_pid)
    t0 = time.perf_counter()
    if part == "engine":
        from daqing_sim.game.simulate import simulate
        from daqing_sim.players.registry import FAMILY_SEATS
        from daqing_sim.rules import RuleSet

        # the engine is one specialization per family, whatever the field: random seats add no player
        seats = ("random",) * FAMILY_SEATS.get(family, 4)
        simulate(1, strategies=seats, seed=0, rules=RuleSet(family=family), n_jobs=1)
    elif part == "hand":
        from daqing_sim.players.seats import hand_kernels

        hand_kernels()
    else:
        from daqing_sim.players.registry import strategy_code
        from daqing_sim.players.seats import builtin_functions

        builtin_functions(strategy_code(part), family)
    return part, time.perf_counter() - t0


def batch_feature(family: str) -> str:
    """The compile-notice feature of ``family``'s batch engine (``simulate``, ``simulate_beijing``,
    ``simulate_two_player``), as ``ds.simulate`` announces it."""
    from daqing_sim.game.simulate import _batch_feature

    return _batch_feature(family)


PART_TITLES = {"hand": "hand kernels", "engine": "engine"}


class _CompileProgress:
    """The compile's progress on standard error: parts done of all, the parts compiling now and
    the time so far, redrawn every second while a compile runs (a silent minute looks hung)."""

    def __init__(self, total: int, enabled: bool) -> None:
        from tqdm.auto import tqdm

        fmt = "{desc}: {n}/{total} parts done [{elapsed}]{postfix}"
        self.bar = tqdm(total=total, desc="compiling", bar_format=fmt, disable=not enabled, file=sys.stderr)
        self.running: list[str] = []
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True, name="daqing-compile-progress")
        if enabled:
            self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            with self.bar.get_lock():
                self.bar.refresh()

    def _show(self) -> None:
        names = ", ".join(PART_TITLES.get(p, p) for p in self.running)
        self.bar.set_postfix_str(f"now: {names}" if names else "", refresh=True)  # after ", "

    def start(self, *parts: str) -> None:
        self.running += parts
        self._show()

    def done(self, part: str) -> None:
        self.running.remove(part)
        self.bar.update(1)
        self._show()

    def close(self) -> None:
        self._stop.set()
        self.bar.close()


def precompile(
    strategies: Sequence[str], n_jobs: int, family: str = "daqing", progress: bool = False
) -> dict[str, float]:
    """On a cold cache, compile the batch engine and the built-in players among ``strategies``
    before the chunks start, each part once: in ``n_jobs`` (> 1) local worker processes side by
    side (each part is a compile of its own, :mod:`daqing_sim.players.seats`, so on two cores the
    wait is about the longest part instead of the sum), or one after the other in this process.
    ``progress`` shows which part compiles and how many of how many are done. Returns each
    compiled part's wall time (empty when everything was cached)."""
    from daqing_sim.compile_notice import cold_parts

    feature = batch_feature(family)
    parts = ["engine" if p == feature else p for p in cold_parts(feature, strategies, family)]
    if not parts:
        return {}
    steps = ["hand", *parts] if family == "daqing" else parts  # every Daqing part calls them
    shown = _CompileProgress(len(steps), progress)
    took: dict[str, float] = {}
    try:
        if steps[0] == "hand":  # compiled here first, then loaded by each part
            shown.start("hand")
            took["hand"] = _compile_part("hand", family)[1]
            shown.done("hand")
        if n_jobs < 2 or len(parts) < 2:
            for part in parts:
                shown.start(part)
                took[part] = _compile_part(part, family)[1]
                shown.done(part)
        else:
            import joblib

            workers = min(n_jobs, len(parts))
            parallel = joblib.Parallel(n_jobs=workers, batch_size=1, return_as="generator_unordered")
            shown.start(*parts[:workers])
            waiting = parts[workers:]
            calls = (joblib.delayed(_compile_part)(p, family, os.getpid()) for p in parts)
            for part, seconds in parallel(calls):
                took[part] = seconds
                shown.done(part)
                if waiting:
                    shown.start(waiting.pop(0))
    finally:
        shown.close()
    return took


def _run_task(
    task: ChunkTask, simulate_fn: Callable[..., pd.DataFrame] | None, parent_pid: int | None = None
) -> tuple[ChunkTask, Any]:
    _start_watchdog(parent_pid)
    # Looked up at call time so that tests can count calls by patching `compute_chunk`.
    return task, compute_chunk(task, simulate_fn)


@functools.cache
def engine_fingerprint() -> str:
    """Hash of the source of :data:`ENGINE_PACKAGES`: equal fingerprints play equal deals."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in ENGINE_PACKAGES:
        path = root / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
        for f in files:
            digest.update(f.relative_to(root).as_posix().encode("ascii"))
            digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def run_lock(outdir: Path) -> Iterator[None]:
    """Hold an OS lock on ``outdir/.lock`` so that two runs never write the same results.

    The kernel releases it when its holder dies, however it dies.
    """
    from filelock import FileLock, Timeout

    outdir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(outdir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise ValueError(
            f"{outdir} is being written by another run; wait for it to finish (or stop it)"
        ) from None
    try:
        yield
    finally:
        lock.release()


def git_commit() -> str | None:
    """Commit of the checkout holding this package, if any."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and commit else None


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------- parallel backends


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(n_jobs: int | None, backend: str = "loky") -> int:
    """Worker count: all usable cores for None or -1; more than those is capped (loky only)."""
    bad = isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1
    if n_jobs is not None and bad:
        raise ValueError(
            f"n_jobs = {n_jobs!r} is impossible: give a positive worker count, or -1 for all cores"
        )
    cores = usable_cores()
    if n_jobs is None or n_jobs == -1:
        return cores
    if n_jobs > cores and backend == "loky":
        log(f"daqing-sim run: --jobs {n_jobs} capped at {cores}, the cores this process may use")
        return cores
    return n_jobs


def require_dask() -> Any:
    """``dask.distributed.Client``, or a ValueError saying how to install it."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError(
            "--backend dask needs dask.distributed, which is not installed; "
            "install it with: pip install 'daqing_sim[dask]'"
        ) from None
    return Client


@contextlib.contextmanager
def parallel_backend(backend: str, scheduler: str | None, n_jobs: int) -> Iterator[int]:
    """Configure joblib for ``backend``; yields the ``n_jobs`` to give ``Parallel``."""
    import joblib

    if backend == "loky":
        yield n_jobs
        return
    Client = require_dask()
    try:
        if scheduler:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
        else:
            client = Client(n_workers=n_jobs, threads_per_worker=1, processes=True, dashboard_address=":0")
    except (OSError, TimeoutError) as e:
        where = f"at {scheduler}" if scheduler else "(local cluster)"
        raise ValueError(
            f"cannot connect to the dask scheduler {where} within {DASK_CONNECT_TIMEOUT} s "
            f"({str(e).splitlines()[0] if str(e) else type(e).__name__}); check the address and that "
            "`dask scheduler` runs there"
        ) from None
    with client, joblib.parallel_config(backend="dask"):
        yield -1


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is done, then act on them as before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    signals = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in signals}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for s in caught[:1]:
            handler = previous[s]
            if callable(handler):
                handler(s, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(s)


def _stop_after() -> tuple[int, int] | None:
    spec = os.environ.get(_STOP_AFTER_ENV)
    if not spec:
        return None
    n, name = spec.split(":")
    return int(n), int(getattr(signal, name))


def run_tasks(
    tasks: Iterator[ChunkTask] | list[ChunkTask],
    outdir: Path,
    *,
    n_jobs: int,
    backend: str,
    scheduler: str | None,
    simulate_fn: Callable[..., pd.DataFrame] | None,
    on_chunk: Callable[[str, int], None] | None,
    on_written: Callable[[ChunkTask, dict[str, Any]], None] | None = None,
    progress_bar: Any,
) -> int:
    """Compute ``tasks`` and write each chunk as it finishes; returns deals computed.

    Chunks are written by this (the client) process, so dask workers need no shared
    file system, and whatever finished before an interruption stays on disk. Local
    (loky) workers exit by themselves when this process dies.
    """
    import joblib

    done = written = 0
    stop_after = _stop_after()
    with parallel_backend(backend, scheduler, n_jobs) as jobs:
        if jobs == 1 and backend == "loky":
            results: Iterator[tuple[ChunkTask, Any]] = (_run_task(t, simulate_fn) for t in tasks)
        else:
            parent = os.getpid() if backend == "loky" else None
            parallel = joblib.Parallel(
                n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
            )
            results = parallel(joblib.delayed(_run_task)(t, simulate_fn, parent) for t in tasks)
        try:
            for task, df in results:
                with _signals_deferred():  # a chunk on disk always has its index entry
                    entry = write_chunk(df, chunk_path(outdir, task.variant, task.index))
                    if on_written is not None:
                        on_written(task, entry)
                done += task.n_deals
                progress_bar.update(task.n_deals)
                if on_chunk is not None:
                    on_chunk(task.variant, task.index)
                written += 1
                if stop_after is not None and written == stop_after[0]:
                    os.kill(os.getpid(), stop_after[1])
        finally:
            # An interruption cancels the chunks in flight on purpose: joblib's warning about
            # them would stand in front of the one-line "interrupted" message.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*adjusting the input task iterator")
                close = getattr(results, "close", None)
                if close is not None:
                    close()
    return done


# ---------------------------------------------------------------- plan checks


def _gigabytes(n: float) -> str:
    return f"{n / 1e9:,.1f} GB"


def check_plan(experiment: Experiment, outdir: Path, n_jobs: int, backend: str = "loky") -> None:
    """Refuse a plan whose chunks cannot be held in memory or whose results cannot be stored."""
    memory = physical_memory()
    per_chunk = experiment.chunk_size * RESULT_BYTES_PER_DEAL
    workers = n_jobs if backend == "loky" else 1
    if memory and per_chunk * workers > memory:
        raise ValueError(
            f"chunk_size = {experiment.chunk_size:,} needs about {_gigabytes(per_chunk)} of memory per "
            f"worker ({workers} worker(s)), more than this machine's {_gigabytes(memory)}; "
            "lower chunk_size in the experiment file"
        )
    need = experiment.n_deals * len(experiment.variants) * DISK_BYTES_PER_DEAL
    root = outdir
    while not root.exists() and root != root.parent:
        root = root.parent
    with contextlib.suppress(OSError):
        free = shutil.disk_usage(root).free
        if need > free:
            raise ValueError(
                f"{experiment.n_deals:,} deals x {len(experiment.variants)} variant(s) need about "
                f"{_gigabytes(need)} of disk for their chunks, but {root} has {_gigabytes(free)} free; "
                "lower --n-deals, or write elsewhere with --out"
            )


def _identity_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    keys = []
    for k in sorted(set(old) | set(new)):
        if old.get(k) == new.get(k):
            continue
        was = old.get(k).get("family", "daqing") if k == "rules" and isinstance(old.get(k), dict) else None
        now = new[k].get("family", "daqing") if k == "rules" and isinstance(new.get(k), dict) else None
        if was != now:  # another rule family: its flags are all different
            keys.append(f"rules.family ({was} -> {now})")
        elif k == "rules" and isinstance(old.get(k), dict):
            keys += [f"rules.{r}" for r in sorted(new[k]) if old[k].get(r) != new[k][r]]
        else:
            keys.append(k)
    return ", ".join(keys) or "order"


def _prepare(outdir: Path, experiment: Experiment, force: bool) -> dict[str, dict[str, Any]]:
    """Check existing chunks against the plan; returns the index of every variant.

    Chunks of an unchanged variant are kept whatever ``n_deals`` or the other variants;
    a variant whose identity or engine changed is refused unless ``force`` (which
    discards every chunk).
    """
    clean_partials(outdir)
    if force:
        clear_chunks(outdir)
    elif read_manifest(outdir) is None and has_chunks(outdir):
        raise ValueError(f"{outdir} holds chunks but no {MANIFEST}; re-run with --force to discard them")
    fingerprint = engine_fingerprint()
    indexes = {}
    for v in experiment.variants:
        identity = experiment.chunk_identity(v)
        fresh = {"identity": identity, "engine_fingerprint": fingerprint, "chunks": {}}
        index = read_index(outdir, v.name)
        has_files = any((outdir / CHUNKS / v.name).glob("chunk-*.parquet"))
        if index is None and has_files:
            raise ValueError(
                f"{outdir} holds chunks of variant {v.name} without their {INDEX} (checksums), as "
                "an older version wrote them; re-run with --force to recompute them"
            )
        if index is not None and index.get("engine_fingerprint") != fingerprint and index["chunks"]:
            raise ValueError(
                f"{outdir} holds chunks of variant {v.name} played by another version of the simulator "
                f"(engine fingerprint {index.get('engine_fingerprint')} != {fingerprint}): its deals may "
                "differ from this version's and are not mixed with them; re-run with --force to "
                "recompute them, or write elsewhere with --out"
            )
        if index is not None and index.get("identity") != identity and index["chunks"]:
            raise ValueError(
                f"{outdir} holds chunks of variant {v.name} played under other settings of "
                f"{experiment.source} (changed: {_identity_changes(index.get('identity') or {}, identity)}); "
                "re-run with --force to recompute them, rename the variant, or write elsewhere with --out"
            )
        indexes[v.name] = fresh if index is None or not index["chunks"] else index
    return indexes


def _reusable(
    outdir: Path, experiment: Experiment, indexes: dict[str, dict[str, Any]], report: bool
) -> set[tuple[str, int]]:
    """Chunks on disk that serve the plan; a damaged one is reported and dropped."""
    done = set()
    for v in experiment.variants:
        entries = indexes[v.name]["chunks"]
        for key in list(entries):
            k = int(key)
            if k >= experiment.n_chunks:
                continue
            start, n = experiment.chunk_range(k)
            why = check_chunk(chunk_path(outdir, v.name, k), entries[key], start, n)
            if why is None:
                done.add((v.name, k))
            elif report and why in ("checksum mismatch", "file missing"):
                log(f"chunk {k} of variant {v.name}: {why}, recomputed")
        for path in (outdir / CHUNKS / v.name).glob("chunk-*.parquet"):
            k = int(path.stem.split("-")[1])
            if str(k) not in entries and k < experiment.n_chunks and report:
                log(f"chunk {k} of variant {v.name}: no checksum recorded, recomputed")
    return done


def count_done(outdir: Path, experiment: Experiment) -> int:
    """Chunks of the plan already finished in ``outdir`` (without running anything)."""
    indexes = {}
    for v in experiment.variants:
        index = read_index(outdir, v.name)
        fine = (
            index is not None
            and index.get("identity") == experiment.chunk_identity(v)
            and index.get("engine_fingerprint") == engine_fingerprint()
        )
        indexes[v.name] = index if fine else {"chunks": {}}
    return len(_reusable(outdir, experiment, indexes, report=False))


# ---------------------------------------------------------------- running


@dataclass
class RunResult:
    """What :func:`run_experiment` did."""

    outdir: Path
    n_chunks: int
    n_computed: int
    n_reused: int
    deals_computed: int
    seconds: float
    summary: pd.DataFrame | None = None
    tournament: pd.DataFrame | None = None  # the entrant table of a [tournament] experiment
    compile_seconds: float = 0.0  # compiling the kernels before the chunks (0: all cached)
    wall_seconds: float = 0.0  # the whole run: compiling, chunks, summary and plots

    @property
    def deals_per_s(self) -> float:
        return self.deals_computed / self.seconds if self.seconds > 0 else float("nan")

    def load(self) -> pd.DataFrame:
        """The results DataFrame (see :func:`daqing_sim.experiments.results.load_results`)."""
        return load_results(self.outdir)

    def closing_line(self, name: str) -> str:
        """What ``daqing-sim run`` says when done: the whole wall time first, then its parts.

        >>> r = RunResult(Path("x"), 4, 3, 1, 3000, 1.5, wall_seconds=130.2, compile_seconds=120)
        >>> r.closing_line("x")  # doctest: +ELLIPSIS
        'x: 3 chunk(s) computed, 1 reused in 2 min 10 s in all (compiling 2 min 0 s, simulating 1.5 s at ...'
        """
        parts = [f"compiling {duration(self.compile_seconds)}"] if self.compile_seconds else []
        rate = f" at {self.deals_per_s:,.0f} deals/s" if self.deals_computed else ""
        parts.append(f"simulating {duration(self.seconds)}{rate}")
        wall = duration(self.wall_seconds or self.seconds)
        return (
            f"{name}: {self.n_computed} chunk(s) computed, {self.n_reused} reused in {wall} in all "
            f"({', '.join(parts)}); results in {self.outdir}"
        )


def duration(seconds: float) -> str:
    """``12.3 s`` below a minute, else ``5 min 2 s``.

    >>> duration(12.34), duration(302.4)
    ('12.3 s', '5 min 2 s')
    """
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


class Interrupted(KeyboardInterrupt):
    """A signal (SIGTERM) stopping a run, handled as Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_WRITE_HINTS = {
    errno.EROFS: "the file system is read-only; write elsewhere with --out",
    errno.ENOSPC: "the disk is full; free space (finished chunks are kept) or write elsewhere with --out",
    errno.EDQUOT: "the disk quota is exhausted; free some space or write elsewhere with --out",
    errno.ENOTDIR: "a part of the path is a file, not a directory; give --out a directory",
    errno.EEXIST: "a file stands where the results directory should be; give --out a directory",
    errno.EACCES: "permission denied; write elsewhere with --out",
    errno.EPERM: "permission denied; write elsewhere with --out",
}


def _write_error(e: OSError, outdir: Path) -> ValueError:
    hint = _WRITE_HINTS.get(e.errno or 0, "write elsewhere with --out")
    where = e.filename or outdir
    return ValueError(f"cannot write results to {where}: {e.strerror or e} ({hint})")


def run_experiment(
    path_or_experiment: str | os.PathLike[str] | Experiment,
    n_jobs: int | None = None,
    out: str | os.PathLike[str] = "results",
    n_deals: int | None = None,
    force: bool = False,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = True,
    *,
    summary: bool = True,
    simulate_fn: Callable[..., pd.DataFrame] | None = None,
    on_chunk: Callable[[str, int], None] | None = None,
) -> RunResult:
    """Run (or resume, or grow) an experiment into ``out/NAME``.

    Parameters
    ----------
    path_or_experiment : path-like or Experiment
        A TOML file or an :class:`~daqing_sim.experiments.config.Experiment`.
    n_jobs : int, optional
        Worker processes; ``None`` or ``-1`` for all usable cores (more are capped at those,
        except on dask). Results do not depend on it.
    out : path-like
        Results root; the experiment writes ``out/NAME`` (``out/.quick/NAME-nN`` with ``n_deals``).
    n_deals : int, optional
        Override the file's deals per variant (a quick look).
    force : bool
        Discard existing chunks (needed when a variant's rules, strategies, knobs, the seed,
        chunk size or the simulator's code changed; not when deals or variants are added).
    backend : {"loky", "dask"}
        ``"dask"`` runs the chunks on a dask.distributed cluster through joblib.
    scheduler : str, optional
        Address of the dask scheduler; without it a local cluster of ``n_jobs`` workers.
    progress : bool
        Show a tqdm bar (deals/s, time left from the first finished chunk on).
    summary : bool
        Call ``daqing_sim.analysis.estimators.write_summary`` at the end.
    simulate_fn : callable, optional
        Replacement for :func:`daqing_sim.game.simulate.simulate` (testing, other engines).
    on_chunk : callable, optional
        ``on_chunk(variant, chunk_index)``, called after each chunk is safely written.

    Returns
    -------
    RunResult
        Directory, chunk counts, time, deals/s and the summary table.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> toml = Path(tmp.name) / "demo.toml"
    >>> _ = toml.write_text(
    ...     'name = "demo"\\nn_deals = 16\\nchunk_size = 8\\nstrategies = "greedy"\\n'
    ...     '[[variants]]\\nname = "classic"\\n'
    ...     '[[variants]]\\nname = "no_replacement"\\nrules = { bao_replacement = false }\\n'
    ... )
    >>> out = Path(tmp.name) / "results"
    >>> result = run_experiment(toml, n_jobs=1, out=out, progress=False, summary=False)
    >>> result.outdir.relative_to(out).as_posix(), result.n_chunks, result.deals_computed
    ('demo', 4, 32)
    >>> quick = run_experiment(toml, n_jobs=1, out=out, n_deals=8, progress=False, summary=False)
    >>> quick.outdir.relative_to(out).as_posix()
    '.quick/demo-n8'
    >>> tmp.cleanup()
    """
    started = time.perf_counter()
    if isinstance(path_or_experiment, Experiment):
        experiment = path_or_experiment
    else:
        experiment = load_experiment(path_or_experiment)
    file_n_deals = experiment.n_deals
    if n_deals is not None:
        experiment = experiment.with_n_deals(n_deals)
    if backend not in BACKENDS:
        raise ValueError(f"backend {backend!r} is unknown; choose one of {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise ValueError("--scheduler is an address of a dask scheduler: it needs --backend dask")
    if backend == "dask":
        require_dask()
    jobs = resolve_jobs(n_jobs, backend)
    outdir = results_dir(experiment, out, file_n_deals)
    check_plan(experiment, outdir, jobs, backend)
    run = _Run(experiment, outdir, jobs, backend, scheduler, simulate_fn, on_chunk)
    try:
        with _sigterm_as_interrupt(), run_lock(outdir):
            result = run.execute(force, progress, summary)
    except OSError as e:
        raise _write_error(e, outdir) from None
    except KeyboardInterrupt as e:  # the CLI's one line ends with this; Python shows it as a note
        command = resume_command(experiment.source, out, n_deals, backend, scheduler)
        kept = f"finished results are kept; resume with: {command}"
        e.line = f"daqing-sim: interrupted; {kept}"  # type: ignore[attr-defined]
        e.add_note(f"{kept} (or call run_experiment again)")
        raise
    result.wall_seconds = time.perf_counter() - started
    return result


def resume_command(
    source: str | None,
    out: str | os.PathLike[str] = "results",
    n_deals: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
) -> str:
    """The ``daqing-sim run`` command that resumes a run of the experiment file ``source`` (as
    given, relative to the current directory) into ``out``.

    >>> resume_command("experiments/baseline.toml", "my results", 20_000)
    "daqing-sim run experiments/baseline.toml --out 'my results' --n-deals 20000"
    """
    words = ["daqing-sim", "run", source or "EXPERIMENT.toml"]
    if os.path.normpath(out) != "results":
        words += ["--out", os.fspath(out)]
    if n_deals is not None:
        words += ["--n-deals", str(n_deals)]
    if backend != "loky":
        words += ["--backend", backend]
    if scheduler is not None:
        words += ["--scheduler", scheduler]
    return shlex.join(words)


def compile_seconds_if_cold() -> int | None:
    """About how long the first run compiles the engine's kernels, or None when they are cached
    (:mod:`daqing_sim.compile_notice`)."""
    from daqing_sim.compile_notice import compile_seconds

    return compile_seconds("simulate") or None


def manifest_source(source: str | None) -> str | None:
    """The experiment file as the manifest names it: relative to the current directory when it
    lies there, in POSIX form, so ``./experiments/x.toml`` and its absolute path write the same
    manifest as ``experiments/x.toml``.

    >>> manifest_source("./experiments//baseline.toml")
    'experiments/baseline.toml'
    """
    if source is None:
        return None
    inside = os.path.relpath(os.path.abspath(source))
    return Path(os.path.normpath(source) if inside.startswith("..") else inside).as_posix()


@dataclasses.dataclass
class _Run:
    """One run of an experiment into ``outdir``, under its lock."""

    experiment: Experiment
    outdir: Path
    jobs: int
    backend: str
    scheduler: str | None
    simulate_fn: Callable[..., pd.DataFrame] | None
    on_chunk: Callable[[str, int], None] | None

    def manifest(self, status: str) -> dict[str, Any]:
        """``manifest.json``: what the results are of. It holds no engine fingerprint: the
        fingerprint changes with any edit of the engine's source, results or not, and a shipped
        manifest would then change on every run of an unchanged experiment. Chunks are guarded
        by the fingerprint in their variant's ``index.json`` (not tracked in git), which decides
        whether they are reused."""
        e = self.experiment
        source = manifest_source(e.source)
        return {
            "name": e.name,
            "source": source,
            "config_hash": e.config_hash(),
            "config": {**e.resolved(), "source": source},
            "package_version": _version(),
            "status": status,
            "chunks": e.n_chunks * len(e.variants),
        }

    def execute(self, force: bool, progress: bool, summary: bool) -> RunResult:
        from tqdm.auto import tqdm

        e, outdir = self.experiment, self.outdir
        indexes = _prepare(outdir, e, force)
        done = _reusable(outdir, e, indexes, report=True)
        n_total = e.n_chunks * len(e.variants)
        done_deals = sum(e.chunk_range(k)[1] for _, k in done)
        previous = {} if force else _read_json(outdir / TIMINGS)
        timings: dict[str, Any] = {
            "started": now_utc(),
            "first_started": previous.get("first_started") or now_utc(),
            "finished": None,
            "git_commit": git_commit(),
            "n_jobs": self.jobs,
            "backend": self.backend,
            "chunks_computed": 0,
            "deals_computed": 0,
            "seconds": None,
            "deals_per_s": None,
        }
        write_manifest(outdir, self.manifest("running"))
        write_json(outdir / TIMINGS, timings)
        for name, index in indexes.items():
            write_index(outdir, name, index)
        families: dict[str, list[str]] = {}  # the seats of the variants, by family
        for v in e.variants:
            families.setdefault(v.rules.family, []).extend(v.strategies)
        if progress:
            log(plan_line(e, outdir, self.jobs, n_total - len(done)))
        if progress and len(done) < n_total:
            side_by_side = self.jobs if self.backend == "loky" and self.simulate_fn is None else 1
            for family, field in families.items():
                announce(batch_feature(family), field, family, side_by_side)
        compiled: dict[str, float] = {}
        t_compile = time.perf_counter()
        if len(done) < n_total and self.simulate_fn is None and self.backend == "loky":
            try:
                for family, field in families.items():
                    compiled |= precompile(field, self.jobs, family, progress)
            except BaseException:
                with contextlib.suppress(OSError):
                    write_manifest(outdir, self.manifest("interrupted"))
                raise
        compile_seconds = time.perf_counter() - t_compile if compiled else 0.0
        if compiled:  # the measured compile, for the notice's estimate (tools/compile_timings.py)
            timings["compile_seconds"] = round(compile_seconds, 1)
            timings["compile_parts"] = {k: round(v, 1) for k, v in compiled.items()}

        def written(task: ChunkTask, entry: dict[str, Any]) -> None:
            indexes[task.variant]["chunks"][str(task.index)] = entry
            write_index(outdir, task.variant, indexes[task.variant])
            if timings["chunks_computed"] == 0:
                _restart_eta(bar)
            timings["chunks_computed"] += 1

        t0 = time.perf_counter()
        bar = tqdm(
            total=e.n_deals * len(e.variants),
            initial=done_deals,
            unit="deal",
            unit_scale=True,
            desc=e.name,
            disable=not progress,
            smoothing=0.05,
            file=sys.stderr,
        )
        try:
            computed = run_tasks(
                plan_tasks(e, skip=done),
                outdir,
                n_jobs=self.jobs,
                backend=self.backend,
                scheduler=self.scheduler,
                simulate_fn=self.simulate_fn,
                on_chunk=self.on_chunk,
                on_written=written,
                progress_bar=bar,
            )
        except BaseException:
            timings.update(finished=now_utc(), deals_computed=bar.n - done_deals)
            with contextlib.suppress(OSError):  # e.g. the disk is full: the original error matters
                write_manifest(outdir, self.manifest("interrupted"))
                write_json(outdir / TIMINGS, timings)
            raise
        finally:
            bar.close()
        seconds = time.perf_counter() - t0
        timings.update(
            finished=now_utc(),
            deals_computed=computed,
            seconds=round(seconds, 3),
            deals_per_s=round(computed / seconds, 1) if computed and seconds > 0 else None,
        )
        write_manifest(outdir, self.manifest("complete"))
        write_json(outdir / TIMINGS, timings)
        n_computed = n_total - len(done)
        result = RunResult(outdir, n_total, n_computed, len(done), computed, seconds)
        result.compile_seconds = compile_seconds
        if summary:
            result.summary = _write_summary(outdir, e.baseline, _base_points(e))
            if e.tournament is not None:
                result.tournament = write_tournament(outdir, e)
        return result


def plan_line(experiment: Experiment, outdir: Path, jobs: int, todo: int) -> str:
    """The line a run starts with: its size, seed, chunks to compute, workers and where the
    results go, and which settings the file left to their defaults.

    >>> from daqing_sim.experiments.config import experiment_from_dict
    >>> e = experiment_from_dict({"name": "x", "n_deals": 8192, "chunk_size": 4096})
    >>> print(plan_line(e, Path("r/x"), 2, 2))  # doctest: +NORMALIZE_WHITESPACE
    x: 8,192 deals x 1 variant, seed 0, 2 of 2 chunks (4,096 deals each) to compute on 2 workers;
    results in r/x (the file sets no seed: default seed 0)
    """
    e = experiment
    n_var = len(e.variants)
    line = (
        f"{e.name}: {e.n_deals:,} deals x {n_var} variant{'s' if n_var > 1 else ''}, seed {e.seed}, "
        f"{todo} of {e.n_chunks * n_var} chunks ({e.chunk_size:,} deals each) to compute on {jobs} "
        f"worker{'s' if jobs > 1 else ''}; results in {outdir}"
    )
    note = e.default_note()
    return f"{line} ({note})" if note else line


def _restart_eta(bar: Any) -> None:
    """Measure speed from now on: the first chunk's time includes start-up and compilation."""
    if bar.disable:
        return
    n = bar.n
    bar.reset()
    bar.initial = bar.n = bar.last_print_n = n
    bar.refresh()


def _base_points(experiment: Experiment) -> dict[str, int] | None:
    """Variant -> the points of one base unit, for the Beijing variants (None without one)."""
    bases = {v.name: v.rules.base_points for v in experiment.variants if v.rules.family == "beijing"}
    return bases or None


def _write_summary(outdir: Path, baseline: str, base_points: dict[str, int] | None = None) -> pd.DataFrame:
    from daqing_sim.analysis.summary import write_summary

    if base_points is None:  # a Daqing experiment: as it always was
        return write_summary(load_results(outdir), outdir, baseline=baseline)
    return write_summary(load_results(outdir), outdir, baseline=baseline, base_points=base_points)


TOURNAMENT_CSV = "tournament.csv"
TOURNAMENT_PAIRS_CSV = "tournament_pairs.csv"


def write_tournament(outdir: Path, experiment: Experiment) -> pd.DataFrame:
    """Write ``tournament.csv`` (one row per entrant) and ``tournament_pairs.csv``; return the first.

    The statistics are :func:`daqing_sim.analysis.duplicate.duplicate_table` over the
    experiment's four rotation variants (walls are the independent units).
    """
    from daqing_sim.analysis.duplicate import duplicate_table, tournament_pairs
    from daqing_sim.validation import atomic_write

    assert experiment.tournament is not None
    table = duplicate_table(load_results(outdir), experiment.tournament.seat_labels())
    pairs = tournament_pairs(table)
    atomic_write(outdir / TOURNAMENT_CSV, lambda p: table.to_csv(p, index=False))
    atomic_write(outdir / TOURNAMENT_PAIRS_CSV, lambda p: pairs.to_csv(p, index=False))
    return table


def _version() -> str:
    from daqing_sim import __version__

    return __version__


def check_results_args(path: Any, n: Any, n_name: str, out: Any) -> None:
    """One-line errors for the arguments of :func:`experiment_results` and
    ``tournament_results`` (before any file is read or run started)."""
    if not isinstance(path, str | os.PathLike):
        raise ValueError(f"path must be an experiment .toml file (a str or Path), not {path!r}")
    if not isinstance(out, str | os.PathLike):
        raise ValueError(f"out must be the results folder (a str or Path), not {out!r}")
    if n is not None:
        check_int(n, n_name, minimum=1)


def experiment_results(
    path: str | os.PathLike,
    n_deals: int | None = None,
    out: str | os.PathLike = "results",
    n_jobs: int | None = 1,
    summary: bool = True,
) -> pd.DataFrame:
    """Results of a shipped experiment: the full run when present, else a small run.

    Loads ``out/NAME`` (the experiment file's full size) with :func:`load_results` when it
    is complete; otherwise loads, or first runs with ``run_experiment(...,
    n_deals=n_deals)``, the smaller quick look ``out/.quick/NAME-nN``.

    Parameters
    ----------
    path : path-like
        The experiment TOML file.
    n_deals : int, optional
        Deals per variant of the fallback run (default: the file's size).
    out : path-like
        Results root.
    n_jobs : int, optional
        Workers of the fallback run.
    summary : bool
        Write the fallback run's summary and plots (a notebook that computes its own figures
        passes ``False``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> toml = Path(tmp.name) / "demo.toml"
    >>> _ = toml.write_text(
    ...     'name = "demo"\\nn_deals = 16\\nchunk_size = 8\\nstrategies = "greedy"\\n'
    ...     '[[variants]]\\nname = "classic"\\n'
    ...     '[[variants]]\\nname = "no_replacement"\\nrules = { bao_replacement = false }\\n'
    ... )
    >>> out = Path(tmp.name) / "results"
    >>> len(experiment_results(toml, n_deals=8, out=out))  # nothing there yet: runs 2 x 8 deals
    16
    >>> _ = run_experiment(toml, n_jobs=1, out=out, progress=False, summary=False)
    >>> len(experiment_results(toml, n_deals=8, out=out))  # the full run, now complete, wins
    32
    >>> tmp.cleanup()
    """
    check_results_args(path, n_deals, "n_deals", out)
    experiment = load_experiment(path)
    full = results_dir(experiment, out)
    try:
        return load_results(full)
    except (FileNotFoundError, ValueError):
        pass
    small = results_dir(experiment.with_n_deals(n_deals), out, experiment.n_deals) if n_deals else full
    try:
        return load_results(small)
    except (FileNotFoundError, ValueError):
        pass
    run = run_experiment(path, n_jobs=n_jobs, out=out, n_deals=n_deals, progress=False, summary=summary)
    return run.load()
