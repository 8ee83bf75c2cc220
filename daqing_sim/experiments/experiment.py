"""Experiments: studies of rule variants on the same walls, from a TOML file.

An experiment names a number of deals, a seed, the seat strategies, base rule
overrides and a list of **variants** (rule and strategy overrides). Every variant
plays the same deals ``0 .. n_deals - 1`` of the same seed, so all variants see
the same walls (common random numbers) and their differences are not noise of
the deal.

A minimal file::

    name = "bao_replacement"
    description = "换宝 on (classic) against off (newer practice)"
    n_deals = 100_000
    seed = 1
    chunk_size = 5_000
    strategies = "greedy"            # all four seats, or a list of four names

    [rules]                          # overrides of the classic flags for every variant

    [knobs]                          # strategy knobs by strategy name (optional)
    jia_hunter = { min_outs_fraction = 0.5 }

    [[variants]]
    name = "classic"

    [[variants]]
    name = "no_replacement"
    rules = { bao_replacement = false }  # also: strategies = [...], knobs = {...}

``daqing-sim run FILE`` runs it into ``results/NAME/`` (one Parquet file per
variant and chunk, plus ``manifest.json``), resumes an interrupted run, then
writes ``summary.csv`` and plots (``daqing_sim.analysis.estimators.write_summary``).
``n_deals`` is part of the configuration hash: a run with ``--n-deals N`` other
than the file's goes to its own directory ``results/NAME-nN``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import sys
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from daqing_sim.experiments import runner as _runner
from daqing_sim.players import strategies as strategies_module
from daqing_sim.rules import RuleSet

# key -> what it holds; also the list shown when a key is unknown.
EXPERIMENT_KEYS = {
    "name": "results directory name (default: the file name)",
    "description": "the question the experiment answers",
    "n_deals": "deals per variant",
    "seed": "seed of the walls (the same for every variant)",
    "chunk_size": "deals per Parquet chunk / unit of parallel work",
    "dealer": "dealer seat 0-3",
    "record_hands": "keep the winner's hand as notation",
    "strategies": "seat strategies: one name or a list of four",
    "knobs": "strategy knobs by strategy name, e.g. [knobs] jia_hunter = { min_outs_fraction = 0.3 }",
    "rules": "rule flag overrides for every variant",
    "baseline": "variant the summary compares against (default: the first)",
    "variants": "list of [[variants]] tables",
}
VARIANT_KEYS = {
    "name": "variant name (letters, digits, _ . -)",
    "description": "what the variant changes",
    "rules": "rule flag overrides on top of the experiment's [rules]",
    "strategies": "seat strategies replacing the experiment's",
    "knobs": "strategy knobs (by strategy name) merged over the experiment's",
}
DEFAULT_CHUNK_SIZE = 4_096  # one wall block: ~2 s of one core
DEFAULT_VARIANT = "base"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
BACKENDS = ("loky", "dask")


def known_strategies() -> tuple[str, ...]:
    """Strategy names accepted in seat lists."""
    return tuple(strategies_module.STRATEGIES)


@dataclass(frozen=True)
class Variant:
    """One arm of an experiment: resolved rules and seat strategies."""

    name: str
    rules: RuleSet
    strategies: tuple[str, str, str, str]
    knobs: dict[str, dict[str, Any]] = field(default_factory=dict)  # strategy -> knob -> value
    description: str = ""

    def seat_knobs(self) -> list[dict[str, Any] | None] | None:
        """Knobs per seat as ``simulate(knobs=...)`` takes them (None: all defaults)."""
        seats = [self.knobs.get(name) or None for name in self.strategies]
        return seats if any(seats) else None

    def resolved(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "knobs": self.knobs,
        }


@dataclass(frozen=True)
class Experiment:
    """A validated experiment; build it with :func:`load_experiment` or :func:`experiment_from_dict`."""

    name: str
    n_deals: int
    seed: int
    chunk_size: int
    variants: tuple[Variant, ...]
    description: str = ""
    dealer: int = 0
    record_hands: bool = False
    baseline: str = ""
    source: str | None = None

    @property
    def n_chunks(self) -> int:
        """Chunks per variant."""
        return -(-self.n_deals // self.chunk_size)

    def with_n_deals(self, n_deals: int) -> Experiment:
        """The same experiment with another size (``--n-deals``)."""
        n_deals = _positive_int(n_deals, "n_deals", "--n-deals")
        return dataclasses.replace(self, n_deals=n_deals)

    def resolved(self) -> dict[str, Any]:
        """Everything that determines the results, as JSON-able data."""
        return {
            "name": self.name,
            "description": self.description,
            "n_deals": self.n_deals,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "dealer": self.dealer,
            "record_hands": self.record_hands,
            "baseline": self.baseline,
            "variants": [v.resolved() for v in self.variants],
        }

    def config_hash(self) -> str:
        """Hash of the resolved configuration (descriptions and source path excluded)."""
        data = self.resolved()
        data.pop("description")
        for v in data["variants"]:
            v.pop("description")
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def tasks(self) -> list[_runner.ChunkTask]:
        """All chunks, chunk-major so that a partial run covers every variant alike."""
        out = []
        for k in range(self.n_chunks):
            start = k * self.chunk_size
            n = min(self.chunk_size, self.n_deals - start)
            for v in self.variants:
                out.append(
                    _runner.ChunkTask(
                        variant=v.name,
                        index=k,
                        start=start,
                        n_deals=n,
                        rules=v.rules,
                        strategies=v.strategies,
                        knobs=v.seat_knobs(),
                        seed=self.seed,
                        dealer=self.dealer,
                        record_hands=self.record_hands,
                    )
                )
        return out


# ---------------------------------------------------------------- validation


def _positive_int(value: Any, key: str, where: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} = {value!r} in {where} must be a whole number")
    if value < minimum:
        raise ValueError(f"{key} = {value} in {where} is impossible: it must be at least {minimum}")
    return value


def _check_keys(data: Mapping[str, Any], valid: Mapping[str, str], where: str) -> None:
    unknown = sorted(set(data) - set(valid))
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)} in {where}; valid keys: {', '.join(valid)}")


def _string(value: Any, key: str, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key} = {value!r} in {where} must be a string")
    return value


def _strategies(value: Any, where: str) -> tuple[str, str, str, str]:
    if isinstance(value, str):
        seats = [value] * 4
    elif isinstance(value, list) and len(value) == 4 and all(isinstance(s, str) for s in value):
        seats = list(value)
    else:
        raise ValueError(
            f"strategies = {value!r} in {where} must be one strategy name or a list of four (seats 0-3)"
        )
    valid = known_strategies()
    bad = [s for s in seats if s not in valid]
    if bad:
        raise ValueError(
            f"unknown strategy {bad[0]!r} in strategies of {where}; valid strategies: {', '.join(valid)}"
        )
    return tuple(seats)  # type: ignore[return-value]


def _knobs(value: Any, where: str) -> dict[str, dict[str, Any]]:
    example = "e.g. knobs = { jia_hunter = { min_outs_fraction = 0.3 } }"
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ValueError(f"knobs = {value!r} in {where} must be a table of tables by strategy, {example}")
    valid = known_strategies()
    for name, table in value.items():
        if name not in valid:
            raise ValueError(
                f"unknown strategy {name!r} in knobs of {where}; valid strategies: {', '.join(valid)}"
            )
        _check_seat_knobs((name,) * 4, [table] * 4, where)
    return {name: dict(table) for name, table in value.items()}


def _check_seat_knobs(strategies: tuple[str, ...], seat_knobs: list[Any] | None, where: str) -> None:
    """Validate knob names and ranges with the strategies module, naming ``where``."""
    try:
        strategies_module.encode_strategies(strategies, seat_knobs)
    except ValueError as e:
        raise ValueError(f"{e} (in knobs of {where})") from None


def _merge_knobs(
    base: dict[str, dict[str, Any]], over: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    return {name: {**base.get(name, {}), **over.get(name, {})} for name in {**base, **over}}


def experiment_from_dict(
    data: Mapping[str, Any], *, where: str = "experiment", name: str | None = None
) -> Experiment:
    """Validate a parsed experiment table (the contents of a TOML file).

    Parameters
    ----------
    data : mapping
        Keys as in :data:`EXPERIMENT_KEYS`.
    where : str
        Source named in error messages (the file path).
    name : str, optional
        Default name when ``data`` has none.

    Raises
    ------
    ValueError
        On an unknown key, rule flag or strategy, or an impossible value; the message
        names the key and ``where``.
    """
    _check_keys(data, EXPERIMENT_KEYS, where)
    if "name" not in data and not name:
        raise ValueError(f"missing key name in {where}: every experiment needs a name")
    exp_name = _string(data.get("name", name), "name", where)
    if not _NAME_RE.match(exp_name):
        raise ValueError(
            f"name = {exp_name!r} in {where} is not a valid results directory name; "
            "use letters, digits, '_', '.' and '-'"
        )
    description = _string(data.get("description", ""), "description", where)
    n_deals = _positive_int(data.get("n_deals", 10_000), "n_deals", where)
    seed = _positive_int(data.get("seed", 0), "seed", where, minimum=0)
    chunk_size = _positive_int(data.get("chunk_size", DEFAULT_CHUNK_SIZE), "chunk_size", where)
    dealer = _positive_int(data.get("dealer", 0), "dealer", where, minimum=0)
    if dealer > 3:
        raise ValueError(f"dealer = {dealer} in {where} is impossible: seats are 0-3")
    record_hands = data.get("record_hands", False)
    if not isinstance(record_hands, bool):
        raise ValueError(f"record_hands = {record_hands!r} in {where} must be true or false")
    base_strategies = _strategies(data.get("strategies", "greedy"), where)
    base_knobs = _knobs(data.get("knobs", {}), where)
    base_flags = data.get("rules", {})
    if not isinstance(base_flags, dict):
        raise ValueError(f"rules in {where} must be a table of rule flags, e.g. [rules]")
    RuleSet.from_dict(base_flags, where=f"{where} [rules]")

    raw_variants = data.get("variants", [{"name": DEFAULT_VARIANT}])
    if not isinstance(raw_variants, list) or not raw_variants:
        raise ValueError(f"variants in {where} must be a non-empty list of [[variants]] tables")
    variants, seen = [], set()
    for i, raw in enumerate(raw_variants):
        if not isinstance(raw, dict):
            raise ValueError(f"variant #{i + 1} in {where} must be a table ([[variants]])")
        label = repr(raw["name"]) if isinstance(raw.get("name"), str) else f"#{i + 1}"
        vwhere = f"{where} [[variants]] {label}"
        _check_keys(raw, VARIANT_KEYS, vwhere)
        if "name" not in raw:
            raise ValueError(f"missing key name in {vwhere}: every variant needs a name")
        vname = _string(raw["name"], "name", vwhere)
        vwhere = f"{where} [[variants]] {vname!r}"
        if not _NAME_RE.match(vname):
            raise ValueError(
                f"name = {vname!r} in {vwhere} is not a valid variant name; "
                "use letters, digits, '_', '.' and '-'"
            )
        if vname in seen:
            raise ValueError(f"duplicate variant name {vname!r} in {where}; variant names must be unique")
        seen.add(vname)
        flags = raw.get("rules", {})
        if not isinstance(flags, dict):
            raise ValueError(f"rules in {vwhere} must be a table, e.g. rules = {{ kong_fan = true }}")
        rules = RuleSet.from_dict({**base_flags, **flags}, where=f"{vwhere} rules")
        strategies = _strategies(raw["strategies"], vwhere) if "strategies" in raw else base_strategies
        knobs = _merge_knobs(base_knobs, _knobs(raw.get("knobs", {}), vwhere))
        variants.append(
            Variant(
                name=vname,
                rules=rules,
                strategies=strategies,
                knobs=knobs,
                description=_string(raw.get("description", ""), "description", vwhere),
            )
        )
    baseline = _string(data.get("baseline", variants[0].name), "baseline", where)
    if baseline not in seen:
        raise ValueError(
            f"baseline = {baseline!r} in {where} is not a variant; "
            f"variants: {', '.join(v.name for v in variants)}"
        )
    return Experiment(
        name=exp_name,
        description=description,
        n_deals=n_deals,
        seed=seed,
        chunk_size=chunk_size,
        dealer=dealer,
        record_hands=record_hands,
        variants=tuple(variants),
        baseline=baseline,
        source=where,
    )


def load_experiment(path: str | os.PathLike[str]) -> Experiment:
    """Read and validate an experiment TOML file.

    Parameters
    ----------
    path : path-like
        The ``.toml`` file; its stem is the default experiment name.

    Returns
    -------
    Experiment

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    ValueError
        On invalid TOML or configuration; the message names the file and the key.

    Examples
    --------
    >>> exp = load_experiment("experiments/bao_replacement.toml")  # doctest: +SKIP
    >>> [v.name for v in exp.variants]  # doctest: +SKIP
    ['classic', 'no_replacement', 'bao_kan', 'no_replacement_bao_kan']
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; give an experiment .toml file")
    if not path.is_file():
        raise FileNotFoundError(f"experiment file {path} not found")
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path} is not valid TOML: {e}") from None
    return experiment_from_dict(data, where=str(path), name=path.stem)


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

    @property
    def deals_per_s(self) -> float:
        return self.deals_computed / self.seconds if self.seconds > 0 else float("nan")

    def load(self) -> pd.DataFrame:
        """The results DataFrame (see :func:`load_results`)."""
        return load_results(self.outdir)


