"""Duplicate tournaments: four entrants, every wall in all four seat rotations; ``ds.tournament``.

Rotation ``r`` seats entrant ``i`` at seat ``(i + r) % 4`` and is one ``ds.simulate`` call with
the tournament's seed: the same seed gives the same walls and deal seeds in every rotation
(:func:`daqing_sim.game.wall.generate_walls` depends on ``(seed, deal)`` only), so over the
four rotations every entrant plays every seat's tiles, the dealer's included, of every wall.
The statistics are :mod:`daqing_sim.analysis.duplicate` (walls are the independent units).

From TOML, a ``[tournament]`` table (:mod:`daqing_sim.experiments.config`) expands into the
four rotation variants and runs through the experiment runner; the CLI is
``daqing-sim tournament A B C D --walls N --seed S``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from daqing_sim.analysis.duplicate import duplicate_table, tournament_pairs
from daqing_sim.analysis.intervals import CONFIDENCE
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.entrants import (
    N_ROTATIONS,
    check_entrants,
    entrant_label,
    rotate,
    rotation_name,
    seat_labels,
)
from daqing_sim.experiments.runner import check_results_args, experiment_results
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_fits_memory, check_int

__all__ = ["tournament", "tournament_frames", "tournament_results", "tournament_pairs"]

#: prefix of the rotations played with a baseline (:func:`tournament`)
BASELINE = "baseline_"


def tournament_frames(
    entrants: Sequence[Any],
    n_walls: int,
    seed: int,
    rules: RuleSet = RuleSet(),
    n_jobs: int = 1,
    progress: bool = False,
    *,
    simulate_fn: Callable[..., pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """The results frames of the four rotations, one after the other, with a ``variant`` column.

    Parameters
    ----------
    entrants, n_walls, seed, rules, n_jobs, progress
        As for :func:`tournament`.
    simulate_fn : callable, optional
        Replacement for :func:`daqing_sim.game.simulate.simulate` (tests).

    Returns
    -------
    DataFrame
        The ``simulate`` columns plus ``variant`` (``rotation_0`` .. ``rotation_3``); deals
        ``0 .. n_walls - 1`` in each rotation.
    """
    n_seats = _seats(rules)
    entrants = check_entrants(entrants, n_seats=n_seats)
    n_walls = check_int(n_walls, "n_walls", minimum=1)
    seed = check_int(seed, "seed")
    # the rotations' frames are held at once
    check_fits_memory(
        n_seats * n_walls,
        f"deals ({n_seats} rotations x n_walls)",
        "play fewer walls, or run a [tournament] experiment file",
    )
    if simulate_fn is None:
        from daqing_sim.game.simulate import simulate as simulate_fn
    frames = []
    for r in range(n_seats):
        df = simulate_fn(
            n_walls,
            strategies=tuple(rotate(entrants, r)),
            knobs=None,
            seed=seed,
            rules=rules,
            n_jobs=n_jobs,
            progress=progress,
        )
        df.insert(0, "variant", rotation_name(r))
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    out["variant"] = pd.Categorical(out["variant"], categories=[rotation_name(r) for r in range(n_seats)])
    return out


def _seats(rules: Any) -> int:
    """Seats (entrants and rotations) of a tournament under ``rules``: four, two-player two."""
    from daqing_sim.players.registry import FAMILY_SEATS

    return FAMILY_SEATS.get(getattr(rules, "family", "daqing"), N_ROTATIONS)


def tournament(
    entrants: Sequence[Any],
    n_walls: int,
    seed: int,
    rules: RuleSet = RuleSet(),
    n_jobs: int = 1,
    progress: bool = False,
    *,
    confidence: float = CONFIDENCE,
    baseline: Any = None,
) -> pd.DataFrame:
    """Play a duplicate tournament of four entrants (two under the two-player family) and rate
    them, one row per entrant label.

    Every wall ``0 .. n_walls - 1`` of ``seed`` is played in all the cyclic seat rotations
    (rotation ``r`` seats entrant ``i`` at seat ``(i + r) % n``, ``n`` the seats) with the same
    deal seeds, so each entrant plays every seat's tiles of every wall; entrants with the same
    label are pooled (copies of one player). Heads-up (two-player): the same walls with the
    seats swapped.

    Parameters
    ----------
    entrants : sequence of 4 (two-player: 2)
        Each a strategy name, ``(name, {knob: value})`` or a player object, handed to
        :func:`daqing_sim.game.simulate.simulate` unchanged. Labels: the name;
        ``name(knob=value,...)``; a player's ``name`` attribute, else its class name.
    n_walls : int
        Walls (deals per rotation); the tournament plays ``4 * n_walls`` deals (``2 * n_walls``
        two-player games).
    seed : int
        Seed of the walls, the same for the four rotations.
    rules : RuleSet
    n_jobs : int
        Worker processes of each ``simulate`` call; results do not depend on it.
    progress : bool
        Progress bars of the ``simulate`` calls.
    confidence : float
        Level of the intervals.
    baseline : entrant, optional
        An entrant to compare with the first: the tournament is played a second time with
        ``baseline`` in the first entrant's place, on the same walls and deal seeds against the
        same others (rotations ``baseline_rotation_0`` ..), and both are rated together. The
        table gains the baseline's row (the others' rows pool both tournaments, and the "vs the
        others" difference of the first entrant and of the baseline counts the other one among
        them); :func:`tournament_pairs` then holds the paired difference of the first entrant
        and the baseline over walls, each against the same field on the same tiles: how a
        change of a player, or of its knobs, is measured.

    Returns
    -------
    DataFrame
        ``entrant, copies, n_walls, n_seat_deals, mean_pay, lo, hi, diff, diff_lo, diff_hi,
        sd_wall, confidence``: ``mean_pay`` the mean payment per seat-deal (``pay_s``, 2^N
        units); ``lo, hi`` a Student t interval for the entrant's **expected payment per
        seat-deal in this field** over the population of walls, from per-wall means (the
        entrant's mean over all its seat-deals of a wall, the wall being the independent
        unit); ``diff`` with ``diff_lo, diff_hi`` the same for the per-wall difference between
        the entrant and the mean of the other labels. Intervals are not adjusted for the
        number of entrants. Every ordered pair's paired difference (``a`` minus ``b``):
        :func:`tournament_pairs` of the table.

    Raises
    ------
    ValueError
        On other than four entrants, a bad ``n_walls`` or ``seed``, a ``baseline`` labelled as an
        entrant, or what ``simulate`` rejects.

    Examples
    --------
    >>> t = tournament(["greedy", "random", "random", "random"], n_walls=30, seed=1)
    >>> t[["entrant", "copies", "n_seat_deals"]].values.tolist()
    [['greedy', 1, 120], ['random', 3, 360]]
    >>> tournament_pairs(t)[["a", "b"]].values.tolist()
    [['greedy', 'random'], ['random', 'greedy']]

    A knob's change, against the same field on the same walls:

    >>> t = tournament([("defensive", {"fold_shanten": 3}), "greedy", "greedy", "greedy"],
    ...                n_walls=30, seed=1, baseline="defensive")
    >>> t[["entrant", "copies", "n_seat_deals"]].values.tolist()
    [['defensive(fold_shanten=3)', 1, 120], ['greedy', 3, 720], ['defensive', 1, 120]]
    >>> pair = tournament_pairs(t).query("a == 'defensive(fold_shanten=3)' and b == 'defensive'")
    >>> len(pair)
    1
    """
    entrants = check_entrants(entrants, n_seats=_seats(rules))
    frames = tournament_frames(entrants, n_walls, seed, rules, n_jobs, progress)
    labels = seat_labels(entrants)
    if baseline is not None:
        label = entrant_label(baseline)
        if label in {entrant_label(e) for e in entrants}:
            raise ValueError(
                f"baseline {label!r} is already an entrant: give another player, or other knobs, to "
                f"compare with {entrant_label(entrants[0])!r}"
            )
        field = [baseline, *entrants[1:]]
        more = tournament_frames(field, n_walls, seed, rules, n_jobs, progress)
        more["variant"] = more["variant"].cat.rename_categories(lambda name: f"{BASELINE}{name}")
        frames = pd.concat([frames, more], ignore_index=True)
        labels |= {f"{BASELINE}{name}": seats for name, seats in seat_labels(field).items()}
    return duplicate_table(frames, labels, confidence=confidence)


def tournament_results(
    path: str | os.PathLike[str],
    n_walls: int | None = None,
    out: str | os.PathLike[str] = "results",
    n_jobs: int | None = 1,
) -> pd.DataFrame:
    """The tournament table of a ``[tournament]`` experiment file, from its results.

    Loads (or runs small, as :func:`daqing_sim.experiments.runner.experiment_results` does)
    the experiment's four rotations and rates them as :func:`tournament` does.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from daqing_sim.experiments.runner import run_experiment
    >>> tmp = tempfile.TemporaryDirectory()
    >>> toml, out = Path(tmp.name) / "mini.toml", Path(tmp.name) / "results"
    >>> _ = toml.write_text(
    ...     'name = "mini"\\nchunk_size = 8\\n[tournament]\\n'
    ...     'entrants = ["greedy", "random", "random", "random"]\\nn_walls = 16\\nseed = 1\\n'
    ... )
    >>> _ = run_experiment(toml, n_jobs=1, out=out, progress=False, summary=False)
    >>> t = tournament_results(toml, out=out)
    >>> t[["entrant", "copies", "n_seat_deals"]].values.tolist()
    [['greedy', 1, 64], ['random', 3, 192]]
    >>> tmp.cleanup()
    """
    check_results_args(path, n_walls, "n_walls", out)
    experiment = load_experiment(path)
    if experiment.tournament is None:
        raise ValueError(f"{path} has no [tournament] table; give a tournament experiment file")
    frames = experiment_results(path, n_deals=n_walls, out=out, n_jobs=n_jobs)
    return duplicate_table(frames, experiment.tournament.seat_labels())
