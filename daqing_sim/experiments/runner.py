"""Chunked, resumable execution of an experiment and its on-disk results.

Layout of one results directory (``results/NAME``)::

    manifest.json                          resolved config, hash, version, engine fingerprint,
                                           timings
    chunks/VARIANT/chunk-000012.parquet    deals [12 * chunk_size, 13 * chunk_size)

Every file is written to a ``.tmp`` temporary file in its own directory and
``os.replace``-d into place when complete, so an interrupted run never leaves a
file that looks finished. A finished chunk is never computed again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import socket
import subprocess
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.validation import PARTIAL, atomic_write, atomic_write_bytes

MANIFEST = "manifest.json"
CHUNKS = "chunks"
LOCK = ".lock"
# The modules whose code decides how a deal plays out (walls, rules, evaluator, players,
# engine, the frame's columns): chunks played by other code are never mixed with new ones.
# Everything that decides a deal: the rules, the hand evaluator, the engine and the players.
ENGINE_PACKAGES = ("codes.py", "rules.py", "hand", "game", "players")


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


def chunk_path(outdir: Path, variant: str, index: int) -> Path:
    return outdir / CHUNKS / variant / f"chunk-{index:06d}.parquet"


def compute_chunk(task: ChunkTask, simulate_fn: Callable[..., pd.DataFrame] | None = None) -> pd.DataFrame:
    """Simulate one chunk (runs in a worker process)."""
    if simulate_fn is None:
        from daqing_sim.game.simulate import simulate as simulate_fn
    df = simulate_fn(
        task.n_deals,
        rules=task.rules,
        strategies=task.strategies,
        seed=task.seed,
        n_jobs=1,
        record_hands=task.record_hands,
        start=task.start,
        dealer=task.dealer,
        knobs=task.knobs,
        progress=False,
    )
    if len(df) != task.n_deals:
        raise RuntimeError(
            f"simulate returned {len(df)} rows for {task.n_deals} deals (variant {task.variant}, "
            f"chunk {task.index})"
        )
    return df


def _run_task(task: ChunkTask, simulate_fn: Callable[..., pd.DataFrame] | None) -> tuple[ChunkTask, Any]:
    # Looked up at call time so that tests can count calls by patching `compute_chunk`.
    return task, compute_chunk(task, simulate_fn)


def write_chunk(df: pd.DataFrame, path: Path) -> None:
    """Write a chunk as Parquet; the final name appears only once the file is complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda p: df.to_parquet(p, index=False))


def chunk_rows(path: Path) -> int | None:
    """Rows of a finished chunk file, or None when it is missing or unreadable."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return None
    try:
        return pq.read_metadata(path).num_rows
    except Exception:  # an unreadable file is recomputed, never trusted
        return None


def clean_partials(outdir: Path) -> int:
    """Remove temporary files left by an interrupted run; returns how many."""
    n = 0
    if outdir.is_dir():
        for tmp in outdir.rglob("*" + PARTIAL):
            tmp.unlink(missing_ok=True)
            n += 1
    return n


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


def read_manifest(outdir: Path) -> dict[str, Any] | None:
    path = outdir / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not valid JSON ({e}); delete it or re-run with --force") from None


def write_manifest(outdir: Path, manifest: dict[str, Any]) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_bytes(outdir / MANIFEST, text.encode("utf-8"))


def clear_chunks(outdir: Path) -> None:
    shutil.rmtree(outdir / CHUNKS, ignore_errors=True)


def has_chunks(outdir: Path) -> bool:
    return any((outdir / CHUNKS).rglob("chunk-*.parquet")) if (outdir / CHUNKS).is_dir() else False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def run_lock(outdir: Path) -> Iterator[None]:
    """Hold ``outdir/.lock`` so that two runs never write the same results at once.

    A lock left by a killed process of this host is taken over.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / LOCK
    me = f"{socket.gethostname()} {os.getpid()}"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                owner = path.read_text(encoding="utf-8").strip()
            except OSError:
                owner = ""
            host, _, pid = owner.partition(" ")
            if host == socket.gethostname() and pid.isdigit() and not _alive(int(pid)):
                path.unlink(missing_ok=True)
                continue
            raise ValueError(
                f"{outdir} is being written by another run ({owner or 'unknown'}); wait for it to "
                f"finish, or delete {path} if that run is gone"
            ) from None
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(me)
        break
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


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
            client = Client(scheduler, timeout=20)
        else:
            client = Client(n_workers=n_jobs, threads_per_worker=1, processes=True, dashboard_address=":0")
    except (OSError, TimeoutError) as e:
        raise ValueError(f"cannot connect to the dask scheduler {scheduler!r}: {e}") from None
    with client, joblib.parallel_config(backend="dask"):
        yield -1