def results_dir(experiment: Experiment, out: str | os.PathLike[str], file_n_deals: int | None = None) -> Path:
    """``out/NAME``, or ``out/NAME-nN`` when ``--n-deals`` changed the file's size."""
    name = experiment.name
    if file_n_deals is not None and experiment.n_deals != file_n_deals:
        name = f"{name}-n{experiment.n_deals}"
    return Path(out) / name


def _resolve_jobs(n_jobs: int | None) -> int:
    import joblib

    if n_jobs is None:
        return joblib.cpu_count()
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(
            f"n_jobs = {n_jobs!r} is impossible: give a positive worker count, or -1 for all cores"
        )
    return joblib.cpu_count() if n_jobs == -1 else n_jobs


def _prepare(outdir: Path, experiment: Experiment, force: bool) -> None:
    """Refuse or clear results of another configuration; remove temporary files."""
    _runner.clean_partials(outdir)
    if force:
        _runner.clear_chunks(outdir)
        return
    manifest = _runner.read_manifest(outdir)
    if manifest is not None and manifest.get("config_hash") != experiment.config_hash():
        old = manifest.get("config", {})
        changes = _plan_differences(old, experiment.resolved())
        raise ValueError(
            f"{outdir} holds results of a different configuration of {experiment.source} "
            f"(hash {manifest.get('config_hash')} != {experiment.config_hash()}; changed: {changes}); "
            "re-run with --force to discard them, or give the experiment a new name"
        )
    fingerprint = _runner.engine_fingerprint()
    if (
        manifest is not None
        and manifest.get("engine_fingerprint") != fingerprint
        and _runner.has_chunks(outdir)
    ):
        raise ValueError(
            f"{outdir} holds chunks played by another version of the simulator (package "
            f"{manifest.get('package_version', '?')}, engine fingerprint "
            f"{manifest.get('engine_fingerprint')} != {fingerprint}): its deals may differ from "
            "this version's and are not mixed with them; re-run with --force to recompute them, "
            "or write elsewhere with --out"
        )
    if manifest is None and _runner.has_chunks(outdir):
        raise ValueError(
            f"{outdir} holds chunks but no {_runner.MANIFEST}; re-run with --force to discard them"
        )


