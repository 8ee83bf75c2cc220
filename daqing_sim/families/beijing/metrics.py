"""The Beijing summary metrics (``summary.csv`` rows of a Beijing variant):
:data:`BEIJING_SUMMARY_METRICS`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import require, seat_cols, variants
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
    paired_diffs,
    risk_method,
    seat_win_rates_metric,
    tidy_rows,
)

BEIJING_DIFF_METRICS = ("win", "exhaustive_draw", "self_draw", "value", "dealer_pay", "max_pay")


_BASE_UNITS = "; in base units (points / base_points)"


def _bj_outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] != "deal_in_not_ready"]  # a Daqing outcome: never under Beijing
    method = WILSON_METHOD + "; a robbed kong (抢杠) is a deal-in by the kong's declarer"
    return tidy_rows(t, [f"outcome_{o}" for o in t["outcome"]], "share", method)


def _bj_deal_ins(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.deal_in_rates(df)
    names = ["deal_ins_per_deal" if w == "deal" else f"deal_in_rate_{w}" for w in t["who"]]
    method = WILSON_METHOD + "; deal-ins per deal (at most one), or per seat-deal of the role"
    return tidy_rows(t, names, "rate", method)


def _bj_tenpai(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    parts = []
    for estimand in est.ESTIMANDS:
        t = fam.tenpai_probability(df, by="role", max_draws=max(SUMMARY_KS), estimand=estimand)
        t = t[t["k"].isin(SUMMARY_KS)]
        names = [f"tenpai_{estimand}_{r}_k{k}" for r, k in zip(t["role"], t["k"], strict=True)]
        method = WILSON_METHOD if estimand != "kaplan_meier" else "Kaplan-Meier, log-log Greenwood interval"
        parts.append(tidy_rows(t, names, "p", f"{method}; {fam.TENPAI_ESTIMANDS[estimand]}"))
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
    parts.append(tidy_rows(t, names, "p", WILSON_METHOD + "; P(the seat's hand waited (听牌) at some point)"))
    return pd.concat(parts, ignore_index=True)


def _bj_fans(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.fan_type_shares(df)
    parts = [tidy_rows(t, [f"fan_type_share_{f}" for f in t["fan"]], "share", WILSON_METHOD + ", among wins")]
    t = fam.fan_total_distribution(df)
    parts.append(
        tidy_rows(t, [f"fan_total_share_F{f}" for f in t["F"]], "share", WILSON_METHOD + ", among wins")
    )
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
    return tidy_rows(t, ["concealed_win_share"] * len(t), "share", WILSON_METHOD + ", among wins")


def _bj_values(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.value_distribution(df, base_points=1)
    parts = [
        tidy_rows(t, [f"value_share_{x:g}" for x in t["value"]], "share", WILSON_METHOD + ", among wins")
    ]
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
            method = risk_method(stat) + ", among wins" + _BASE_UNITS
        parts.append(tidy_rows(rows, rows["metric"], "estimate", method))
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
            tidy_rows(
                rows, [share] * len(rows), "share", f"{WILSON_METHOD}, per deal; {fam.BEIJING_EVENTS[event]}"
            )
        )
        if cost is not None:
            method = (
                f"{BOOTSTRAP_METHOD}, over the deals where it happens; {fam.EVENT_COSTS[event]}{_BASE_UNITS}"
            )
            parts.append(
                tidy_rows(rows, [cost] * len(rows), "cost", method, lo="cost_lo", hi="cost_hi", n="count")
            )
        if event == "mutual_paid":
            method = (
                f"{BOOTSTRAP_METHOD}, over the deals where it happens; the part of the partner's payment "
                f"that 互包 moved onto it (beyond its own share without 互包){_BASE_UNITS}"
            )
            parts.append(
                tidy_rows(
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
    parts = [tidy_rows(t, [f"pay_mean_seat{x}" for x in t["seat"]], "mean", BOOTSTRAP_METHOD + _BASE_UNITS)]
    t = est.expected_payment(df, by="role")
    t = t[t["role"].isin(["dealer", "non_dealer", "winner", "discarder"])]
    method = BOOTSTRAP_METHOD + "; win and 烧庄 payments" + _BASE_UNITS
    parts.append(tidy_rows(t, [f"pay_mean_{r}" for r in t["role"]], "mean", method))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _bj_diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    note = f" (Beijing variants only: {FAMILY_NOTE}; money {_BASE_UNITS[2:]})"
    return paired_diffs(df, baseline, BEIJING_DIFF_METRICS, note)


def _bj_strategies(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    cols = seat_cols("strategy")
    if len(set(np.concatenate([df[c].astype(str).unique() for c in cols]))) < 2:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = est.strategy_results(fam._as_ready(df, "tenpai_turn"), pool_variants=False)
    return pd.concat(
        [
            tidy_rows(
                t,
                [f"strategy_{s}_mean_pay" for s in t["strategy"]],
                "mean_pay",
                BOOTSTRAP_METHOD + _BASE_UNITS,
            ),
            tidy_rows(
                t,
                [f"strategy_{s}_tenpai_rate" for s in t["strategy"]],
                "ready_rate",
                WILSON_METHOD + "; P(the hand waited (听牌) in a deal)",
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
        ],
        ignore_index=True,
    )


BEIJING_SUMMARY_METRICS: tuple[Metric, ...] = (
    Metric("deals", "number of deals of the variant", deals_metric),
    Metric(
        "outcome_{outcome}",
        "share of deals ending in self_draw, deal_in (a discard or a robbed kong) or exhaustive_draw",
        _bj_outcomes,
    ),
    Metric("deals_won_share", "share of deals someone wins (not an exhaustive draw, 荒牌)", deals_won_metric),
    Metric(
        "win_rate_{role}",
        "和了率: P(a seat of the role (dealer, non_dealer) wins), per seat-deal",
        seat_win_rates_metric,
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
    Metric(
        "draws_{statistic}",
        "deal length: tiles drawn from the live wall (mean, sd, quantiles)",
        length_metric,
    ),
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
    Metric("winner_kong_share", "share of winners holding at least one kong", kongs_metric),
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


def summarize(
    df: pd.DataFrame, baseline: object | None, base_points: float | Mapping | None = None, mixed: bool = False
) -> pd.DataFrame:
    """The Beijing variants' rows of :data:`BEIJING_SUMMARY_METRICS`, money in base units."""
    need = BEIJING_COLUMNS + seat_cols("pay") + seat_cols("tenpai_turn") + seat_cols("own_draws")
    need += seat_cols("concealed") + seat_cols("strategy")
    require(df, need, "summarize")
    units = fam.in_base_units(df, base_points)
    parts = [m.compute(units, baseline) for m in BEIJING_SUMMARY_METRICS]
    return pd.concat([p for p in parts if len(p)], ignore_index=True)[SUMMARY_COLUMNS]


def plots(part: pd.DataFrame, base_points: float | Mapping | None = None) -> dict[str, Callable]:
    """The Beijing variants' plots of ``write_summary``: file name -> a function drawing it."""
    from daqing_sim.analysis import plots as p

    return {
        "beijing_tenpai.png": lambda: p.plot_tenpai_probability(part, estimand="kaplan_meier"),
        "beijing_fans.png": lambda: p.plot_fan_types(part),
        "beijing_values.png": lambda: p.plot_value_distribution(part, base_points),
        "beijing_events.png": lambda: p.plot_beijing_events(part, base_points),
        "beijing_deal_length.png": lambda: p.plot_deal_length(part),
    }


__all__ = ["BEIJING_SUMMARY_METRICS", "BEIJING_DIFF_METRICS", "BEIJING_COLUMNS", "summarize", "plots"]
