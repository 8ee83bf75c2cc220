"""The summary of a run: one registry of metrics, ``summary.csv`` in tidy form, and prose formatting.

``summary.csv`` has one row per (variant, metric) with ``estimate, lo, hi, n, method``.
Every metric comes from one entry of :data:`SUMMARY_METRICS`; an entry's ``name`` is
the metric's name with its parameters in braces (``ready_{estimand}_{role}_k{k}`` makes
``ready_kaplan_meier_dealer_k6``), so a row of the file is found here by its prefix.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import outcome, require, seat_cols, variants
from daqing_sim.analysis.intervals import (
    BOOTSTRAP_METHOD,
    CONFIDENCE,
    WILSON_METHOD,
    bootstrap_ratio,
    wilson_interval,
)
from daqing_sim.validation import atomic_write

__all__ = [
    "Metric",
    "SUMMARY_METRICS",
    "BEIJING_SUMMARY_METRICS",
    "TWO_PLAYER_SUMMARY_METRICS",
    "SUMMARY_COLUMNS",
    "HEADLINE",
    "BEIJING_HEADLINE",
    "TWO_PLAYER_HEADLINE",
    "SUMMARY_KS",
    "SUMMARY_DIFF_METRICS",
    "summarize",
    "write_summary",
    "headline_table",
    "format_ci",
    "format_diff",
    "format_interval",
]

SUMMARY_COLUMNS = ["variant", "metric", "estimate", "lo", "hi", "n", "method"]
SUMMARY_KS = (3, 6, 9, 12)
SUMMARY_DIFF_METRICS = ("win", "exhaustive_draw", "big_win", "bao_draw", "dealer_pay", "max_pay")
# Printed after a run, in this order; the first present name of each tuple is shown.
HEADLINE = (
    ("deals",),
    ("deals_won_share", "win_rate"),
    ("win_rate_non_dealer",),
    ("deal_in_rate_non_dealer",),
    ("outcome_deal_in_not_ready",),
    ("outcome_exhaustive_draw",),
    ("big_share",),
    ("bao_share_bao",),
    ("ready_kaplan_meier_dealer_k6", "ready_by_draw_dealer_k6"),
    ("ready_kaplan_meier_non_dealer_k6", "ready_by_draw_non_dealer_k6"),
    ("wait_ready_pure_kanchan_only", "wait_ready_label_kanchan"),
    ("pay_mean_dealer",),
    ("pays_64_share",),
    ("draws_q50",),
    ("diff_win",),
    ("diff_dealer_pay",),
)
# The headline rows of Beijing variants (none of them is a Daqing metric), after the Daqing rows.
BEIJING_HEADLINE = (
    ("outcome_self_draw",),
    ("outcome_deal_in",),
    ("tenpai_kaplan_meier_dealer_k6",),
    ("tenpai_kaplan_meier_non_dealer_k6",),
    ("value_mean",),
    ("fan_type_share_seven_pairs",),
    ("burn_share",),
    ("mutual_paid_share",),
    ("robbed_kong_share",),
    ("diff_value",),
)
BEIJING_DIFF_METRICS = ("win", "exhaustive_draw", "self_draw", "value", "dealer_pay", "max_pay")
# The headline rows of two-player variants, after the others.
TWO_PLAYER_HEADLINE = (
    ("outcome_self_draw",),
    ("win_rate_dealer",),
    ("win_rate_non_dealer",),
    ("declared_dealer",),
    ("declared_non_dealer",),
    ("fan_total_mean",),
    ("value_mean_deal",),
    ("pattern_share_limit_any",),
    ("pay_mean_dealer",),
    ("diff_value",),
    ("diff_dealer_pay",),
)
TWO_PLAYER_DIFF_METRICS = (
    "win",
    "exhaustive_draw",
    "self_draw",
    "value",
    fam.two_player_dealer_pay,
    fam.two_player_declared_share,
)
FAMILY_NOTE = "walls are shared, and paired differences taken, only between variants of one rule family"


@dataclass(frozen=True)
class Metric:
    """One family of summary metrics: ``compute(df, baseline)`` returns its tidy rows."""

    name: str
    definition: str
    compute: Callable[[pd.DataFrame, object], pd.DataFrame]


def _tidy(table: pd.DataFrame, metric: Iterable[str], estimate: str, method: str, **cols) -> pd.DataFrame:
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


def _deals(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = [
        {"variant": "all" if v is None else str(v), "metric": "deals"}
        | {"estimate": float(n), "lo": float(n), "hi": float(n), "n": n, "method": "count"}
        for v, n in ((v, int((df["variant"] == v).sum()) if v is not None else len(df)) for v in variants(df))
    ]
    return pd.DataFrame(rows)


def _outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    return _tidy(t, [f"outcome_{o}" for o in t["outcome"]], "share", WILSON_METHOD)


def _deals_won(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] == "exhaustive_draw"].copy()
    t["win"] = t["n"] - t["count"]
    t["lo"], t["hi"] = wilson_interval(t["win"].to_numpy(), t["n"].to_numpy())
    t["share"] = t["win"] / t["n"]
    return _tidy(t, ["deals_won_share"] * len(t), "share", WILSON_METHOD)


def _seat_win_rates(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
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


def _seat_deal_in_rates(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.deal_in_rates(df)
    names = ["deal_ins_per_deal" if w == "deal" else f"deal_in_rate_{w}" for w in t["who"]]
    method = WILSON_METHOD + "; 放铳率: deal-ins (点炮 and 点黑炮) per deal, or per seat-deal of the role"
    return _tidy(t, names, "rate", method)


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
    return _tidy(t, ["big_share"] * len(t), "share", WILSON_METHOD + ", among wins")


def _bao(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.bao_shares(df)
    t = t[t["bao"] != "none"]
    return _tidy(
        t, [f"bao_share_{b}" for b in t["bao"]], "share_of_wins", WILSON_METHOD + ", among wins", n="wins"
    )


def _kongs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    if "winner_kongs" not in df.columns:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.winner_kong_share(df)
    return _tidy(t, ["winner_kong_share"] * len(t), "share", WILSON_METHOD + ", among deals with a winner")


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
        parts.append(_tidy(t, names, "p", f"{method}; {est.ESTIMANDS[estimand]}"))
    return pd.concat(parts, ignore_index=True)


def _waits(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    label = "; label = lowest wait-kind code over the wait set"
    t = est.wait_kind_frequencies(df, at="ready")
    parts = [_tidy(t, [f"wait_ready_label_{k}" for k in t["wait_kind"]], "share", WILSON_METHOD + label)]
    if all(c in df.columns for c in seat_cols("ready_wait_mask")):
        t = est.wait_classes(df)
        pure = "; pure class of the whole wait set at declaration"
        parts.append(
            _tidy(t, [f"wait_ready_pure_{c}" for c in t["wait_class"]], "share", WILSON_METHOD + pure)
        )
    t = est.wait_kind_frequencies(df, at="win")
    parts.append(_tidy(t, [f"wait_win_{k}" for k in t["wait_kind"]], "share", WILSON_METHOD + ", among wins"))
    return pd.concat(parts, ignore_index=True)


def _fans(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.fan_distribution(df)
    method = WILSON_METHOD + ", among loser entries (approximate: a deal's losers share its fans)"
    return _tidy(t, [f"fan_share_N{n}" for n in t["N"]], "share", method)


def _tail(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.tail_probability(df, threshold=64)
    return _tidy(t, ["pays_64_share"] * len(t), "p", WILSON_METHOD + ", per deal")


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
        parts.append(_tidy(t, [name.format(x) for x in t[by]], "estimate", BOOTSTRAP_METHOD))
    return pd.concat(parts, ignore_index=True)


def _risk_method(statistic: str) -> str:
    if statistic in ("mean", "sd"):
        return BOOTSTRAP_METHOD
    if statistic == "p_loss":
        return WILSON_METHOD + ", P(net < 0) per seat-deal"
    return "order-statistic interval (scipy.stats.quantile_test)"


def _risk_rows(t: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    t = t.assign(metric=names)
    parts = [
        _tidy(t[t["statistic"] == s], t.loc[t["statistic"] == s, "metric"], "estimate", _risk_method(s))
        for s in dict.fromkeys(t["statistic"])
    ]
    return pd.concat(parts).sort_index(kind="stable")


def _risk(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    seat, role = _net(df, "seat"), _net(df, "role")
    return pd.concat(
        [
            _risk_rows(
                seat, [f"net_{s}_seat{x}" for s, x in zip(seat["statistic"], seat["seat"], strict=True)]
            ),
            _risk_rows(role, [f"net_{s}_{x}" for s, x in zip(role["statistic"], role["role"], strict=True)]),
        ],
        ignore_index=True,
    )


def _length(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.deal_length(df)
    return _risk_rows(t, [f"draws_{s}" for s in t["statistic"]]).reset_index(drop=True)


def _diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    if len(variants(df)) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.paired_difference(df, list(SUMMARY_DIFF_METRICS), baseline, adjust="bonferroni")
    family, level = int(t["family_size"].iloc[0]), float(t["confidence"].iloc[0])
    method = (
        f"paired difference to {t['baseline'].iloc[0]}, {BOOTSTRAP_METHOD}; Bonferroni-adjusted for a family "
        f"of {family} (each interval at {100 * level:.4g}%, jointly 95%)"
    )
    return _tidy(t, [f"diff_{m}" for m in t["metric"]], "diff", method, n="n_pairs")


def _strategies(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    cols = seat_cols("strategy")
    if not all(c in df.columns for c in cols):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    if len(set(np.concatenate([df[c].astype(str).unique() for c in cols]))) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.strategy_results(df, pool_variants=False)
    parts = [
        _tidy(t, [f"strategy_{s}_mean_pay" for s in t["strategy"]], "mean_pay", BOOTSTRAP_METHOD),
        _tidy(
            t,
            [f"strategy_{s}_ready_rate" for s in t["strategy"]],
            "ready_rate",
            WILSON_METHOD,
            lo="ready_lo",
            hi="ready_hi",
        ),
        _tidy(
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
    Metric("deals", "number of deals of the variant", _deals),
    Metric("outcome_{outcome}", "share of deals ending in the outcome (self_draw, deal_in, ...)", _outcomes),
    Metric(
        "deals_won_share",
        "share of deals someone wins (not an exhaustive draw; until issue 39 named win_rate, which old "
        "summary.csv files keep)",
        _deals_won,
    ),
    Metric(
        "win_rate_{role}",
        "和了率: P(a seat of the role (dealer, non_dealer) wins), per seat-deal",
        _seat_win_rates,
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
    Metric("winner_kong_share", "share of winners holding at least one kong", _kongs),
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
    Metric("draws_{statistic}", "deal length: tiles drawn from the live wall (mean, sd, quantiles)", _length),
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

_BASE_UNITS = "; in base units (points / base_points)"


def _bj_outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] != "deal_in_not_ready"]  # a Daqing outcome: never under Beijing
    method = WILSON_METHOD + "; a robbed kong (抢杠) is a deal-in by the kong's declarer"
    return _tidy(t, [f"outcome_{o}" for o in t["outcome"]], "share", method)


def _bj_deal_ins(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.deal_in_rates(df)
    names = ["deal_ins_per_deal" if w == "deal" else f"deal_in_rate_{w}" for w in t["who"]]
    method = WILSON_METHOD + "; deal-ins per deal (at most one), or per seat-deal of the role"
    return _tidy(t, names, "rate", method)


def _bj_tenpai(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    parts = []
    for estimand in est.ESTIMANDS:
        t = fam.tenpai_probability(df, by="role", max_draws=max(SUMMARY_KS), estimand=estimand)
        t = t[t["k"].isin(SUMMARY_KS)]
        names = [f"tenpai_{estimand}_{r}_k{k}" for r, k in zip(t["role"], t["k"], strict=True)]
        method = WILSON_METHOD if estimand != "kaplan_meier" else "Kaplan-Meier, log-log Greenwood interval"
        parts.append(_tidy(t, names, "p", f"{method}; {fam.TENPAI_ESTIMANDS[estimand]}"))
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        turn = np.column_stack([g[c].to_numpy() for c in seat_cols("tenpai_turn")])
        dealer = np.arange(4)[None, :] == g["dealer"].to_numpy()[:, None]
        for mask in (dealer, ~dealer):
            k, n = int(((turn >= 0) & mask).sum()), int(mask.sum())
            lo, hi = wilson_interval(k, n)
            rows.append({"variant": "all" if v is None else str(v), "p": k / n, "lo": lo, "hi": hi, "n": n})
    t = pd.DataFrame(rows)
    names = [f"tenpai_ever_{r}" for r in ("dealer", "non_dealer")] * len(variants(df))
    parts.append(_tidy(t, names, "p", WILSON_METHOD + "; P(the seat's hand waited (听牌) at some point)"))
    return pd.concat(parts, ignore_index=True)


def _bj_fans(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.fan_type_shares(df)
    parts = [_tidy(t, [f"fan_type_share_{f}" for f in t["fan"]], "share", WILSON_METHOD + ", among wins")]
    t = fam.fan_total_distribution(df)
    parts.append(_tidy(t, [f"fan_total_share_F{f}" for f in t["F"]], "share", WILSON_METHOD + ", among wins"))
    return pd.concat(parts, ignore_index=True)


def _bj_concealed(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        winner = g["winner"].to_numpy().astype(np.int64)
        won = winner >= 0
        concealed = np.column_stack([g[c].to_numpy(dtype=bool) for c in seat_cols("concealed")])
        k = int(concealed[np.arange(len(g))[won], winner[won]].sum())
        n = int(won.sum())
        lo, hi = wilson_interval(k, n)
        share = k / n if n else np.nan
        rows.append({"variant": "all" if v is None else str(v), "share": share, "lo": lo, "hi": hi, "n": n})
    t = pd.DataFrame(rows)
    return _tidy(t, ["concealed_win_share"] * len(t), "share", WILSON_METHOD + ", among wins")


def _bj_values(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.value_distribution(df, base_points=1)
    parts = [_tidy(t, [f"value_share_{x:g}" for x in t["value"]], "share", WILSON_METHOD + ", among wins")]
    t = fam.value_statistics(df, base_points=1)
    names = {"mean_deal": "value_mean_deal", "F_mean": "fan_total_mean"}
    t = t.assign(metric=[names.get(x, f"value_{x}") for x in t["statistic"]])
    for stat in dict.fromkeys(t["statistic"]):
        rows = t[t["statistic"] == stat]
        if stat in ("mean", "sd"):
            method = BOOTSTRAP_METHOD + ", among wins" + _BASE_UNITS
        elif stat == "mean_deal":
            method = BOOTSTRAP_METHOD + ", per deal (a drawn deal counts 0)" + _BASE_UNITS
        elif stat == "F_mean":
            method = BOOTSTRAP_METHOD + ", among wins (F = the win's fans)"
        else:
            method = _risk_method(stat) + ", among wins" + _BASE_UNITS
        parts.append(_tidy(rows, rows["metric"], "estimate", method))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


_EVENT_METRICS = {  # event -> (share metric, cost metric or None)
    "burn": ("burn_share", None),
    "burn_paid": ("burn_paid_share", "burn_cost_mean"),
    "mutual": ("mutual_share", None),
    "mutual_paid": ("mutual_paid_share", "mutual_cost_mean"),
    "robbed_kong": ("robbed_kong_share", "robbed_kong_cost_mean"),
}


def _bj_events(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.beijing_events(df, base_points=1)
    parts = []
    for event, (share, cost) in _EVENT_METRICS.items():
        rows = t[t["event"] == event]
        parts.append(
            _tidy(
                rows, [share] * len(rows), "share", f"{WILSON_METHOD}, per deal; {fam.BEIJING_EVENTS[event]}"
            )
        )
        if cost is not None:
            method = (
                f"{BOOTSTRAP_METHOD}, over the deals where it happens; {fam.EVENT_COSTS[event]}{_BASE_UNITS}"
            )
            parts.append(
                _tidy(rows, [cost] * len(rows), "cost", method, lo="cost_lo", hi="cost_hi", n="count")
            )
        if event == "mutual_paid":
            method = (
                f"{BOOTSTRAP_METHOD}, over the deals where it happens; the part of the partner's payment "
                f"that 互包 moved onto it (beyond its own share without 互包){_BASE_UNITS}"
            )
            parts.append(
                _tidy(
                    rows,
                    ["mutual_shift_mean"] * len(rows),
                    "shift",
                    method,
                    lo="shift_lo",
                    hi="shift_hi",
                    n="count",
                )
            )
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _bj_pay(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.expected_payment(df, by="seat")
    parts = [_tidy(t, [f"pay_mean_seat{x}" for x in t["seat"]], "mean", BOOTSTRAP_METHOD + _BASE_UNITS)]
    t = est.expected_payment(df, by="role")
    t = t[t["role"].isin(["dealer", "non_dealer", "winner", "discarder"])]
    method = BOOTSTRAP_METHOD + "; win and 烧庄 payments" + _BASE_UNITS
    parts.append(_tidy(t, [f"pay_mean_{r}" for r in t["role"]], "mean", method))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _paired(df: pd.DataFrame, baseline: object, metrics: tuple[str, ...], note: str = "") -> pd.DataFrame:
    if len(variants(df)) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.paired_difference(df, list(metrics), baseline, adjust="bonferroni")
    family, level = int(t["family_size"].iloc[0]), float(t["confidence"].iloc[0])
    method = (
        f"paired difference to {t['baseline'].iloc[0]}{note}, {BOOTSTRAP_METHOD}; Bonferroni-adjusted for a "
        f"family of {family} (each interval at {100 * level:.4g}%, jointly 95%)"
    )
    return _tidy(t, [f"diff_{m}" for m in t["metric"]], "diff", method, n="n_pairs")


def _bj_diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    note = f" (Beijing variants only: {FAMILY_NOTE}; money {_BASE_UNITS[2:]})"
    return _paired(df, baseline, BEIJING_DIFF_METRICS, note)


def _bj_strategies(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    cols = seat_cols("strategy")
    if len(set(np.concatenate([df[c].astype(str).unique() for c in cols]))) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.strategy_results(fam._as_ready(df, "tenpai_turn"), pool_variants=False)
    return pd.concat(
        [
            _tidy(
                t,
                [f"strategy_{s}_mean_pay" for s in t["strategy"]],
                "mean_pay",
                BOOTSTRAP_METHOD + _BASE_UNITS,
            ),
            _tidy(
                t,
                [f"strategy_{s}_tenpai_rate" for s in t["strategy"]],
                "ready_rate",
                WILSON_METHOD + "; P(the hand waited (听牌) in a deal)",
                lo="ready_lo",
                hi="ready_hi",
            ),
            _tidy(
                t,
                [f"strategy_{s}_win_rate" for s in t["strategy"]],
                "win_rate",
                WILSON_METHOD,
                lo="win_lo",
                hi="win_hi",
            ),
        ],
        ignore_index=True,
    )


BEIJING_SUMMARY_METRICS: tuple[Metric, ...] = (
    Metric("deals", "number of deals of the variant", _deals),
    Metric(
        "outcome_{outcome}",
        "share of deals ending in self_draw, deal_in (a discard or a robbed kong) or exhaustive_draw",
        _bj_outcomes,
    ),
    Metric("deals_won_share", "share of deals someone wins (not an exhaustive draw, 荒牌)", _deals_won),
    Metric(
        "win_rate_{role}",
        "和了率: P(a seat of the role (dealer, non_dealer) wins), per seat-deal",
        _seat_win_rates,
    ),
    Metric(
        "deal_ins_per_deal / deal_in_rate_{role}",
        "deal-ins per deal; P(a seat of the role (dealer, non_dealer) deals in), per seat-deal",
        _bj_deal_ins,
    ),
    Metric(
        "tenpai_{estimand}_{role}_k{k} / tenpai_ever_{role}",
        "P(a seat's hand waits (听牌) by its own k-th draw), k = 3, 6, 9, 12, for each estimand (by_draw, "
        "at_risk, kaplan_meier); P(it ever waits in the deal)",
        _bj_tenpai,
    ),
    Metric("draws_{statistic}", "deal length: tiles drawn from the live wall (mean, sd, quantiles)", _length),
    Metric(
        "fan_type_share_{fan} / fan_total_share_F{F}",
        "share of wins holding each fan type (a win may hold several); distribution of F, the win's fans",
        _bj_fans,
    ),
    Metric("concealed_win_share", "share of wins by a concealed hand (门清: the full base)", _bj_concealed),
    Metric(
        "value_share_{value} / value_{statistic} / value_mean_deal / fan_total_mean",
        "a win's value (base x F, half for an open hand) in base units: its distribution, mean (E[value]), "
        "sd and quantiles among wins; E[value] per deal; E[F] of a win",
        _bj_values,
    ),
    Metric(
        "burn_share / burn_paid_share / burn_cost_mean / mutual_share / mutual_paid_share / "
        "mutual_cost_mean / mutual_shift_mean / robbed_kong_share / robbed_kong_cost_mean",
        "how often 烧庄, 互包 and robbed kongs (抢杠) happen, per deal, and the mean payment involved where "
        "they do (base units)",
        _bj_events,
    ),
    Metric("winner_kong_share", "share of winners holding at least one kong", _kongs),
    Metric(
        "pay_mean_seat{s} / pay_mean_{role}",
        "mean payment (win and 烧庄, base units, winner positive) per seat; per role (dealer, non_dealer, "
        "winner, discarder)",
        _bj_pay,
    ),
    Metric(
        "diff_{metric}",
        "paired difference variant - baseline on the same walls, between Beijing variants only, of win, "
        "exhaustive_draw, self_draw, value, dealer_pay, max_pay (see deal_metric; money in base units); "
        "Bonferroni-adjusted over the variants and metrics",
        _bj_diffs,
    ),
    Metric(
        "strategy_{strategy}_{mean_pay|tenpai_rate|win_rate}",
        "per strategy (seats mapped by strategy_s) and variant: mean payment, P(ever 听牌), win rate",
        _bj_strategies,
    ),
)


# --------------------------------------------------------------------------- two-player games
# Money of two-player games is in points: F x multiplier x points per fan (1 x 1 by default).


def _tp_outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] != "deal_in_not_ready"]  # a Daqing outcome: never in two-player games
    method = WILSON_METHOD + "; a robbed kong (抢杠) is scored as a self-draw"
    return _tidy(t, [f"outcome_{o}" for o in t["outcome"]], "share", method)


def _tp_roles(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.two_player_roles(df)
    names = {"win": "win_rate", "self_draw": "self_draw_rate", "deal_in": "deal_in_rate", "pay": "pay_mean"}
    metric = [f"{names.get(s, s)}_{r}" for s, r in zip(t["statistic"], t["role"], strict=True)]
    t = t.assign(metric=metric)
    parts = []
    for stat in dict.fromkeys(t["statistic"]):
        rows = t[t["statistic"] == stat]
        method = BOOTSTRAP_METHOD + "; points" if stat == "pay" else WILSON_METHOD
        parts.append(_tidy(rows, rows["metric"], "estimate", f"{method}; {fam.TWO_PLAYER_ROLE_STATS[stat]}"))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _tp_seats(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        for s in fam.TWO_PLAYER_SEATS:
            e, lo, hi = bootstrap_ratio(g[f"pay_{s}"].to_numpy(dtype=float))
            rows.append({"variant": "all" if v is None else str(v), "seat": s, "e": e, "lo": lo, "hi": hi})
            rows[-1]["n"] = len(g)
    t = pd.DataFrame(rows)
    return _tidy(t, [f"pay_mean_seat{s}" for s in t["seat"]], "e", BOOTSTRAP_METHOD + "; points")


def _tp_extra(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        cells = {
            "extra_draws_share": g["extra_draws"].to_numpy() > 0,
            "extra_draw_win_share": g["extra_draw_win"].to_numpy(dtype=bool),
        }
        for name, hit in cells.items():
            k, n = int(hit.sum()), len(g)
            lo, hi = wilson_interval(k, n)
            rows.append({"variant": "all" if v is None else str(v), "metric": name, "p": k / n, "lo": lo})
            rows[-1] |= {"hi": hi, "n": n}
    t = pd.DataFrame(rows)
    method = WILSON_METHOD + ", per game; 海底捞月: the ready seat's extra draws after the 71 tiles"
    return _tidy(t, t["metric"], "p", method)


def _tp_patterns(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.two_player_pattern_shares(df)
    parts = []
    for method in dict.fromkeys(t["method"]):
        rows = t[t["method"] == method]
        note = f", among wins (exact below {fam.RARE_COUNT} wins holding it or not holding it)"
        parts.append(_tidy(rows, [f"pattern_share_{f}" for f in rows["fan"]], "share", method + note))
    t = fam.fan_total_distribution(df)
    parts.append(_tidy(t, [f"fan_total_share_F{f}" for f in t["F"]], "share", WILSON_METHOD + ", among wins"))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _tp_concealed(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    rows = []
    for v in variants(df):
        g = df if v is None else df[df["variant"] == v]
        winner = g["winner"].to_numpy().astype(np.int64)
        won = winner >= 0
        concealed = np.column_stack([g[f"concealed_{s}"].to_numpy(dtype=bool) for s in fam.TWO_PLAYER_SEATS])
        k, n = int(concealed[np.arange(len(g))[won], winner[won]].sum()), int(won.sum())
        lo, hi = wilson_interval(k, n)
        rows.append({"variant": "all" if v is None else str(v), "share": k / n if n else np.nan, "lo": lo})
        rows[-1] |= {"hi": hi, "n": n}
    t = pd.DataFrame(rows)
    return _tidy(t, ["concealed_win_share"] * len(t), "share", WILSON_METHOD + ", among wins (门清)")


def _tp_values(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.two_player_value_statistics(df)
    names = {"mean_deal": "value_mean_deal", "F_mean": "fan_total_mean"}
    t = t.assign(metric=[names.get(x, f"value_{x}") for x in t["statistic"]])
    parts = []
    for stat in dict.fromkeys(t["statistic"]):
        rows = t[t["statistic"] == stat]
        if stat in ("mean", "sd"):
            method = BOOTSTRAP_METHOD + ", among wins; points"
        elif stat == "mean_deal":
            method = BOOTSTRAP_METHOD + ", per game (a drawn game counts 0); points"
        elif stat == "F_mean":
            method = BOOTSTRAP_METHOD + ", among wins (F = the win's fans)"
        else:
            method = _risk_method(stat) + ", among wins; points"
        parts.append(_tidy(rows, rows["metric"], "estimate", method))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _tp_diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    note = f" (two-player variants only: {FAMILY_NOTE}; money in points)"
    return _paired(df, baseline, TWO_PLAYER_DIFF_METRICS, note)


TWO_PLAYER_SUMMARY_METRICS: tuple[Metric, ...] = (
    Metric("deals", "number of games of the variant", _deals),
    Metric(
        "outcome_{outcome}",
        "share of games ending in self_draw (a robbed kong included), deal_in or exhaustive_draw (流局)",
        _tp_outcomes,
    ),
    Metric("deals_won_share", "share of games someone wins (not a draw, 流局)", _deals_won),
    Metric(
        "{win_rate|self_draw_rate|deal_in_rate|declared|tenpai|pay_mean}_{role}",
        "per role (dealer, non_dealer), per game: P(win), P(win by self-draw), P(deal in), P(报听), "
        "P(ever 听牌), mean payment (points)",
        _tp_roles,
    ),
    Metric(
        "pay_mean_seat{s}", "mean payment per game of seat 0 and seat 1 (points, winner positive)", _tp_seats
    ),
    Metric(
        "draws_{statistic}", "game length: tiles drawn from the 44 to draw (mean, sd, quantiles)", _length
    ),
    Metric(
        "extra_draws_share / extra_draw_win_share",
        "share of games reaching the extra draws of 海底捞月; share of games won in them",
        _tp_extra,
    ),
    Metric(
        "pattern_share_{fan} / pattern_share_limit_any / fan_total_share_F{F}",
        "share of wins holding each pattern and limit hand (a win may hold several; Wilson, exact "
        "Clopper-Pearson for rare ones); any limit hand; distribution of F, the win's fans",
        _tp_patterns,
    ),
    Metric("concealed_win_share", "share of wins by a concealed hand (门清)", _tp_concealed),
    Metric(
        "value_{statistic} / value_mean_deal / fan_total_mean",
        "a win's value (F x multiplier x points per fan) in points: mean (E[value]), sd and quantiles "
        "among wins; E[value] per game; E[F] of a win",
        _tp_values,
    ),
    Metric(
        "diff_{metric}",
        "paired difference variant - baseline on the same walls, between two-player variants only, of "
        "win, exhaustive_draw, self_draw, value, dealer_pay (points) and declared_share (P(报听) per "
        "seat-game); Bonferroni-adjusted over the variants and metrics",
        _tp_diffs,
    ),
)


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
    if all(f == "daqing" for f, _ in parts):
        return _summarize_daqing(df, baseline)
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
        if family == "daqing":
            t = _summarize_daqing(part, own)
            note = f" (Daqing variants only: {FAMILY_NOTE})"
            diff = t["metric"].str.startswith("diff_")
            t.loc[diff, "method"] = [_with_note(m, note) for m in t.loc[diff, "method"]]
        elif family == "beijing":
            t = _summarize_beijing(part, own, base_points)
        elif family == "two_player":
            t = _summarize_two_player(part, own)
        else:  # pragma: no cover - a family the engine does not deal yet
            raise ValueError(f"summarize: no summary for the {family} family yet")
        tables.append(_family_rows(part, family, len(parts) > 1))
        tables.append(t)
    table = pd.concat(tables, ignore_index=True)[SUMMARY_COLUMNS]
    order = {str(v): i for i, v in enumerate(names)} if names != [None] else {"all": 0}
    table["_v"] = table["variant"].map(order)
    return table.sort_values("_v", kind="stable").drop(columns="_v").reset_index(drop=True)


def _with_note(method: str, note: str) -> str:
    head, sep, tail = method.partition(", ")
    return f"{head}{note}{sep}{tail}"


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


def _summarize_daqing(df: pd.DataFrame, baseline: object | None) -> pd.DataFrame:
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
    return table


BEIJING_COLUMNS = [
    "deal",
    "outcome",
    "dealer",
    "winner",
    "discarder",
    "draws",
    "value",
    "fan_total",
    "robbed_kong",
    "burn_rounds",
    "mutual_bindings",
    "mutual_payer",
    *(f"fan_{c}" for c in fam.BEIJING_FANS),
]


def _summarize_beijing(df: pd.DataFrame, baseline: object | None, base_points: float | Mapping | None):
    need = BEIJING_COLUMNS + seat_cols("pay") + seat_cols("tenpai_turn") + seat_cols("own_draws")
    need += seat_cols("concealed") + seat_cols("strategy")
    require(df, need, "summarize")
    units = fam.in_base_units(df, base_points)
    parts = [m.compute(units, baseline) for m in BEIJING_SUMMARY_METRICS]
    return pd.concat([p for p in parts if len(p)], ignore_index=True)[SUMMARY_COLUMNS]


def _summarize_two_player(df: pd.DataFrame, baseline: object | None) -> pd.DataFrame:
    need = ["deal", "outcome", "dealer", "winner", "discarder", "draws", "extra_draws", "extra_draw_win"]
    need += ["value", "fan_total", *(f"fan_{c}" for c in fam.TWO_PLAYER_FANS)]
    for base in ("pay", "concealed", "declared_turn", "tenpai_turn"):
        need += [f"{base}_{s}" for s in fam.TWO_PLAYER_SEATS]
    require(df, need, "summarize")
    parts = [m.compute(df, baseline) for m in TWO_PLAYER_SUMMARY_METRICS]
    return pd.concat([p for p in parts if len(p)], ignore_index=True)[SUMMARY_COLUMNS]


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
    from daqing_sim.analysis import plots

    outdir = Path(outdir)
    if outdir.exists() and not outdir.is_dir():
        raise ValueError(f"write_summary: {outdir} exists and is not a directory; pass a folder path")
    table = summarize(df, baseline=baseline, base_points=base_points)
    outdir.mkdir(parents=True, exist_ok=True)
    atomic_write(outdir / "summary.csv", lambda p: table.to_csv(p, index=False))
    figures = {}
    for family, part in fam.family_parts(df):
        if family == "daqing":
            estimand = "kaplan_meier" if "kaplan_meier" in _estimands(part) else "by_draw"
            figures |= {
                "ready_probability.png": lambda part=part, e=estimand: plots.plot_ready_probability(
                    part, estimand=e
                ),
                "wait_kinds.png": lambda part=part: plots.plot_wait_kinds(part),
                "payments.png": lambda part=part: plots.plot_payment_distribution(part),
                "risk.png": lambda part=part: plots.plot_net_result(part),
            }
        elif family == "two_player":
            figures |= {
                "two_player_patterns.png": lambda part=part: plots.plot_two_player_patterns(part),
                "two_player_deal_length.png": lambda part=part: plots.plot_deal_length(part),
            }
        else:
            figures |= {
                "beijing_tenpai.png": lambda part=part: plots.plot_tenpai_probability(
                    part, estimand="kaplan_meier"
                ),
                "beijing_fans.png": lambda part=part: plots.plot_fan_types(part),
                "beijing_values.png": lambda part=part: plots.plot_value_distribution(part, base_points),
                "beijing_events.png": lambda part=part: plots.plot_beijing_events(part, base_points),
                "beijing_deal_length.png": lambda part=part: plots.plot_deal_length(part),
            }
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
    headline = HEADLINE + (BEIJING_HEADLINE if "family_beijing" in present else ())
    headline += TWO_PLAYER_HEADLINE if "family_two_player" in present else ()
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