def _plan_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    diffs = [k for k in new if k not in ("variants", "description") and old.get(k) != new.get(k)]
    old_v = {v["name"]: v for v in old.get("variants", [])}
    for v in new["variants"]:
        o = old_v.pop(v["name"], None)
        if o is None:
            diffs.append(f"new variant {v['name']}")
            continue
        for part in ("rules", "strategies", "knobs"):
            if o.get(part) != v.get(part):
                if part == "rules":
                    keys = sorted(k for k in v["rules"] if o["rules"].get(k) != v["rules"][k])
                    diffs.append(f"{v['name']}.rules.{','.join(keys)}")
                else:
                    diffs.append(f"{v['name']}.{part}")
    diffs += [f"removed variant {name}" for name in old_v]
    return "; ".join(diffs) or "order"


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
    """Run (or resume) an experiment into ``out/NAME``.

    Parameters
    ----------
    path_or_experiment : path-like or Experiment
        A TOML file or an :class:`Experiment`.
    n_jobs : int, optional
        Worker processes; ``None`` or ``-1`` for all cores. Results do not depend on it.
    out : path-like
        Results root; the experiment writes ``out/NAME`` (``out/NAME-nN`` with ``n_deals``).
    n_deals : int, optional
        Override the file's deals per variant (a quick look).
    force : bool
        Discard existing chunks (needed when the configuration or the simulator's code changed:
        chunks are only reused under the same config hash and engine fingerprint).
    backend : {"loky", "dask"}
        ``"dask"`` runs the chunks on a dask.distributed cluster through joblib.
    scheduler : str, optional
        Address of the dask scheduler; without it a local cluster of ``n_jobs`` workers.
    progress : bool
        Show a tqdm bar (deals/s, time left).
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
    """
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
        _runner.require_dask()
    jobs = _resolve_jobs(n_jobs)
    outdir = results_dir(experiment, out, file_n_deals)
    with _runner.run_lock(outdir):
        return _run_locked(
            experiment, outdir, jobs, force, backend, scheduler, progress, summary, simulate_fn, on_chunk
        )


