"""Helpers shared by the analysis notebooks (``notebooks/*.py``): results, prose, table lookups.

A notebook starts with ``ws = Workspace(n_deals, results_root, n_jobs)`` (its ``parameters``
cell) and reads experiments with ``ws.results("baseline")``; the prose helpers turn table
rows into the sentences of its Markdown answers. Nothing here is needed outside a notebook.

>>> import pandas as pd
>>> t = pd.DataFrame({"variant": ["a", "b"], "metric": ["win", "win"], "diff": [0.01, -0.02],
...                   "lo": [0.005, -0.03], "hi": [0.015, -0.01]})
>>> pp(pick(t, variant="b"))
'-2.0 pp (95% CI -3.0 to -1.0)'
>>> verdict(0.005, 0.015)
'higher'
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from daqing_sim.analysis.summary import format_ci, format_diff

__all__ = [
    "Workspace",
    "find_root",
    "short_warning",
    "ci",
    "verdict",
    "level",
    "pp",
    "num",
    "row_ci",
    "has",
    "note_missing",
    "pick",
    "metric",
    "mci",
    "apart",
    "variant_frame",
]

ci = format_ci


def find_root(start: str | os.PathLike | None = None) -> Path:
    """The repository root: the first of ``start`` (default the working directory) and its parents
    holding an ``experiments`` folder.

    >>> (find_root() / "experiments").is_dir()
    True
    """
    here = Path(start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "experiments").is_dir():
            return p
    raise FileNotFoundError(
        f"no experiments/ folder in {here} or above it; start Jupyter inside the daqing_sim repository"
    )


def short_warning(message, category, filename, lineno, line=None) -> str:
    """``warnings.formatwarning`` without the file name: a notebook's output never shows
    a path of the machine that ran it (kernel temporary files, site-packages).

    >>> short_warning(UserWarning("glyph missing"), UserWarning, "/tmp/ipykernel_1/x.py", 9)
    'UserWarning: glyph missing\\n'
    """
    return f"{category.__name__}: {message}\n"


class Workspace:
    """Where a notebook's results come from, set up from its ``parameters`` cell.

    Parameters
    ----------
    n_deals : int
        Deals per variant of the small run made when ``results_root/NAME`` has no full results.
    results_root : path-like, optional
        Folder of the experiment results (default ``<repo>/results``).
    n_jobs : int
        Worker processes of that small run.

    Creating one also sets the notebooks' display options (pandas precision and width),
    silences tqdm's "IProgress not found" and prints warnings without file paths.

    Examples
    --------
    >>> ws = Workspace(n_deals=100)
    >>> ws.out == ws.root / "results"
    True
    >>> ws.descriptions("kong_fan")["kong_fan"]
    '+1 fan per kong of the winner'
    """

    def __init__(self, n_deals: int = 2000, results_root: str | os.PathLike | None = None, n_jobs: int = 1):
        self.n_deals = int(n_deals)
        self.n_jobs = n_jobs
        self.root = find_root()
        self.out = Path(results_root) if results_root else self.root / "results"
        warnings.filterwarnings("ignore", message="IProgress not found")  # tqdm without ipywidgets
        warnings.formatwarning = short_warning
        pd.set_option("display.precision", 4)
        pd.set_option("display.width", 160)

    def experiment(self, name: str) -> Path:
        """The path of ``experiments/NAME.toml``."""
        path = self.root / "experiments" / f"{name}.toml"
        if not path.is_file():
            shipped = sorted(p.stem for p in (self.root / "experiments").glob("*.toml"))
            raise FileNotFoundError(f"no experiment {name!r}; the shipped ones are {', '.join(shipped)}")
        return path

    def results(self, name: str) -> pd.DataFrame:
        """The full results of ``experiments/NAME.toml``, else a run of ``n_deals`` deals per variant."""
        from daqing_sim.experiments.runner import experiment_results

        # the notebook computes its own figures: a small run's summary and plots are not needed
        return experiment_results(
            self.experiment(name), n_deals=self.n_deals, out=self.out, n_jobs=self.n_jobs, summary=False
        )

    def descriptions(self, name: str) -> dict[str, str]:
        """Variant name -> description of ``experiments/NAME.toml``."""
        from daqing_sim.experiments.config import load_experiment

        return {v.name: v.description for v in load_experiment(self.experiment(name)).variants}


def verdict(lo: float, hi: float, up: str = "higher", down: str = "lower", none: str | None = None) -> str:
    """Wording of an interval for a difference: above zero, below zero, or neither.

    >>> verdict(-0.1, 0.2)
    'not distinguishable from zero'
    """
    none = "not distinguishable from zero" if none is None else none
    return up if lo > 0 else down if hi < 0 else none


def level(r) -> float:
    """The confidence level of a table row (its ``confidence`` column, else 0.95)."""
    return float(r["confidence"]) if "confidence" in r else 0.95


def pp(r) -> str:
    """A paired difference of proportions in percentage points with its (possibly adjusted) interval."""
    return format_diff(r["diff"], r["lo"], r["hi"], percent=True, confidence=level(r))


def num(r) -> str:
    """A paired difference in 2^N points with its (possibly adjusted) interval."""
    return format_diff(r["diff"], r["lo"], r["hi"], confidence=level(r))


def row_ci(r, estimate: str = "p", percent: bool = True) -> str:
    """:func:`ci` of a table row holding an estimate column and its ``lo``/``hi`` columns."""
    return format_ci(r[estimate], r["lo"], r["hi"], percent=percent)


def has(df: pd.DataFrame, base: str) -> bool:
    """Whether the frame carries the per-seat columns ``base_0`` .. ``base_3``."""
    return all(f"{base}_{s}" in df.columns for s in range(4))


def note_missing(base: str) -> None:
    """Say that a part of the notebook is skipped because the results lack ``base_s`` columns."""
    print(
        f"Note: these results have no {base}_s columns (simulated before the engine recorded them); "
        "this part is skipped. Re-run the experiment to see it."
    )


def pick(table: pd.DataFrame, **where) -> pd.Series:
    """The single row of ``table`` matching ``column == value`` for every keyword (compared as text)."""
    sel = np.ones(len(table), dtype=bool)
    for col, value in where.items():
        sel &= (table[col].astype(str) == str(value)).to_numpy()
    if not sel.any():
        raise KeyError(f"pick: no row with {where}")
    return table[sel].iloc[0]


def metric(summary: pd.DataFrame, variant: str, name: str) -> pd.Series:
    """The row (estimate, lo, hi, n, method) of a tidy summary for one variant and metric."""
    return pick(summary, variant=variant, metric=name)


def mci(summary: pd.DataFrame, variant: str, name: str, percent: bool = True) -> str:
    """:func:`ci` of one metric of a tidy summary."""
    r = metric(summary, variant, name)
    return format_ci(r.estimate, r.lo, r.hi, percent=percent)


def apart(a: float, b: float, max_decimals: int = 3) -> tuple[str, str]:
    """Two numbers written with the fewest decimals (at least one) that tell them apart.

    >>> apart(3.4612, 3.5188)
    ('3.46', '3.52')
    >>> apart(2.0, 3.0)
    ('2.0', '3.0')
    """
    for d in range(1, max_decimals + 1):
        sa, sb = f"{a:.{d}f}", f"{b:.{d}f}"
        if sa != sb:
            return sa, sb
    return sa, sb


def variant_frame(df: pd.DataFrame, name: str) -> pd.DataFrame:
    """The rows of one variant, as a frame of that variant only (its ``variant`` column dropped).

    >>> t = pd.DataFrame({"variant": pd.Categorical(["a", "b"]), "deal": [0, 0]})
    >>> list(variant_frame(t, "b")["deal"]), "variant" in variant_frame(t, "b")
    ([0], False)
    """
    if name not in set(df["variant"].astype(str)):
        raise KeyError(
            f"variant_frame: no variant {name!r}; variants: {', '.join(map(str, df['variant'].unique()))}"
        )
    return df[df["variant"].astype(str) == name].drop(columns="variant").reset_index(drop=True)
