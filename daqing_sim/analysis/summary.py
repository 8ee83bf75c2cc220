"""The summary of a run: one registry of metrics, ``summary.csv`` in tidy form, and prose formatting.

``summary.csv`` has one row per (variant, metric) with ``estimate, lo, hi, n, method``.
Every metric comes from one entry of :data:`SUMMARY_METRICS`; an entry's ``name`` is
the metric's name with its parameters in braces (``ready_{estimand}_{role}_k{k}`` makes
``ready_kaplan_meier_dealer_k6``), so a row of the file is found here by its prefix.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import require, variants
from daqing_sim.analysis.intervals import (
    CONFIDENCE,
)
from daqing_sim.analysis.metrics import FAMILY_NOTE, SUMMARY_COLUMNS, SUMMARY_KS, Metric
from daqing_sim.families import FAMILY_PACKAGES, family_module, family_spec
from daqing_sim.validation import atomic_write

__all__ = [
    "Metric",
    "SUMMARY_METRICS",  # noqa: F822 (a family's, loaded on first use: __getattr__)
    "BEIJING_SUMMARY_METRICS",  # noqa: F822 (a family's, loaded on first use: __getattr__)
    "TWO_PLAYER_SUMMARY_METRICS",  # noqa: F822 (a family's, loaded on first use: __getattr__)
    "SUMMARY_COLUMNS",
    "HEADLINE",
    "BEIJING_HEADLINE",
    "TWO_PLAYER_HEADLINE",
    "SUMMARY_KS",
    "SUMMARY_DIFF_METRICS",  # noqa: F822 (a family's, loaded on first use: __getattr__)
    "summarize",
    "write_summary",
    "headline_table",
    "format_ci",
    "format_diff",
    "format_interval",
]

DEFAULT_FAMILY = next(iter(FAMILY_PACKAGES))  # a run's family when its frame names none
# Printed after a run, in this order; the first present name of each tuple is shown.
HEADLINE = family_spec("daqing").headline
# The headline rows of Beijing variants (none of them is a Daqing metric), after the Daqing rows.
BEIJING_HEADLINE = family_spec("beijing").headline
# The headline rows of two-player variants, after the others.
TWO_PLAYER_HEADLINE = family_spec("two_player").headline
#: names kept here for callers; each is its family's metrics module's (loaded on first use)
_FAMILY_NAMES = {
    "SUMMARY_METRICS": ("daqing", "SUMMARY_METRICS"),
    "SUMMARY_DIFF_METRICS": ("daqing", "SUMMARY_DIFF_METRICS"),
    "BEIJING_SUMMARY_METRICS": ("beijing", "BEIJING_SUMMARY_METRICS"),
    "BEIJING_DIFF_METRICS": ("beijing", "BEIJING_DIFF_METRICS"),
    "BEIJING_COLUMNS": ("beijing", "BEIJING_COLUMNS"),
    "TWO_PLAYER_SUMMARY_METRICS": ("two_player", "TWO_PLAYER_SUMMARY_METRICS"),
    "TWO_PLAYER_DIFF_METRICS": ("two_player", "TWO_PLAYER_DIFF_METRICS"),
}


def __getattr__(name: str):
    if name in _FAMILY_NAMES:
        family, attr = _FAMILY_NAMES[name]
        return getattr(family_module(family, "metrics"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def summarize(
    df: pd.DataFrame, baseline: object | None = None, *, base_points: float | Mapping | None = None
) -> pd.DataFrame:
    """The run's summary in tidy form: one row per (variant, metric) of :data:`SUMMARY_METRICS`.

    A Beijing variant's rows are those of :data:`BEIJING_SUMMARY_METRICS` (money in base units),
    after a ``family_beijing`` row; a two-player variant's those of
    :data:`TWO_PLAYER_SUMMARY_METRICS` (money in points), after a ``family_two_player`` row.
    A frame holding variants of several families (a mixed
    experiment) is summarized family by family: each family's paired differences are taken
    against ``baseline`` when it is of that family, else against the family's first variant,
    and every variant gets a ``family_<name>`` row saying which family it is.

    Parameters
    ----------
    df : DataFrame
        Results frame, with or without a ``variant`` column.
    baseline : optional
        Variant the paired differences are taken against (default the first).
    base_points : number or mapping, optional
        Beijing only: the points of one base unit, for every variant or by variant name
        (default 1,000, the Beijing default; the runner passes each variant's ``base_points``).

    Returns
    -------
    DataFrame
        ``variant, metric, estimate, lo, hi, n, method`` (intervals 95 %; ``method`` says
        how each was computed; the paired differences are family-wise adjusted).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> s = summarize(ds.simulate(30, seed=3))
    >>> list(s.columns)
    ['variant', 'metric', 'estimate', 'lo', 'hi', 'n', 'method']
    >>> s.set_index("metric").loc["deals", "estimate"]
    np.float64(30.0)
    """
    if not isinstance(df, pd.DataFrame):
        require(df, [], "summarize")
    parts = fam.family_parts(df)
    if all(f == DEFAULT_FAMILY for f, _ in parts):  # its frames and summaries predate families
        return family_module(DEFAULT_FAMILY, "metrics").summarize(df, baseline)
    names = variants(df)
    baseline = baseline if baseline not in ("", None) else None
    if baseline is not None and baseline not in names:
        raise ValueError(
            f"summarize: baseline variant {baseline!r} is not in the frame; "
            f"variants: {', '.join(map(str, names))}"
        )
    tables = []
    for family, part in parts:
        own = baseline if baseline in variants(part) else None
        rows = family_module(family, "metrics").summarize(part, own, base_points, len(parts) > 1)
        tables.append(_family_rows(part, family, len(parts) > 1))
        tables.append(rows)
    table = pd.concat(tables, ignore_index=True)[SUMMARY_COLUMNS]
    order = {str(v): i for i, v in enumerate(names)} if names != [None] else {"all": 0}
    table["_v"] = table["variant"].map(order)
    return table.sort_values("_v", kind="stable").drop(columns="_v").reset_index(drop=True)


def _family_rows(df: pd.DataFrame, family: str, mixed: bool) -> pd.DataFrame:
    """One ``family_<name>`` row per variant (estimate 1, n = its deals)."""
    method = f"rule family of the variant ({fam.FAMILY_TITLES.get(family, family)})"
    method += f"; {FAMILY_NOTE}" if mixed else ""
    rows = [
        {"variant": "all" if v is None else str(v), "metric": f"family_{family}"}
        | {
            "estimate": 1.0,
            "lo": 1.0,
            "hi": 1.0,
            "n": int(len(df) if v is None else (df["variant"] == v).sum()),
        }
        | {"method": method}
        for v in variants(df)
    ]
    return pd.DataFrame(rows)


def write_summary(
    df: pd.DataFrame,
    outdir: str | os.PathLike,
    baseline: object | None = None,
    *,
    base_points: float | Mapping | None = None,
) -> pd.DataFrame:
    """Write ``summary.csv`` and PNG plots into ``outdir`` atomically; return the summary.

    Files: ``summary.csv`` (see :func:`summarize`); for the Daqing variants
    ``ready_probability.png``, ``wait_kinds.png``, ``payments.png``, ``risk.png``; for the
    Beijing variants ``beijing_tenpai.png``, ``beijing_fans.png``, ``beijing_values.png``,
    ``beijing_events.png``, ``beijing_deal_length.png``; for the two-player variants
    ``two_player_patterns.png``, ``two_player_deal_length.png``. Each is written to a temporary file
    in ``outdir`` and moved into place, so readers never see a half-written file. The
    returned table's ``attrs["plots"]`` lists the plot paths written.
    """
    outdir = Path(outdir)
    if outdir.exists() and not outdir.is_dir():
        raise ValueError(f"write_summary: {outdir} exists and is not a directory; pass a folder path")
    table = summarize(df, baseline=baseline, base_points=base_points)
    outdir.mkdir(parents=True, exist_ok=True)
    atomic_write(outdir / "summary.csv", lambda p: table.to_csv(p, index=False))
    figures = {}
    for family, part in fam.family_parts(df):
        figures |= family_module(family, "metrics").plots(part, base_points)
    for name, make in figures.items():
        fig = make()
        atomic_write(outdir / name, lambda p, fig=fig: fig.savefig(p, format="png", dpi=100))
    table.attrs["plots"] = [str(outdir / name) for name in figures]
    return table


def headline_table(summary: pd.DataFrame) -> str:
    """The short table printed after a run: :data:`HEADLINE` rows, one column per variant.

    >>> s = pd.DataFrame({"variant": ["a"], "metric": ["win_rate"], "estimate": [0.5], "lo": [0.4],
    ...                   "hi": [0.6], "n": [100], "method": ["Wilson"]})
    >>> print(headline_table(s))
                                a
    win_rate  0.50 (0.40 to 0.60)
    """
    present = set(summary["metric"])
    headline = sum(
        (family_spec(f).headline for f in FAMILY_PACKAGES if f == DEFAULT_FAMILY or f"family_{f}" in present),
        (),
    )
    chosen = list(
        dict.fromkeys(
            next(n for n in names if n in present) for names in headline if any(n in present for n in names)
        )
    )
    rows = summary[summary["metric"].isin(chosen)].copy()
    rows["cell"] = [
        f"{int(r.estimate):,}" if r.metric == "deals" else _short(r.estimate, r.lo, r.hi)
        for r in rows.itertuples()
    ]
    table = rows.pivot(index="metric", columns="variant", values="cell").reindex(
        [c for c in chosen if c in set(rows["metric"])]
    )
    table = table[[v for v in dict.fromkeys(summary["variant"]) if v in table.columns]].fillna("")
    table.columns.name = None
    table.index.name = None
    return table.to_string()


# --------------------------------------------------------------------------- prose


def _decimals(lo: float, hi: float, scale: float, estimate: float = np.nan) -> int:
    """Decimals for an estimate and its interval, all times ``scale``.

    * all three whole numbers, not percentages (a quantile of 2^N payments, a count): none;
    * else the interval's width to two significant digits, at least one decimal;
    * a zero-width or unbounded interval: the estimate to three significant digits.
    """
    values = np.array([estimate, lo, hi], dtype=float) * scale
    finite = values[np.isfinite(values)]
    whole = np.abs(finite - np.round(finite)) <= 1e-9 * np.maximum(1, np.abs(finite))
    if scale == 1 and len(finite) and whole.all():
        return 0
    width = abs(hi - lo) * scale
    if np.isfinite(width) and width > 0:
        return int(min(6, max(1, 1 - math.floor(math.log10(width)))))
    e = abs(estimate * scale)
    if np.isfinite(e) and e > 0:
        return int(min(6, max(1, 2 - math.floor(math.log10(e)))))
    return 3


def _number(x: float, d: int, sign: bool = False) -> str:
    """``x`` with ``d`` decimals; a value that rounds to zero has no sign (never "-0.000")."""
    text = f"{x:+.{d}f}" if sign else f"{x:.{d}f}"
    if np.isfinite(x) and float(text) == 0:
        return f"{0:.{d}f}"
    return text


def format_interval(
    estimate: float, lo: float, hi: float, scale: float = 1, sign: bool = False, digits: int | None = None
) -> tuple[str, str, str]:
    """The three numbers of an estimate and its interval as text, by the rules of :func:`format_ci`.

    >>> format_interval(-16.0, -16.0, -16.0)
    ('-16', '-16', '-16')
    >>> format_interval(-0.0, -0.0, 0.0)
    ('0', '0', '0')
    >>> format_interval(0.0004, -0.0012, 0.0024, sign=True)
    ('+0.0004', '-0.0012', '+0.0024')
    """
    d = _decimals(lo, hi, scale, estimate) if digits is None else digits
    return tuple(_number(scale * v, d, sign) for v in (estimate, lo, hi))


def _short(e: float, lo: float, hi: float) -> str:
    """``0.50 (0.40 to 0.60)``; never a ``nan`` bound: ``n/a`` without an estimate (no case: n = 0),
    ``0.50 (no interval)`` where none can be given.

    >>> _short(0.5, 0.4, float("nan")), _short(float("nan"), float("nan"), float("nan"))
    ('0.500 (no interval)', 'n/a')
    """
    if not np.isfinite(e):
        return "n/a"
    if np.isnan(lo) or np.isnan(hi):
        return f"{format_interval(e, e, e)[0]} (no interval)"
    a, b, c = format_interval(e, lo, hi)
    return f"{a} ({b} to {c})"


def _level(confidence: float) -> str:
    return f"{100 * confidence:.4g}%"


def format_ci(
    estimate: float,
    lo: float,
    hi: float,
    percent: bool = False,
    digits: int | None = None,
    confidence: float = CONFIDENCE,
) -> str:
    """``"12.3% (95% CI 11.0 to 13.6%)"`` or ``"1.23 (95% CI 0.98 to 1.51)"`` for prose.

    By default the decimals show the interval's width to two significant digits, so a
    narrow interval (-0.0712 between -0.0731 and -0.0693) is not printed as
    "-0.07 (-0.07 to -0.07)"; whole numbers (quantiles of 2^N payments) are printed
    without decimals, a zero-width interval shows the estimate to three significant
    digits, and a value that rounds to zero has no sign.

    >>> format_ci(0.1234, 0.11, 0.136, percent=True)
    '12.3% (95% CI 11.0 to 13.6%)'
    >>> format_ci(0.043, 0.021, 0.064)
    '0.043 (95% CI 0.021 to 0.064)'
    >>> format_ci(-0.0712, -0.0731, -0.0693)
    '-0.0712 (95% CI -0.0731 to -0.0693)'
    >>> format_ci(-16.0, -17.0, -16.0)
    '-16 (95% CI -17 to -16)'
    >>> format_ci(-0.0, -0.0, -0.0)
    '0 (95% CI 0 to 0)'
    """
    scale = 100 if percent else 1
    if np.isnan(estimate):
        return "n/a (no case to estimate it from)"
    if np.isnan(lo) or np.isnan(hi):  # no interval exists (e.g. no case to estimate it from)
        e = format_interval(estimate, estimate, estimate, scale, digits=digits)[0]
        return f"{e}{'%' if percent else ''} (no {_level(confidence)} CI: too few cases)"
    e, a, b = format_interval(estimate, lo, hi, scale, digits=digits)
    level = _level(confidence)
    if percent:
        return f"{e}% ({level} CI {a} to {b}%)"
    return f"{e} ({level} CI {a} to {b})"


def format_diff(
    diff: float, lo: float, hi: float, percent: bool = False, confidence: float = CONFIDENCE
) -> str:
    """A signed difference with its interval: ``"+0.079 pp (95% CI +0.065 to +0.093)"``.

    ``percent=True`` reads proportions as percentage points (pp); the digits follow
    :func:`format_ci` (a zero is written without a sign).

    >>> format_diff(0.00079, 0.00065, 0.00093, percent=True)
    '+0.079 pp (95% CI +0.065 to +0.093)'
    >>> format_diff(-0.119, -0.168, -0.078)
    '-0.119 (95% CI -0.168 to -0.078)'
    >>> format_diff(0.0, -2.0, 3.0)
    '0 (95% CI -2 to +3)'
    """
    scale = 100 if percent else 1
    e, a, b = format_interval(diff, lo, hi, scale, sign=True)
    unit = " pp" if percent else ""
    return f"{e}{unit} ({_level(confidence)} CI {a} to {b})"