def _run_locked(
    experiment: Experiment,
    outdir: Path,
    jobs: int,
    force: bool,
    backend: str,
    scheduler: str | None,
    progress: bool,
    summary: bool,
    simulate_fn: Callable[..., pd.DataFrame] | None,
    on_chunk: Callable[[str, int], None] | None,
) -> RunResult:
    from tqdm.auto import tqdm

    _prepare(outdir, experiment, force)
    tasks = experiment.tasks()
    pending = [
        t for t in tasks if _runner.chunk_rows(_runner.chunk_path(outdir, t.variant, t.index)) != t.n_deals
    ]
    done_deals = sum(t.n_deals for t in tasks) - sum(t.n_deals for t in pending)
    manifest = {
        "name": experiment.name,
        "source": experiment.source,
        "config_hash": experiment.config_hash(),
        "config": {**experiment.resolved(), "source": experiment.source},
        "package_version": _version(),
        "engine_fingerprint": _runner.engine_fingerprint(),
        "git_commit": _runner.git_commit(),
        "status": "running",
        "started": _runner.now_utc(),
        "finished": None,
        "n_jobs": jobs,
        "backend": backend,
        "chunks": len(tasks),
        "chunks_computed": 0,
        "deals_computed": 0,
        "seconds": None,
        "deals_per_s": None,
    }
    previous = None if force else _runner.read_manifest(outdir)
    if previous and previous.get("config_hash") == manifest["config_hash"]:
        manifest["first_started"] = previous.get("first_started", previous.get("started"))
    else:
        manifest["first_started"] = manifest["started"]
    _runner.write_manifest(outdir, manifest)

    t0 = time.perf_counter()
    bar = tqdm(
        total=sum(t.n_deals for t in tasks),
        initial=done_deals,
        unit="deal",
        unit_scale=True,
        desc=experiment.name,
        disable=not progress,
        smoothing=0.05,
        file=sys.stderr,
    )
    try:
        computed = _runner.run_tasks(
            pending,
            outdir,
            n_jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            simulate_fn=simulate_fn,
            on_chunk=on_chunk,
            progress_bar=bar,
        )
    except BaseException:
        manifest.update(status="interrupted", finished=_runner.now_utc(), deals_computed=bar.n - done_deals)
        _runner.write_manifest(outdir, manifest)
        raise
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    manifest.update(
        status="complete",
        finished=_runner.now_utc(),
        chunks_computed=len(pending),
        deals_computed=computed,
        seconds=round(seconds, 3),
        deals_per_s=round(computed / seconds, 1) if computed and seconds > 0 else None,
    )
    _runner.write_manifest(outdir, manifest)
    result = RunResult(
        outdir=outdir,
        n_chunks=len(tasks),
        n_computed=len(pending),
        n_reused=len(tasks) - len(pending),
        deals_computed=computed,
        seconds=seconds,
    )
    if summary:
        result.summary = _write_summary(outdir, experiment.baseline)
    return result


