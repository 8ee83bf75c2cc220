"""The two-player summary metrics (``summary.csv`` rows of a two-player game):
:data:`TWO_PLAYER_SUMMARY_METRICS`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import require, variants
from daqing_sim.analysis.intervals import (
    BOOTSTRAP_METHOD,
    WILSON_METHOD,
    bootstrap_ratio,
    wilson_interval,
)
from daqing_sim.analysis.metrics import (
    FAMILY_NOTE,
    SUMMARY_COLUMNS,
    Metric,
    deals_metric,
    deals_won_metric,
    length_metric,
    paired_diffs,
    risk_method,
    tidy_rows,
)

TWO_PLAYER_DIFF_METRICS = (
    "win",
    "exhaustive_draw",
    "self_draw",
    "value",
    fam.two_player_dealer_pay,
    fam.two_player_declared_share,
)


def _tp_outcomes(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = est.outcome_shares(df)
    t = t[t["outcome"] != "deal_in_not_ready"]  # a Daqing outcome: never in two-player games
    method = WILSON_METHOD + "; a robbed kong (抢杠) is scored as a self-draw"
    return tidy_rows(t, [f"outcome_{o}" for o in t["outcome"]], "share", method)


def _tp_roles(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.two_player_roles(df)
    names = {"win": "win_rate", "self_draw": "self_draw_rate", "deal_in": "deal_in_rate", "pay": "pay_mean"}
    metric = [f"{names.get(s, s)}_{r}" for s, r in zip(t["statistic"], t["role"], strict=True)]
    t = t.assign(metric=metric)
    parts = []
    for stat in dict.fromkeys(t["statistic"]):
        rows = t[t["statistic"] == stat]
        method = BOOTSTRAP_METHOD + "; points" if stat == "pay" else WILSON_METHOD
        parts.append(
            tidy_rows(rows, rows["metric"], "estimate", f"{method}; {fam.TWO_PLAYER_ROLE_STATS[stat]}")
        )
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
    return tidy_rows(t, [f"pay_mean_seat{s}" for s in t["seat"]], "e", BOOTSTRAP_METHOD + "; points")


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
    return tidy_rows(t, t["metric"], "p", method)


def _tp_patterns(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    t = fam.two_player_pattern_shares(df)
    parts = []
    for method in dict.fromkeys(t["method"]):
        rows = t[t["method"] == method]
        note = f", among wins (exact below {fam.RARE_COUNT} wins holding it or not holding it)"
        parts.append(tidy_rows(rows, [f"pattern_share_{f}" for f in rows["fan"]], "share", method + note))
    t = fam.fan_total_distribution(df)
    parts.append(
        tidy_rows(t, [f"fan_total_share_F{f}" for f in t["F"]], "share", WILSON_METHOD + ", among wins")
    )
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
    return tidy_rows(t, ["concealed_win_share"] * len(t), "share", WILSON_METHOD + ", among wins (门清)")


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
            method = risk_method(stat) + ", among wins; points"
        parts.append(tidy_rows(rows, rows["metric"], "estimate", method))
    return pd.concat(parts).sort_index(kind="stable").reset_index(drop=True)


def _tp_diffs(df: pd.DataFrame, baseline: object) -> pd.DataFrame:
    note = f" (two-player variants only: {FAMILY_NOTE}; money in points)"
    return paired_diffs(df, baseline, TWO_PLAYER_DIFF_METRICS, note)


TWO_PLAYER_SUMMARY_METRICS: tuple[Metric, ...] = (
    Metric("deals", "number of games of the variant", deals_metric),
    Metric(
        "outcome_{outcome}",
        "share of games ending in self_draw (a robbed kong included), deal_in or exhaustive_draw (流局)",
        _tp_outcomes,
    ),
    Metric("deals_won_share", "share of games someone wins (not a draw, 流局)", deals_won_metric),
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
        "draws_{statistic}",
        "game length: tiles drawn from the 44 to draw (mean, sd, quantiles)",
        length_metric,
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
    df: pd.DataFrame, baseline: object | None, base_points: float | Mapping | None = None, mixed: bool = False
) -> pd.DataFrame:
    """The two-player variants' rows of :data:`TWO_PLAYER_SUMMARY_METRICS`, money in points."""
    need = ["deal", "outcome", "dealer", "winner", "discarder", "draws", "extra_draws", "extra_draw_win"]
    need += ["value", "fan_total", *(f"fan_{c}" for c in fam.TWO_PLAYER_FANS)]
    for base in ("pay", "concealed", "declared_turn", "tenpai_turn"):
        need += [f"{base}_{s}" for s in fam.TWO_PLAYER_SEATS]
    require(df, need, "summarize")
    parts = [m.compute(df, baseline) for m in TWO_PLAYER_SUMMARY_METRICS]
    return pd.concat([p for p in parts if len(p)], ignore_index=True)[SUMMARY_COLUMNS]


def plots(part: pd.DataFrame, base_points: float | Mapping | None = None) -> dict[str, Callable]:
    """The two-player variants' plots of ``write_summary``: file name -> a function drawing it."""
    from daqing_sim.analysis import plots as p

    return {
        "two_player_patterns.png": lambda: p.plot_two_player_patterns(part),
        "two_player_deal_length.png": lambda: p.plot_deal_length(part),
    }


__all__ = ["TWO_PLAYER_SUMMARY_METRICS", "TWO_PLAYER_DIFF_METRICS", "summarize", "plots"]
