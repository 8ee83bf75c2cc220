"""``daqing-sim run``: plan (``--dry-run``), run or resume an experiment file
(:func:`daqing_sim.experiments.runner.run_experiment`) and print its summary."""

from __future__ import annotations

import argparse
from typing import Any

#: the joblib backends of ``--backend`` (``experiments.runner.BACKENDS``; a test keeps them equal)
BACKENDS = ("loky", "dask")


def _cmd_run(args: argparse.Namespace) -> int:
    from daqing_sim.experiments import runner
    from daqing_sim.experiments.cli import describe_plan, format_summary
    from daqing_sim.experiments.config import load_experiment

    file_experiment = load_experiment(args.file)
    experiment = file_experiment
    if args.n_deals is not None:
        experiment = experiment.with_n_deals(args.n_deals)
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError("--scheduler is an address of a dask scheduler: it needs --backend dask")
    jobs = runner.resolve_jobs(args.jobs, args.backend)
    outdir = runner.results_dir(experiment, args.out, file_experiment.n_deals)
    runner.check_plan(experiment, outdir, jobs, args.backend)
    if args.dry_run:
        print(describe_plan(experiment, outdir, jobs, args.backend, args.scheduler))
        return 0
    result = runner.run_experiment(
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

        print(f"\nduplicate tournament ({runner.TOURNAMENT_CSV}, {runner.TOURNAMENT_PAIRS_CSV}):")
        family = experiment.variants[0].rules.family  # a tournament's rotations share one family
        print(format_tournament(result.tournament, tournament_pairs(result.tournament), family))
    return 0


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
    p.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend (default: loky)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler address")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-summary", action="store_true", help="skip summary.csv and plots")
    p.set_defaults(func=_cmd_run)