def _write_summary(outdir: Path, baseline: str) -> pd.DataFrame:
    from daqing_sim.analysis.estimators import write_summary

    return write_summary(load_results(outdir), outdir, baseline=baseline)


def _version() -> str:
    from daqing_sim import __version__

    return __version__


def load_results(
    path: str | os.PathLike[str],
    *,
    allow_partial: bool = False,
    columns: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Load a results directory as one DataFrame.

    Parameters
    ----------
    path : path-like
        ``results/NAME`` as written by :func:`run_experiment`.
    allow_partial : bool
        Load the finished chunks of an interrupted run instead of raising.
    columns : sequence of str, optional
        Read only these columns (``variant`` and ``deal`` are always included).
    variants : sequence of str, optional
        Read only these variants.

    Returns
    -------
    pandas.DataFrame
        The ``simulate`` schema plus a ``variant`` categorical column (in the
        experiment's order), sorted by variant then deal.
    """
    return _runner.load_chunks(Path(path), allow_partial=allow_partial, columns=columns, variants=variants)


# ---------------------------------------------------------------- plan and CLI


def describe_plan(
    experiment: Experiment, outdir: Path, n_jobs: int, backend: str, scheduler: str | None = None
) -> str:
    """The resolved plan printed by ``--dry-run``."""
    n_var = len(experiment.variants)
    done = sum(
        _runner.chunk_rows(_runner.chunk_path(outdir, t.variant, t.index)) == t.n_deals
        for t in experiment.tasks()
    )
    where = (
        f"dask scheduler {scheduler}"
        if scheduler
        else ("local dask cluster" if backend == "dask" else "loky")
    )
    lines = [
        f"experiment {experiment.name}: {experiment.description}".rstrip(": "),
        f"  file:      {experiment.source}",
        f"  deals:     {experiment.n_deals:,} per variant x {n_var} variant(s) = "
        f"{experiment.n_deals * n_var:,} deals, seed {experiment.seed}, dealer seat {experiment.dealer}",
        f"  chunks:    {experiment.chunk_size:,} deals each, {experiment.n_chunks} per variant, "
        f"{experiment.n_chunks * n_var} in all ({done} already done)",
        f"  results:   {outdir} (config hash {experiment.config_hash()})",
        f"  workers:   {n_jobs} ({where})",
        f"  baseline:  {experiment.baseline}",
        "  variants (rules differing from classic):",
    ]
    width = max(len(v.name) for v in experiment.variants)
    for v in experiment.variants:
        changed = v.rules.changed()
        flags = ", ".join(f"{k}={_toml_value(x)}" for k, x in changed.items()) or "classic"
        used = [f"{k}.{n}={x}" for k, t in v.knobs.items() if k in v.strategies for n, x in t.items()]
        knobs = f"; knobs {', '.join(used)}" if used else ""
        lines.append(f"    {v.name:<{width}}  {flags}")
        lines.append(f"    {'':<{width}}  strategies: {' '.join(v.strategies)}{knobs}")
    return "\n".join(lines)


def _toml_value(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def _cmd_run(args: argparse.Namespace) -> int:
    file_experiment = load_experiment(args.file)
    experiment = file_experiment
    if args.n_deals is not None:
        experiment = experiment.with_n_deals(args.n_deals)
    jobs = _resolve_jobs(args.jobs)
    if args.backend not in BACKENDS:
        raise ValueError(f"backend {args.backend!r} is unknown; choose one of {', '.join(BACKENDS)}")
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError("--scheduler is an address of a dask scheduler: it needs --backend dask")
    outdir = results_dir(experiment, args.out, file_experiment.n_deals)
    if args.dry_run:
        print(describe_plan(experiment, outdir, jobs, args.backend, args.scheduler))
        return 0
    result = run_experiment(
        file_experiment,
        n_jobs=jobs,
        n_deals=args.n_deals,
        out=args.out,
        force=args.force,
        backend=args.backend,
        scheduler=args.scheduler,
        progress=not args.no_progress,
        summary=not args.no_summary,
    )
    rate = f", {result.deals_per_s:,.0f} deals/s" if result.deals_computed else ""
    print(
        f"{experiment.name}: {result.n_computed} chunk(s) computed, {result.n_reused} reused "
        f"in {result.seconds:.1f} s{rate}; results in {result.outdir}"
    )
    if result.summary is not None:
        print(format_summary(result.summary))
    return 0


def format_summary(summary: pd.DataFrame) -> str:
    """The headline table printed after a run (a dozen rows per variant) and the files written.

    ``summary`` is the tidy table of ``write_summary`` (one row per variant and metric);
    the full table stays in ``summary.csv``.
    """
    from daqing_sim.analysis.summary import headline_table

    note = "estimate (95% CI lo to hi); paired differences Bonferroni-adjusted."
    lines = [headline_table(summary), "", note]
    lines.append(f"full table: {summary['metric'].nunique()} metrics per variant in summary.csv")
    lines += [f"plot: {p}" for p in summary.attrs.get("plots", [])]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    """Add the ``run`` sub-command."""
    p = subparsers.add_parser(
        "run",
        help="run (or resume) an experiment from a TOML file",
        description="Run an experiment file (experiments/*.toml) into OUT/NAME, resuming finished chunks.",
    )
    p.add_argument("file", help="experiment TOML file, e.g. experiments/baseline.toml")
    p.add_argument("--dry-run", action="store_true", help="print the resolved plan and exit")
    p.add_argument("--n-deals", type=int, default=None, metavar="N", help="deals per variant (quick look)")
    p.add_argument(
        "--jobs", type=int, default=None, metavar="N", help="worker processes (default: all cores)"
    )
    p.add_argument("--out", default="results", metavar="DIR", help="results root (default: results/)")
    p.add_argument("--force", action="store_true", help="discard existing chunks of this experiment")
    p.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend (default: loky)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler address")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-summary", action="store_true", help="skip summary.csv and plots")
    p.set_defaults(func=_cmd_run)
