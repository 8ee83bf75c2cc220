"""Plots of results frames; the only module of the package that imports matplotlib.

Every figure is built on :class:`matplotlib.figure.Figure` directly, never through
pyplot, so it renders headless and leaves no global state; in Jupyter ``display(fig)``
shows it. Titles state the question, axes are in a player's units (percent, percentage
points per deal, 2^N points), and the values a reader looks up are written on the plot.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import font_manager, rcParams
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis._frame import GROUP_KEYS, grouped, require, seat_cols, variants

__all__ = [
    "plot_ready_probability",
    "plot_wait_kinds",
    "plot_payment_distribution",
    "plot_expected_payment",
    "plot_paired_difference",
    "plot_strategy_results",
    "plot_net_result",
    "plot_deal_length",
    "use_tile_font",
]

# paired-difference metrics that are proportions (shown in percentage points per deal)
PROPORTION_METRICS = {
    "win",
    "exhaustive_draw",
    "self_draw",
    "deal_in",
    "deal_in_not_ready",
    "big_win",
    "bao_draw",
    "bao_edge",
    "bao_in_bao",
    "any_bao",
    "pays_64",
    "any_ready",
    "ready_share",
}
_PCT = PercentFormatter(xmax=1, decimals=0)
TILE_FONT = Path(__file__).parents[1] / "render" / "fonts" / "DaqingTiles-Regular.ttf"


def use_tile_font() -> None:
    """Draw 中 and the other CJK tile and rule names in every figure (also pyplot's).

    Registers the shipped subset of Noto Sans CJK (OFL, ``render/fonts``) with matplotlib and
    appends it to ``rcParams["font.family"]`` as a fallback: Latin text keeps its font, and a
    character that font lacks comes from this one instead of an empty box. Called on import.
    """
    name = font_manager.FontProperties(fname=TILE_FONT).get_name()
    if name not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(TILE_FONT))
    if name not in rcParams["font.family"]:
        rcParams["font.family"] = [*rcParams["font.family"], name]


use_tile_font()


def _label(key: tuple) -> str:
    return ", ".join(str(k) for k in key) if key else "all"


def _finish(fig: Figure) -> Figure:
    fig.tight_layout()
    return fig


def plot_ready_probability(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, max_draws: int = 16, estimand: str = "by_draw"
) -> Figure:
    """Curves of P(ready by own draw k) with interval bands; values at k = 6 and 12 written.

    One panel per role when several variants or strategies are drawn.

    Returns
    -------
    matplotlib.figure.Figure
    """
    table = est.ready_probability(df, by=by, max_draws=max_draws, estimand=estimand)
    keys = [c for c in table.columns if c in GROUP_KEYS]
    others = [k for k in keys if k != "role"]
    several = "role" in keys and others and len(table[others].drop_duplicates()) > 1
    panels = list(grouped(table, ["role"])) if several else [((), table)]
    line_keys = [k for k in keys if not (several and k == "role")]
    fig = Figure(figsize=(6.5 * len(panels), 4.8))
    for i, (panel, sub) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        for key, g in grouped(sub, line_keys):
            line = ax.plot(g["k"], g["p"], marker=".", label=_label(key))[0]
            ax.fill_between(g["k"], g["lo"], g["hi"], color=line.get_color(), alpha=0.2)
            for k in (6, 12):
                hit = g[g["k"] == k]
                if len(hit) and np.isfinite(hit["p"].iloc[0]):
                    p = hit["p"].iloc[0]
                    ax.annotate(
                        f"{100 * p:.0f}%",
                        (k, p),
                        textcoords="offset points",
                        xytext=(3, -11),
                        fontsize="x-small",
                        color=line.get_color(),
                    )
        ax.set_xlabel("own draws k (tiles the seat has drawn)")
        ax.set_ylabel("P(declared ready by draw k)")
        ax.yaxis.set_major_formatter(_PCT)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="upper left")
        where = f" ({panel[0]})" if panel else ""
        ax.set_title(
            f"How soon is a seat ready{where}?\n{estimand}: {est.ESTIMANDS[estimand]}", fontsize="small"
        )
    return _finish(fig)


def _bars(ax, table: pd.DataFrame, cat: str, value: str = "share", percent: bool = True) -> None:
    keys = [c for c in table.columns if c in GROUP_KEYS]
    groups = list(grouped(table, keys))
    cats = list(dict.fromkeys(table[cat]))
    width = 0.8 / max(1, len(groups))
    x = np.arange(len(cats))
    for i, (key, g) in enumerate(groups):
        g = g.set_index(cat).reindex(cats)
        err = np.vstack([g[value] - g["lo"], g["hi"] - g[value]]).clip(min=0)
        err = np.nan_to_num(err)
        pos = x + i * width - 0.4 + width / 2
        bars = ax.bar(pos, g[value], width, yerr=err, capsize=2, label=_label(key))
        if len(groups) <= 3:
            labels = [f"{100 * v:.0f}%" if percent else f"{v:.2f}" for v in g[value].fillna(0)]
            ax.bar_label(bars, labels, fontsize="x-small", padding=2)
    ax.set_xticks(x, [str(c).replace("_", " ") for c in cats], rotation=20, ha="right")
    if percent:
        ax.yaxis.set_major_formatter(_PCT)
    ax.grid(axis="y", alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize="small")


def plot_wait_kinds(df: pd.DataFrame) -> Figure:
    """Which waits do ready hands hold and which waits win? Bars with Wilson error bars.

    Panels: declared waits by label (the lowest kind of the wait set), by pure class of
    the whole wait (when the frame has ``ready_wait_mask_s``), and the wait kind of wins.
    """
    panels = [
        (
            "Declared waits by label\n(lowest kind of the wait set)",
            est.wait_kind_frequencies(df, at="ready"),
            "wait_kind",
        ),
    ]
    if all(c in df.columns for c in seat_cols("ready_wait_mask")):
        panels.append(("Declared waits by whole wait\n(pure class)", est.wait_classes(df), "wait_class"))
    panels.append(
        (
            "Which waits win?\n(kind the winning tile scored as)",
            est.wait_kind_frequencies(df, at="win"),
            "wait_kind",
        )
    )
    fig = Figure(figsize=(5.2 * len(panels), 4.4))
    for i, (title, table, cat) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        _bars(ax, table, cat)
        ax.set_title(title, fontsize="small")
        ax.set_ylabel("share of waits (95% CI)")
        ax.set_xlabel(cat.replace("_", " "))
    return _finish(fig)


def _pow2(x: float, _pos=None) -> str:
    return f"{x:g}" if x < 1 else f"2^{np.log2(x):.0f}" if np.log2(x).is_integer() else f"{x:g}"


def plot_payment_distribution(df: pd.DataFrame) -> Figure:
    """How many fans does a loser owe, and how heavy is the payment tail? Per variant."""
    fig = Figure(figsize=(11, 4.4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    fans = est.fan_distribution(df)
    pays = est.payment_distribution(df)
    for v in variants(df):
        g = fans if v is None else fans[fans["variant"] == v]
        p = pays if v is None else pays[pays["variant"] == v]
        label = "all" if v is None else str(v)
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        ax1.errorbar(g["N"], g["share"], yerr=err, marker="o", capsize=2, label=label)
        ax2.step(p["amount"], p["at_least"], where="post", label=label)
    ax1.set_xlabel("N: the loser owes 2^N points")
    ax1.set_ylabel("share of losers (95% CI)")
    ax1.yaxis.set_major_formatter(_PCT)
    ax1.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.set_title("How many fans does a loser owe?", fontsize="small")
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.xaxis.set_major_formatter(FuncFormatter(_pow2))
    ax2.set_xlabel("amount one seat pays in a deal (points)")
    ax2.set_ylabel("P(a payment is at least x)")
    ax2.set_title("How heavy is the payment tail?", fontsize="small")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    return _finish(fig)


def plot_expected_payment(df: pd.DataFrame, by: str = "seat") -> Figure:
    """What does a seat (or role) win or lose per deal on average? Bootstrap error bars."""
    table = est.expected_payment(df, by=by)
    fig = Figure(figsize=(max(6, 1.1 * table[by].nunique() + 2), 4.4))
    ax = fig.add_subplot()
    _bars(ax, table.assign(**{by: table[by].astype(str)}), by, value="mean", percent=False)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel(by)
    ax.set_ylabel("mean result per deal (2^N points, 95% CI)")
    ax.set_title(f"What does each {by} win or lose per deal?", fontsize="small")
    return _finish(fig)


def plot_paired_difference(table: pd.DataFrame) -> Figure:
    """Forest plot of a :func:`~daqing_sim.analysis.estimators.paired_difference` table.

    One panel per metric (each in its own unit: percentage points per deal for
    proportions, 2^N points for money), variants on the y axis, values written.
    """
    require(table, ["metric", "variant", "diff", "lo", "hi"], "plot_paired_difference")
    table = table.assign(metric=table["metric"].astype(str), variant=table["variant"].astype(str))
    metrics = list(dict.fromkeys(table["metric"]))
    level = float(table["confidence"].iloc[0]) if "confidence" in table.columns else 0.95
    n_var = table["variant"].nunique()
    fig = Figure(figsize=(5.0 * min(3, len(metrics)), (0.35 * n_var + 1.6) * int(np.ceil(len(metrics) / 3))))
    for i, m in enumerate(metrics):
        ax = fig.add_subplot(int(np.ceil(len(metrics) / 3)), min(3, len(metrics)), i + 1)
        t = table[table["metric"] == m]
        pp = m in PROPORTION_METRICS
        scale = 100 if pp else 1
        y = np.arange(len(t))[::-1]
        d, lo, hi = (t[c].to_numpy(dtype=float) * scale for c in ("diff", "lo", "hi"))
        ax.errorbar(d, y, xerr=np.nan_to_num(np.vstack([d - lo, hi - d]).clip(min=0)), fmt="o", capsize=3)
        for yy, dd in zip(y, d, strict=True):
            ax.annotate(
                f"{dd:+.3g}",
                (dd, yy),
                textcoords="offset points",
                xytext=(0, 6),
                ha="center",
                fontsize="x-small",
            )
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(y, list(t["variant"]))
        ax.set_ylim(-0.7, len(t) - 0.3)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.set_xlabel(("percentage points per deal" if pp else "2^N points per deal") + f" ({level:.4g} CI)")
        ax.set_ylabel("variant")
        ax.set_title(f"What does the variant change? {m}", fontsize="small")
        ax.grid(axis="x", alpha=0.3)
    return _finish(fig)


def plot_strategy_results(df: pd.DataFrame) -> Figure:
    """Which strategy wins money, and which gets ready? Mean payment and P(ever ready)."""
    table = est.strategy_results(df)
    fig = Figure(figsize=(11, 4.4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    _bars(ax1, table.rename(columns={"mean_pay": "mean"}), "strategy", value="mean", percent=False)
    ax1.axhline(0, color="k", lw=0.8)
    ax1.set_xlabel("strategy")
    ax1.set_ylabel("mean result per seat-deal (2^N points, 95% CI)")
    ax1.set_title("Which strategy wins money?", fontsize="small")
    ready = table[["strategy", "ready_rate", "ready_lo", "ready_hi"]]
    _bars(ax2, ready.set_axis(["strategy", "share", "lo", "hi"], axis=1), "strategy")
    ax2.set_xlabel("strategy")
    ax2.set_ylabel("P(declares ready in a deal) (95% CI)")
    ax2.set_title("Which strategy gets ready?", fontsize="small")
    return _finish(fig)


def _quantile_panel(ax, stats_: pd.DataFrame, label_col: str) -> None:
    labels = list(dict.fromkeys(stats_[label_col].astype(str)))
    for i, lab in enumerate(labels):
        s = stats_[stats_[label_col].astype(str) == lab].set_index("statistic")["estimate"]
        ax.plot([i, i], [s["q01"], s["q99"]], color="grey", lw=1)
        ax.plot([i, i], [s["q05"], s["q95"]], color="C0", lw=6, solid_capstyle="butt")
        ax.plot(i, s["q50"], "w_", ms=10)
        ax.plot(i, s["mean"], "kD", ms=4)
        if "p_loss" in s:
            ax.annotate(
                f"mean {s['mean']:+.2f}\nP(loss) {100 * s['p_loss']:.0f}%",
                (i, s["q99"]),
                textcoords="offset points",
                xytext=(0, 3),
                ha="center",
                fontsize="x-small",
            )
    ax.set_xticks(range(len(labels)), [lab.replace("_", " ") for lab in labels], rotation=20, ha="right")
    ax.grid(axis="y", alpha=0.3)


def plot_net_result(df: pd.DataFrame, by: str = "seat") -> Figure:
    """How much can a seat win or lose in one deal? Quantile ranges per seat, and deal length.

    Left: per seat (or role) the 5-95 % range (bar), 1-99 % range (line), median
    (white tick), mean (diamond) and P(loss) of the net result; right: the deal-length
    distribution. Pooled over variants of the first variant only when there are several.
    """
    first = variants(df)[0]
    g = df if first is None else df[df["variant"] == first]
    fig = Figure(figsize=(11, 4.6))
    ax1 = fig.add_subplot(1, 2, 1)
    _quantile_panel(ax1, est.net_result(g, by=by), by)
    ax1.axhline(0, color="k", lw=0.8)
    ax1.set_xlabel(by)
    ax1.set_ylabel("net result of one deal (2^N points)")
    where = "" if first is None else f" ({first})"
    ax1.set_title(f"How much can a {by} win or lose in one deal?{where}", fontsize="small")
    _deal_length_panel(fig.add_subplot(1, 2, 2), df)
    return _finish(fig)


def _deal_length_panel(ax, df: pd.DataFrame) -> None:
    require(df, ["draws"], "plot_deal_length")
    for v in variants(df):
        x = (df if v is None else df[df["variant"] == v])["draws"].to_numpy()
        counts = np.bincount(x.astype(np.int64))
        med = float(np.quantile(x, 0.5, method="inverted_cdf"))
        ax.step(
            np.arange(len(counts)),
            counts / counts.sum(),
            where="mid",
            label=f"{'all' if v is None else v} (median {med:.0f})",
        )
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=1))
    ax.set_xlabel("tiles drawn from the live wall in the deal")
    ax.set_ylabel("share of deals")
    ax.set_title("How long does a deal last?", fontsize="small")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")


def plot_deal_length(df: pd.DataFrame) -> Figure:
    """How long does a deal last? The distribution of ``draws`` per variant, medians in the legend."""
    fig = Figure(figsize=(6.5, 4.4))
    _deal_length_panel(fig.add_subplot(), df)
    return _finish(fig)
