"""The building blocks of the summary's metric registries: :class:`Metric`, the tidy rows every
metric returns, and the metrics several rule families share (deals, deals won, the seats' win
rates, kongs, deal length, paired differences). Each family's registry is its package's
``metrics`` module (``daqing_sim.families.<name>.metrics``); :mod:`daqing_sim.analysis.summary`
reaches it through the family registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis._frame import require, variants
from daqing_sim.analysis.intervals import (
    BOOTSTRAP_METHOD,
    WILSON_METHOD,
    wilson_interval,
)

SUMMARY_COLUMNS = ["variant", "metric", "estimate", "lo", "hi", "n", "method"]
SUMMARY_KS = (3, 6, 9, 12)
FAMILY_NOTE = "walls are shared, and paired differences taken, only between variants of one rule family"


@dataclass(frozen=True)
class Metric:
    """One family of summary metrics: ``compute(df, baseline)`` returns its tidy rows."""

    name: str
    definition: str
    compute: Callable[[pd.DataFrame, object], pd.DataFrame]


def tidy_rows(table: pd.DataFrame, metric: Iterable[str], estimate: str, method: str, **cols) -> pd.DataFrame:
    """Rows of ``table`` as summary rows: metric names, then estimate/lo/hi/n columns renamed."""
    lo, hi, n = cols.get("lo", "lo"), cols.get("hi", "hi"), cols.get("n", "n")
    out = pd.DataFrame(
        {
            "variant": table["variant"].astype(str).to_numpy() if "variant" in table else "all",
            "metric": list(metric),
            "estimate": table[estimate].to_numpy(dtype=float),
            "lo": table[lo].to_numpy(dtype=float),
            "hi": table[hi].to_numpy(dtype=float),
            "n": table[n].to_numpy(dtype=np.int64),
            "method": method,
        }
    )
    return out


def deals_metric(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = [
        {"variant": "all" if v is None else str(v), "metric": "deals"}
        | {"estimate": float(n), "lo": float(n), "hi": float(n), "n": n, "method": "count"}
        for v, n in ((v, int((df["variant"] == v).sum()) if v is not None else len(df)) for v in variants(df))
    ]
    return pd.DataFrame(rows)


def deals_won_metric(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] == "exhaustive_draw"].copy()
    t["win"] = t["n"] - t["count"]
    t["lo"], t["hi"] = wilson_interval(t["win"].to_numpy(), t["n"].to_numpy())
    t["share"] = t["win"] / t["n"]
    return tidy_rows(t, ["deals_won_share"] * len(t), "share", WILSON_METHOD)


def seat_win_rates_metric(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    """和了率 per seat-deal of a role: the dealer's wins / deals, a non-dealer's / (3 x deals)."""
    require(df, ["winner", "dealer"], "summarize")
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        w, d, n = g["winner"].to_numpy(), g["dealer"].to_numpy(), len(g)
        for role, k, m in (
            ("dealer", int((w == d).sum()), n),
            ("non_dealer", int(((w >= 0) & (w != d)).sum()), 3 * n),
        ):
            lo, hi = wilson_interval(k, m)
            rows.append(
                {"variant": "all" if v is None else str(v), "metric": f"win_rate_{role}"}
                | {"estimate": k / m if m else np.nan, "lo": float(lo), "hi": float(hi), "n": m}
                | {"method": WILSON_METHOD + "; 和了率: P(a seat of the role wins the deal), per seat-deal"}
            )
    return pd.DataFrame(rows)


def kongs_metric(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    if "winner_kongs" not in df.columns:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.winner_kong_share(df)
    return tidy_rows(
        t, ["winner_kong_share"] * len(t), "share", WILSON_METHOD + ", among deals with a winner"
    )


def length_metric(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.deal_length(df)
    return risk_rows(t, [f"draws_{s}" for s in t["statistic"]]).reset_index(drop=True)


def risk_method(statistic: str) -> str:
    if statistic in ("mean", "sd"):
        return BOOTSTRAP_METHOD
    if statistic == "p_loss":
        return WILSON_METHOD + ", P(net < 0) per seat-deal"
    return "order-statistic interval (scipy.stats.quantile_test)"


def risk_rows(t: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    t = t.assign(metric=names)
    parts = [
        tidy_rows(t[t["statistic"] == s], t.loc[t["statistic"] == s, "metric"], "estimate", risk_method(s))
        for s in dict.fromkeys(t["statistic"])
    ]
    return pd.concat(parts).sort_index(kind="stable")


def paired_diffs(
    df: pd.DataFrame, baseline: object, metrics: tuple[str, ...], note: str = ""
) -> pd.DataFrame:
    if len(variants(df)) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.paired_difference(df, list(metrics), baseline, adjust="bonferroni")
    family, level = int(t["family_size"].iloc[0]), float(t["confidence"].iloc[0])
    method = (
        f"paired difference to {t['baseline'].iloc[0]}{note}, {BOOTSTRAP_METHOD}; Bonferroni-adjusted for a "
        f"family of {family} (each interval at {100 * level:.4g}%, jointly 95%)"
    )
    return tidy_rows(t, [f"diff_{m}" for m in t["metric"]], "diff", method, n="n_pairs")


__all__ = [
    "risk_rows",
    "Metric",
    "SUMMARY_COLUMNS",
    "SUMMARY_KS",
    "FAMILY_NOTE",
    "tidy_rows",
    "deals_metric",
    "deals_won_metric",
    "seat_win_rates_metric",
    "kongs_metric",
    "length_metric",
    "risk_method",
    "paired_diffs",
]