def run_tasks(
    tasks: list[ChunkTask],
    outdir: Path,
    *,
    n_jobs: int,
    backend: str,
    scheduler: str | None,
    simulate_fn: Callable[..., pd.DataFrame] | None,
    on_chunk: Callable[[str, int], None] | None,
    progress_bar: Any,
) -> int:
    """Compute ``tasks`` and write each chunk as it finishes; returns deals computed.

    Chunks are written by this (the client) process, so dask workers need no shared
    file system, and whatever finished before an interruption stays on disk.
    """
    import joblib

    if not tasks:
        return 0
    done = 0
    with parallel_backend(backend, scheduler, n_jobs) as jobs:
        if jobs == 1 and backend == "loky":
            results: Iterator[tuple[ChunkTask, Any]] = (_run_task(t, simulate_fn) for t in tasks)
        else:
            parallel = joblib.Parallel(
                n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
            )
            results = parallel(joblib.delayed(_run_task)(t, simulate_fn) for t in tasks)
        try:
            for task, df in results:
                write_chunk(df, chunk_path(outdir, task.variant, task.index))
                done += task.n_deals
                progress_bar.update(task.n_deals)
                if on_chunk is not None:
                    on_chunk(task.variant, task.index)
        finally:
            # An interruption cancels the chunks in flight on purpose: joblib's warning about
            # them would stand in front of the one-line "interrupted" message.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*adjusting the input task iterator")
                close = getattr(results, "close", None)
                if close is not None:
                    close()
    return done


def load_chunks(
    outdir: Path,
    *,
    allow_partial: bool = False,
    columns: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
) -> pd.DataFrame:
    """All finished chunks of a results directory as one DataFrame (see ``load_results``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    outdir = Path(outdir)
    manifest = read_manifest(outdir)
    if manifest is None:
        if not outdir.exists():
            raise FileNotFoundError(f"results directory {outdir} does not exist")
        raise ValueError(f"{outdir} has no {MANIFEST}: it is not an experiment results directory")
    plan = manifest["config"]
    all_variants = [v["name"] for v in plan["variants"]]
    if variants is None:
        variants = all_variants
    else:
        variants = [variants] if isinstance(variants, str) else list(variants)
        bad = [v for v in variants if v not in all_variants]
        if bad:
            raise ValueError(
                f"variant(s) {', '.join(bad)} not in {outdir}; variants: {', '.join(all_variants)}"
            )
    n_deals, chunk_size = int(plan["n_deals"]), int(plan["chunk_size"])
    n_chunks = -(-n_deals // chunk_size)
    tables, missing, read_columns = [], 0, None
    for name in variants:
        for k in range(n_chunks):
            path = chunk_path(outdir, name, k)
            if not path.is_file():
                missing += 1
                continue
            if read_columns is None and columns is not None:
                read_columns = _check_columns(columns, pq.read_schema(path).names, outdir)
            table = pq.read_table(path, columns=read_columns)
            tables.append(table.append_column("variant", pa.array(np.full(table.num_rows, name))))
    if missing and not allow_partial:
        source = plan.get("source") or "its experiment file"
        raise ValueError(
            f"{outdir} is incomplete: {missing} of {n_chunks * len(variants)} chunks missing; "
            f"run `daqing-sim run {source}` again to finish it, or pass allow_partial=True"
        )
    if not tables:
        raise ValueError(f"{outdir} holds no finished chunk yet")
    df = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    df["variant"] = pd.Categorical(df["variant"], categories=variants)
    df = df[["variant"] + [c for c in df.columns if c != "variant"]]
    return df.sort_values(["variant", "deal"], kind="stable").reset_index(drop=True)


def _check_columns(columns: Sequence[str], available: list[str], outdir: Path) -> list[str]:
    columns = [columns] if isinstance(columns, str) else list(columns)
    bad = [c for c in columns if c not in available and c != "variant"]
    if bad:
        raise ValueError(f"column(s) {', '.join(bad)} not in {outdir}; columns: {', '.join(available)}")
    # deal is needed to sort; variant is added on loading
    return ["deal"] + [c for c in columns if c not in ("deal", "variant")]
