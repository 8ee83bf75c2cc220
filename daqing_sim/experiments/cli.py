"""What ``daqing-sim run`` prints (:mod:`daqing_sim.commands.run`): the plan (``--dry-run``) and
the summary."""

from __future__ import annotations

from typing import Any

import pandas as pd

from daqing_sim.experiments import runner as _runner
from daqing_sim.experiments.config import Experiment


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
