"""The Daqing summary metrics (``summary.csv`` rows of a Daqing variant): :data:`SUMMARY_METRICS`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import outcome, require, seat_cols, variants
from daqing_sim.analysis.intervals import (
    BOOTSTRAP_METHOD,
    WILSON_METHOD,
    wilson_interval,
)
from daqing_sim.analysis.metrics import (
    FAMILY_NOTE,
    SUMMARY_COLUMNS,
    SUMMARY_KS,
    Metric,
    deals_metric,
    deals_won_metric,
    kongs_metric,
    length_metric,
    risk_rows,
    seat_win_rates_metric,
    tidy_rows,
)

SUMMARY_DIFF_METRICS = ("win", "exhaustive_draw", "big_win", "bao_draw", "dealer_pay", "max_pay")


def _outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    return tidy_rows(t, [f"outcome_{o}" for o in t["outcome"]], "share", WILSON_METHOD)


def _seat_deal_in_rates(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.deal_in_rates(df)
    names = ["deal_ins_per_deal" if w == "deal" else f"deal_in_rate_{w}" for w in t["who"]]
    method = WILSON_METHOD + "; 放铳率: deal-ins (点炮 and 点黑炮) per deal, or per seat-deal of the role"
    return tidy_rows(t, names, "rate", method)


def _big_share(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    require(df, ["outcome", "big"], "summarize")
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        win = outcome(g) != "exhaustive_draw"
        k, n = int((win & g["big"].to_numpy(dtype=bool)).sum()), int(win.sum())
        lo, hi = wilson_interval(k, n)
        share = k / n if n else np.nan
        rows.append({"variant": "all" if v is None else str(v), "share": share, "lo": lo, "hi": hi, "n": n})
    t = pd.DataFrame(rows)
    return tidy_rows(t, ["big_share"] * len(t), "share", WILSON_METHOD + ", among wins")


def _bao(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.bao_shares(df)
    t = t[t["bao"] != "none"]
    return tidy_rows(
        t, [f"bao_share_{b}" for b in t["bao"]], "share_of_wins", WILSON_METHOD + ", among wins", n="wins"
    )


def _estimands(df: pd.DataFrame) -> list[str]:
    own = all(c in df.columns for c in seat_cols("own_draws"))
    return list(est.ESTIMANDS) if own else ["by_draw"]


def _ready(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    parts = []
    for estimand in _estimands(df):
        t = est.ready_probability(df, by="role", max_draws=max(SUMMARY_KS), estimand=estimand)
        t = t[t["k"].isin(SUMMARY_KS)]
        names = [f"ready_{estimand}_{r}_k{k}" for r, k in zip(t["role"], t["k"], strict=True)]
        method = WILSON_METHOD if estimand != "kaplan_meier" else "Kaplan-Meier, log-log Greenwood interval"
        parts.append(tidy_rows(t, names, "p", f"{method}; {est.ESTIMANDS[estimand]}"))
    return pd.concat(parts, ignore_index=True)


def _waits(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    label = "; label = lowest wait-kind code over the wait set"
    t = est.wait_kind_frequencies(df, at="ready")
    parts = [tidy_rows(t, [f"wait_ready_label_{k}" for k in t["wait_kind"]], "share", WILSON_METHOD + label)]
    if all(c in df.columns for c in seat_cols("ready_wait_mask")):
        t = est.wait_classes(df)
        pure = "; pure class of the whole wait set at declaration"
        parts.append(
            tidy_rows(t, [f"wait_ready_pure_{c}" for c in t["wait_class"]], "share", WILSON_METHOD + pure)
        )
    t = est.wait_kind_frequencies(df, at="win")
    parts.append(
        tidy_rows(t, [f"wait_win_{k}" for k in t["wait_kind"]], "share", WILSON_METHOD + ", among wins")
    )
    return pd.concat(parts, ignore_index=True)


def _fans(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.fan_distribution(df)
    method = WILSON_METHOD + ", among loser entries (approximate: a deal's losers share its fans)"
    return tidy_rows(t, [f"fan_share_N{n}" for n in t["N"]], "share", method)


def _tail(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.tail_probability(df, threshold=64)
    return tidy_rows(t, ["pays_64_share"] * len(t), "p", WILSON_METHOD + ", per deal")


# net_result tables of the frame being summarized, by (id(df), by): the mean payment rows and the
# risk rows come from one bootstrap (net_result's mean is expected_payment's, on the same resamples)
_NET: dict[tuple[int, str], pd.DataFrame] = {}


def _net(df: pd.DataFrame, by: str) -> pd.DataFrame:
    key = (id(df), by)
    if key not in _NET:
        _NET[key] = est.net_result(df, by=by)
    return _NET[key]


def _pay(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    parts = []
    for by, name in (("seat", "pay_mean_seat{}"), ("role", "pay_mean_{}")):
        t = _net(df, by)
        t = t[t["statistic"] == "mean"]
        parts.append(tidy_rows(t, [name.format(x) for x in t[by]], "estimate", BOOTSTRAP_METHOD))
    return pd.concat(parts, ignore_index=True)


def _risk(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    seat, role = _net(df, "seat"), _net(df, "role")
    return pd.concat(
        [
            risk_rows(
                seat, [f"net_{s}_seat{x}" for s, x in zip(seat["statistic"], seat["seat"], strict=True)]
            ),
            risk_rows(role, [f"net_{s}_{x}" for s, x in zip(role["statistic"], role["role"], strict=True)]),
        ],
        ignore_index=True,
    )


def _diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    if len(variants(df)) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.paired_difference(df, list(SUMMARY_DIFF_METRICS), baseline, adjust="bonferroni")
    family, level = int(t["family_size"].iloc[0]), float(t["confidence"].iloc[0])
    method = (
        f"paired difference to {t['baseline'].iloc[0]}, {BOOTSTRAP_METHOD}; Bonferroni-adjusted for a family "
        f"of {family} (each interval at {100 * level:.4g}%, jointly 95%)"
    )
    return tidy_rows(t, [f"diff_{m}" for m in t["metric"]], "diff", method, n="n_pairs")


def _strategies(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    cols = seat_cols("strategy")
    if not all(c in df.columns for c in cols):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    if len(set(np.concatenate([df[c].astype(str).unique() for c in cols]))) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.strategy_results(df, pool_variants=False)
    parts = [
        tidy_rows(t, [f"strategy_{s}_mean_pay" for s in t["strategy"]], "mean_pay", BOOTSTRAP_METHOD),
        tidy_rows(
            t,
            [f"strategy_{s}_ready_rate" for s in t["strategy"]],
            "ready_rate",
            WILSON_METHOD,
            lo="ready_lo",
            hi="ready_hi",
        ),
        tidy_rows(
            t,
            [f"strategy_{s}_win_rate" for s in t["strategy"]],
            "win_rate",
            WILSON_METHOD,
            lo="win_lo",
            hi="win_hi",
        ),
    ]
    return pd.concat(parts, ignore_index=True)


SUMMARY_METRICS: tuple[Metric, ...] = (
    Metric("deals", "number of deals of the variant", deals_metric),
    Metric("outcome_{outcome}", "share of deals ending in the outcome (self_draw, deal_in, ...)", _outcomes),
    Metric(
        "deals_won_share",
        "share of deals someone wins (not an exhaustive draw; until issue 39 named win_rate, which old "
        "summary.csv files keep)",
        deals_won_metric,
    ),
    Metric(
        "win_rate_{role}",
        "和了率: P(a seat of the role (dealer, non_dealer) wins), per seat-deal",
        seat_win_rates_metric,
    ),
    Metric(
        "deal_ins_per_deal / deal_in_rate_{role}",
        "放铳率: deal-ins per deal; P(a seat of the role deals in: its discard is won on), per seat-deal",
        _seat_deal_in_rates,
    ),
    Metric("big_share", "share of wins that are 夹 big wins", _big_share),
    Metric(
        "bao_share_{bao}", "share of wins of the bao kind (摸宝 bao, 宝边 bao_edge, 宝中宝 bao_in_bao)", _bao
    ),
    Metric("winner_kong_share", "share of winners holding at least one kong", kongs_metric),
    Metric(
        "ready_{estimand}_{role}_k{k}",
        "P(a seat of the role has declared ready by its own k-th draw), k = 3, 6, 9, 12, for each estimand "
        "(by_draw; at_risk and kaplan_meier when the frame has own_draws_s)",
        _ready,
    ),
    Metric(
        "wait_ready_label_{kind} / wait_ready_pure_{class} / wait_win_{kind}",
        "share of declared waits by label (lowest kind) and by pure class (when the frame has "
        "ready_wait_mask_s); share of wins by the winning tile's wait kind",
        _waits,
    ),
    Metric("fan_share_N{N}", "share of loser entries owing 2^N", _fans),
    Metric("pays_64_share", "share of deals in which some seat pays 64 or more", _tail),
    Metric(
        "pay_mean_seat{s} / pay_mean_{role}", "mean payment (2^N units, winner positive) per seat, role", _pay
    ),
    Metric(
        "net_{statistic}_seat{s} / net_{statistic}_{role}",
        "risk: mean, sd, 1/5/50/95/99% quantiles (q01..q99) and P(loss) of a seat's net result of a deal",
        _risk,
    ),
    Metric(
        "draws_{statistic}",
        "deal length: tiles drawn from the live wall (mean, sd, quantiles)",
        length_metric,
    ),
    Metric(
        "diff_{metric}",
        "paired difference variant - baseline on the same walls of win, exhaustive_draw, big_win, bao_draw, "
        "dealer_pay, max_pay (see deal_metric); Bonferroni-adjusted over the variants and metrics",
        _diffs,
    ),
    Metric(
        "strategy_{strategy}_{mean_pay|ready_rate|win_rate}",
        "per strategy (seats mapped by strategy_s) and variant: mean payment, P(ever ready), win rate",
        _strategies,
    ),
)


# --------------------------------------------------------------------------- Beijing
# Every compute below takes a Beijing frame in base units (fam.in_base_units: pay_s and value
# divided by the variant's base_points), so money is in base units throughout.


def summarize(
    df: pd.DataFrame, baseline: object | None, base_points: float | Mapping | None = None, mixed: bool = False
) -> pd.DataFrame:
    """The Daqing variants' rows of :data:`SUMMARY_METRICS` (a note on the paired differences when
    the frame holds other families too)."""
    need = ["deal", "outcome", "big", "bao", "wait_kind", "dealer", "winner", "discarder", "draws"]
    need += seat_cols("pay") + seat_cols("fans") + seat_cols("ready_turn") + seat_cols("ready_wait")
    require(df, need, "summarize")
    names = variants(df)
    baseline = baseline if baseline not in ("", None) else None
    if baseline is not None and baseline not in names:
        raise ValueError(
            f"summarize: baseline variant {baseline!r} is not in the frame; "
            f"variants: {', '.join(map(str, names))}"
        )
    try:
        parts = [m.compute(df, baseline) for m in SUMMARY_METRICS]
    finally:
        _NET.clear()
    table = pd.concat([p for p in parts if len(p)], ignore_index=True)[SUMMARY_COLUMNS]
    order = {str(v): i for i, v in enumerate(names)} if names != [None] else {"all": 0}
    table["_v"] = table["variant"].map(order)
    table = table.sort_values("_v", kind="stable").drop(columns="_v").reset_index(drop=True)
    if mixed:
        note = f" (Daqing variants only: {FAMILY_NOTE})"
        diff = table["metric"].str.startswith("diff_")
        table.loc[diff, "method"] = [_with_note(m, note) for m in table.loc[diff, "method"]]
    return table


def _with_note(method: str, note: str) -> str:
    head, sep, tail = method.partition(", ")
    return f"{head}{note}{sep}{tail}"


def plots(part: pd.DataFrame, base_points: float | Mapping | None = None) -> dict[str, Callable]:
    """The Daqing variants' plots of ``write_summary``: file name -> a function drawing it."""
    from daqing_sim.analysis import plots as p

    estimand = "kaplan_meier" if "kaplan_meier" in _estimands(part) else "by_draw"
    return {
        "ready_probability.png": lambda: p.plot_ready_probability(part, estimand=estimand),
        "wait_kinds.png": lambda: p.plot_wait_kinds(part),
        "payments.png": lambda: p.plot_payment_distribution(part),
        "risk.png": lambda: p.plot_net_result(part),
    }


__all__ = ["SUMMARY_METRICS", "SUMMARY_DIFF_METRICS", "summarize", "plots"]
