"""The ``daqing-sim run`` sub-command: plan (``--dry-run``), run, and the summary it prints."""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from daqing_sim.experiments import runner as _runner
from daqing_sim.experiments.config import Experiment, load_experiment


def describe_plan(
    experiment: Experiment, outdir: Any, n_jobs: int, backend: str, scheduler: str | None = None
) -> str:
    """The resolved plan printed by ``--dry-run``."""
    n_var = len(experiment.variants)
    done = _runner.count_done(outdir, experiment)
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
        *([f"  defaults:  {experiment.default_note()}"] if experiment.defaults else []),
        f"  results:   {outdir} (config hash {experiment.config_hash()})",
        f"  workers:   {n_jobs} ({where})",
        f"  baseline:  {experiment.baseline}",
        "  variants (rules differing from classic):",
    ]
    if experiment.tournament is not None:
        labels = ", ".join(experiment.tournament.labels())
        walls = f"each of the {experiment.n_deals:,} walls in {n_var} seat rotations"
        lines.insert(-1, f"  tournament: {labels}; {walls}")
    width = max(len(v.name) for v in experiment.variants)
    for v in experiment.variants:
        changed = v.rules.changed()
        flags = ", ".join(f"{k}={_toml_value(x)}" for k, x in changed.items()) or "classic"
        if v.rules.family != "daqing":  # Daqing variants print as they always did
            flags = f"family={v.rules.family}" + ("" if flags == "classic" else f", {flags}")
        used = [f"{k}.{n}={x}" for k, t in v.knobs.items() if k in v.strategies for n, x in t.items()]
        used += [f"seat{s}.{n}={x}" for s, t in enumerate(v.seat_knob_overrides or ()) for n, x in t.items()]
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
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError("--scheduler is an address of a dask scheduler: it needs --backend dask")
    jobs = _runner.resolve_jobs(args.jobs, args.backend)
    outdir = _runner.results_dir(experiment, args.out, file_experiment.n_deals)
    _runner.check_plan(experiment, outdir, jobs, args.backend)
    if args.dry_run:
        print(describe_plan(experiment, outdir, jobs, args.backend, args.scheduler))
        return 0
    result = _runner.run_experiment(
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
    print(result.closing_line(experiment.name))
    if result.summary is not None:
        print(format_summary(result.summary))
    if result.tournament is not None:
        from daqing_sim.analysis.duplicate import format_tournament, tournament_pairs

        print(f"\nduplicate tournament ({_runner.TOURNAMENT_CSV}, {_runner.TOURNAMENT_PAIRS_CSV}):")
        family = experiment.variants[0].rules.family  # a tournament's rotations share one family
        print(format_tournament(result.tournament, tournament_pairs(result.tournament), family))
    return 0


def format_summary(summary: pd.DataFrame) -> str:
    """The headline table printed after a run (a dozen rows per variant) and the files written.

    ``summary`` is the tidy table of ``write_summary`` (one row per variant and metric);
    the full table stays in ``summary.csv``.
    """
    from daqing_sim.analysis.summary import headline_table

    note = "estimate (95% CI lo to hi); paired differences Bonferroni-adjusted."
    if "family_beijing" in set(summary["metric"]):
        note += (
            " Paired differences only between variants of one rule family (walls are shared only"
            " within a family); Beijing money in base units (points / base_points)."
        )
    if "family_two_player" in set(summary["metric"]):
        note += (
            " Two-player games: paired differences only between two-player variants; money in points"
            " (F x multiplier x points per fan)."
        )
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
    p.add_argument(
        "--n-deals",
        type=int,
        default=None,
        metavar="N",
        help="deals per variant: a quick look, written to OUT/.quick/NAME-nN",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default and at most: the usable cores; not capped with dask)",
    )
    p.add_argument("--out", default="results", metavar="DIR", help="results root (default: results/)")
    p.add_argument(
        "--force",
        action="store_true",
        help="discard existing chunks (needed when a variant's settings or the simulator changed)",
    )
    p.add_argument(
        "--backend", choices=_runner.BACKENDS, default="loky", help="joblib backend (default: loky)"
    )
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler address")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-summary", action="store_true", help="skip summary.csv and plots")
    p.set_defaults(func=_cmd_run)
