"""Plots of results frames; the only module of the package that imports matplotlib.

Every figure is built on :class:`matplotlib.figure.Figure` directly, never through
pyplot, so it renders headless and leaves no global state; in Jupyter ``display(fig)``
shows it. Titles state the question, axes are in a player's units (percent, percentage
points per deal, 2^N points), and the values a reader looks up are written on the plot.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import font_manager, rcParams
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis import families as fam
from daqing_sim.analysis._frame import GROUP_KEYS, frame_families, grouped, require, seat_cols, variants

__all__ = [
    "plot_ready_probability",
    "plot_wait_kinds",
    "plot_payment_distribution",
    "plot_expected_payment",
    "plot_paired_difference",
    "plot_strategy_results",
    "plot_net_result",
    "plot_deal_length",
    "plot_tenpai_probability",
    "plot_fan_types",
    "plot_value_distribution",
    "plot_two_player_patterns",
    "plot_beijing_events",
    "plot_family_readiness",
    "plot_family_comparison",
    "plot_family_fans",
    "plot_family_gains",
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


#: how a player says a role
ROLE_WORDS = {"dealer": "dealer", "non_dealer": "non-dealer"}
#: the estimands of the ready (听牌) curves, in words a player reads (the plot's second title line)
PLAIN_ESTIMANDS = {
    "by_draw": "share of seats {} by their k-th own draw; a deal that ended sooner counts as not {}",
    "at_risk": "among the seats that made at least k own draws, the share {} by then",
    "kaplan_meier": "as if every deal lasted until each seat got there: a deal that ended sooner counts "
    "only for the draws it had",
}


def _label(key: tuple) -> str:
    return ", ".join(ROLE_WORDS.get(str(k), str(k)) for k in key) if key else "all"


def _plain(estimand: str, reached: str) -> str:
    """The estimand of a ready curve in a player's words, ``reached`` e.g. ``"declared ready"``."""
    text = PLAIN_ESTIMANDS[estimand]
    return text.format(reached, reached.split()[-1]) if estimand == "by_draw" else text.format(reached)


def _finish(fig: Figure) -> Figure:
    # constrained layout keeps legends placed outside the axes, and rotated tick labels, in the figure
    fig.set_layout_engine("constrained")
    return fig


def _interval_label(level: float, family: int = 1) -> str:
    """``"95 % CI"``, or ``"99.8 % CI (Bonferroni, family of 9)"`` for an adjusted level."""
    text = f"{100 * level:.3g} % CI"
    return f"{text} (Bonferroni, family of {family})" if family > 1 else text


def _tick_labels(ax, labels: Sequence[str]) -> None:
    """Category labels under their ticks: long ones slanted with their end at the tick."""
    slant = max((len(line) for s in labels for line in s.split("\n")), default=0) > 6
    ax.set_xticks(range(len(labels)), labels)
    if slant:
        ax.tick_params(axis="x", labelrotation=20)
        for t in ax.get_xticklabels():
            t.set(ha="right", rotation_mode="anchor")


def _value(x: float, decimals: int) -> str:
    """``x`` rounded, without the sign of a value that rounds to zero."""
    text = f"{x:.{decimals}f}"
    return text.lstrip("-") if float(text) == 0 else text


def _legend_outside(ax, title: str | None = None) -> None:
    """The legend to the right of the axes, where it can hide no bar or point."""
    ax.legend(fontsize="small", title=title, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def _same_as(drawn: dict[str, np.ndarray], label: str, values: np.ndarray) -> str | None:
    """The label of a series already drawn with exactly ``values`` (its line would hide this one),
    else None; records ``values`` under ``label``."""
    same = next((k for k, v in drawn.items() if v.shape == values.shape and np.array_equal(v, values)), None)
    drawn[label] = values
    return same


def plot_ready_probability(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, max_draws: int = 16, estimand: str = "by_draw"
) -> Figure:
    """Curves of P(ready by own draw k) with interval bands; the values at k = 6 and 12 in the legend.

    One panel per role when several variants or strategies are drawn.

    Returns
    -------
    matplotlib.figure.Figure
    """
    table = est.ready_probability(df, by=by, max_draws=max_draws, estimand=estimand)
    what = _plain(estimand, "declared ready")
    return _ready_figure(table, "P(declared ready by draw k)", "How soon does a seat declare ready{}?", what)


def plot_tenpai_probability(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, max_draws: int = 16, estimand: str = "by_draw"
) -> Figure:
    """Beijing: curves of P(hand waiting (听牌) by own draw k) with interval bands, as
    :func:`plot_ready_probability` draws declared ready under Daqing."""
    table = fam.tenpai_probability(df, by=by, max_draws=max_draws, estimand=estimand)
    what = _plain(estimand, "waiting (听牌)")
    return _ready_figure(table, "P(hand waiting (听牌) by draw k)", "How soon does a hand wait{}?", what)


def _ready_figure(table: pd.DataFrame, ylabel: str, question: str, what: str) -> Figure:
    keys = [c for c in table.columns if c in GROUP_KEYS]
    others = [k for k in keys if k != "role"]
    several = "role" in keys and others and len(table[others].drop_duplicates()) > 1
    panels = list(grouped(table, ["role"])) if several else [((), table)]
    # a key with one value (the only variant) names no curve
    line_keys = [k for k in keys if not (several and k == "role") and table[k].nunique() > 1]
    fig = Figure(figsize=(6.5 * len(panels), 4.8))
    for i, (panel, sub) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        drawn: dict[str, np.ndarray] = {}
        for key, g in grouped(sub, line_keys):
            # the values at k = 6 and 12 go in the legend: written at the curves they overlap
            at = [
                f"{k}: {100 * g.loc[g['k'] == k, 'p'].iloc[0]:.0f}%" for k in (6, 12) if (g["k"] == k).any()
            ]
            label = _label(key) + (f" (k {', '.join(at)})" if at else "")
            same = _same_as(drawn, _label(key), g[["k", "p"]].to_numpy(dtype=float))
            # a curve equal to one drawn before would lie under it: dashed, and the legend says so
            style = {"ls": "--", "marker": "x"} if same else {"marker": "."}
            label += f", the same as {same}" if same else ""
            line = ax.plot(g["k"], g["p"], label=label, **style)[0]
            ax.fill_between(g["k"], g["lo"], g["hi"], color=line.get_color(), alpha=0.2)
        ax.set_xlabel("own draws k (tiles the seat has drawn)")
        ax.set_ylabel(ylabel)
        ax.yaxis.set_major_formatter(_PCT)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="lower right")
        where = f" ({_label(panel)})" if panel else ""
        ax.set_title(f"{question.format(where)}\n{textwrap.fill(what, 75)}", fontsize="small")
    return _finish(fig)


def _bars(
    ax,
    table: pd.DataFrame,
    cat: str,
    value: str = "share",
    percent: bool = True,
    legend: bool = True,
    text=None,
) -> int:
    """Bars of ``value`` per category ``cat``, one bar per group (variant, ...) side by side, centred
    on the category's tick, with interval error bars; values written above (below) the error bar
    when at most three groups (``text(value)``: their text, default whole percent). Returns the
    number of groups."""
    # the category itself and a key with one value (one variant) do not split the bars
    keys = [c for c in table.columns if c in GROUP_KEYS and c != cat and table[c].nunique() > 1]
    groups = list(grouped(table, keys))
    cats = list(dict.fromkeys(table[cat]))
    width = 0.8 / max(1, len(groups))
    x = np.arange(len(cats))
    for i, (key, g) in enumerate(groups):
        g = g.set_index(cat).reindex(cats)
        v, lo, hi = (g[c].to_numpy(dtype=float) for c in (value, "lo", "hi"))
        err = np.nan_to_num(np.vstack([v - lo, hi - v]).clip(min=0))
        pos = x + i * width - 0.4 + width / 2
        ax.bar(pos, v, width, yerr=err, capsize=2, label=_label(key))
        if len(groups) <= 3:
            for p, vv, l, h in zip(pos, v, lo, hi, strict=True):
                if not np.isfinite(vv):
                    continue
                up = vv >= 0
                y = np.nanmax([vv, h]) if up else np.nanmin([vv, l])
                ax.annotate(
                    text(vv) if text else _value(100 * vv, 0) + "%" if percent else _value(vv, 2),
                    (p, y),
                    textcoords="offset points",
                    xytext=(0, 2 if up else -2),
                    ha="center",
                    va="bottom" if up else "top",
                    fontsize="x-small",
                )
    _tick_labels(ax, [str(c).replace("_", " ") for c in cats])
    ax.margins(y=0.12)
    if percent:
        ax.yaxis.set_major_formatter(_PCT)
    ax.grid(axis="y", alpha=0.3)
    if legend and len(groups) > 1:
        _legend_outside(ax)
    return len(groups)


def plot_wait_kinds(df: pd.DataFrame) -> Figure:
    """Which waits do ready hands hold and which waits win? Bars with Wilson error bars.

    Panels: declared waits by label (the lowest kind of the wait set), by pure class of
    the whole wait (when the frame has ``ready_wait_mask_s``), and the wait kind of wins. A
    Beijing or two-player frame records no declared wait: it has the last panel alone.
    """
    declared = not isinstance(df, pd.DataFrame) or "ready_wait_0" in df.columns
    declared = declared or frame_families(df) == ["daqing"]
    panels = []
    if declared:
        panels.append(
            (
                "Declared waits by label\n(lowest kind of the wait set)",
                est.wait_kind_frequencies(df, at="ready"),
                "wait_kind",
            )
        )
    if declared and all(c in df.columns for c in seat_cols("ready_wait_mask")):
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
        _bars(ax, table, cat, legend=i == len(panels) - 1)
        ax.set_title(title, fontsize="small")
        ax.set_ylabel("share of waits (95% CI)")
        ax.set_xlabel(cat.replace("_", " "))
    return _finish(fig)


def _pow2(x: float, _pos=None) -> str:
    return f"{x:g}" if x < 1 else f"2^{np.log2(x):.0f}" if np.log2(x).is_integer() else f"{x:g}"


def _money(df: pd.DataFrame) -> str:
    """The unit of a frame's ``pay_s`` on an axis: a two-player win's value is in points, not 2^N."""
    return "points" if frame_families(df) == ["two_player"] else "2^N points"


def plot_payment_distribution(df: pd.DataFrame) -> Figure:
    """How many fans does a loser owe (Daqing; Beijing and two-player: a win, F), and how heavy
    is the payment tail (in the frame's points)? Per variant."""
    fig = Figure(figsize=(11, 4.4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    daqing = not isinstance(df, pd.DataFrame) or "fans_0" in df.columns or frame_families(df) == ["daqing"]
    fans = est.fan_distribution(df) if daqing else fam.fan_total_distribution(df)
    fan_col = "N" if daqing else "F"
    pays = est.payment_distribution(df)
    for v in variants(df):
        g = fans if v is None else fans[fans["variant"] == v]
        p = pays if v is None else pays[pays["variant"] == v]
        label = "all" if v is None else str(v)
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        ax1.errorbar(g[fan_col], g["share"], yerr=err, marker="o", capsize=2, label=label)
        ax2.step(p["amount"], p["at_least"], where="post", label=label)
    ax1.set_xlabel("N: the loser owes 2^N points" if daqing else "F: the win's fans")
    ax1.set_ylabel(f"share of {'losers' if daqing else 'wins'} (95% CI)")
    ax1.yaxis.set_major_formatter(_PCT)
    ax1.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.set_title(f"How many fans does {'a loser owe' if daqing else 'a win hold'}?", fontsize="small")
    if (pays["amount"] > 0).any() and (pays["at_least"] > 0).any():  # no win: nothing to log-scale
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        ax2.xaxis.set_major_formatter(FuncFormatter(_pow2))
    else:
        ax2.text(0.5, 0.5, "no payments: no deal was won", ha="center", va="center", transform=ax2.transAxes)
    ax2.set_xlabel("amount one seat pays in a deal (points)")
    ax2.set_ylabel("P(a payment is at least x)")
    ax2.set_title("How heavy is the payment tail?", fontsize="small")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    if len(variants(df)) > 2:  # one legend for both panels, beside them
        _legend_outside(ax2)
    else:
        ax1.legend(fontsize="small")
        ax2.legend(fontsize="small")
    return _finish(fig)


def plot_expected_payment(df: pd.DataFrame, by: str = "seat") -> Figure:
    """What does a seat (or role) win or lose per deal on average? Bootstrap error bars."""
    table = est.expected_payment(df, by=by)
    fig = Figure(figsize=(max(6, 1.1 * table[by].nunique() + 2), 4.4))
    ax = fig.add_subplot()
    _bars(ax, table.assign(**{by: table[by].astype(str)}), by, value="mean", percent=False)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel(by)
    ax.set_ylabel(f"mean result per deal ({_money(df)}, 95% CI)")
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
    family = int(table["family_size"].iloc[0]) if "family_size" in table.columns else 1
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
                "0" if f"{dd:.3g}" in ("0", "-0") else f"{dd:+.3g}",
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
        unit = "percentage points per deal" if pp else "2^N points per deal"
        ax.set_xlabel(f"{unit}\n{_interval_label(level, family)}")
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


def _quantile_panel(ax, stats_: pd.DataFrame, label_col: str, names: Mapping[str, str] | None = None) -> None:
    """Per label (seat or role), one box per variant side by side: 5-95 % (bar), 1-99 % (line),
    median (white tick), mean (black diamond); above each, its mean and P(loss). ``names``:
    label -> its tick text (default: the label, in words)."""
    labels = list(dict.fromkeys(stats_[label_col].astype(str)))
    keys = [v for v in dict.fromkeys(stats_["variant"].astype(str))] if "variant" in stats_ else [None]
    width = 0.8 / len(keys)
    # two lines of text fit above a box of at most two variants; narrower boxes get one upright line
    upright = len(keys) > 2
    top = -np.inf
    for j, v in enumerate(keys):
        part = stats_ if v is None else stats_[stats_["variant"].astype(str) == v]
        for i, lab in enumerate(labels):
            s = part[part[label_col].astype(str) == lab].set_index("statistic")["estimate"]
            x = i - 0.4 + width * (j + 0.5)
            ax.plot([x, x], [s["q01"], s["q99"]], color="grey", lw=1)
            bar_label = None if v is None or i else v
            ax.plot(
                [x, x],
                [s["q05"], s["q95"]],
                color=f"C{j}",
                lw=min(6, 40 * width),
                solid_capstyle="butt",
                label=bar_label,
            )
            ax.plot(x, s["q50"], "w_", ms=min(10, 60 * width))
            ax.plot(x, s["mean"], "kD", ms=4 if len(keys) <= 4 else 3)
            top = max(top, s["q99"])
            if "p_loss" in s:
                text = (
                    f"{s['mean']:+.2f}, {100 * s['p_loss']:.0f}%"
                    if upright
                    else (f"mean {s['mean']:+.2f}\nP(loss) {100 * s['p_loss']:.0f}%")
                )
                ax.annotate(
                    text,
                    (x, s["q99"]),
                    textcoords="offset points",
                    xytext=(0, 3),
                    ha="center",
                    va="bottom",
                    rotation=90 if upright else 0,
                    fontsize="xx-small" if upright else "x-small",
                )
    # room above the highest box, and beside the outer ones, for their labels
    ax.set_xlim(-0.6, len(labels) - 0.4)
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi + (0.35 if upright else 0.18) * (hi - lo))
    names = names or {}
    _tick_labels(ax, [names.get(lab, ROLE_WORDS.get(lab, lab.replace("_", " "))) for lab in labels])
    ax.grid(axis="y", alpha=0.3)
    if len(keys) > 1:
        _legend_outside(ax, title="variant")


def plot_net_result(df: pd.DataFrame, by: str = "seat") -> Figure:
    """How much can a seat win or lose in one deal? Quantile ranges per seat, and deal length.

    Left: per seat (or role), one box per variant side by side: the 5-95 % range (bar),
    1-99 % range (line), median (white tick), mean (diamond), and above it the mean and
    P(loss) of the net result; right: the deal-length distribution of each variant.
    """
    table = est.net_result(df, by=by)
    n_var = table["variant"].nunique() if "variant" in table.columns else 1
    fig = Figure(figsize=(11 + 0.5 * max(0, n_var - 2), 4.8))
    ax1 = fig.add_subplot(1, 2, 1)
    dealers = pd.unique(df["dealer"]) if by == "seat" else []
    names = {str(int(dealers[0])): f"{int(dealers[0])}\ndealer"} if len(dealers) == 1 else {}
    _quantile_panel(ax1, table, by, names)
    ax1.axhline(0, color="k", lw=0.8)
    if by != "seat":
        ax1.set_xlabel(by)
    elif names:
        ax1.set_xlabel(f"seat (seat {int(dealers[0])} deals every deal)")
    else:
        ax1.set_xlabel("seat (the dealer changes from deal to deal)")
    ax1.set_ylabel(f"net result of one deal ({_money(df)})")
    labels = "mean, P(loss)" if n_var > 2 else "mean and P(loss)"
    ax1.set_title(
        f"How much can a {by} win or lose in one deal?\n(above each box: {labels})", fontsize="small"
    )
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
    # a two-player deal is a game (docs/RULES_TWO_PLAYER.md)
    deal = "game" if frame_families(df) == ["two_player"] else "deal"
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=1))
    ax.set_xlabel(f"tiles drawn from the live wall in the {deal}")
    ax.set_ylabel(f"share of {deal}s")
    ax.set_title(f"How long does a {deal} last?", fontsize="small")
    ax.grid(alpha=0.3)
    if len(variants(df)) > 2:
        _legend_outside(ax)
    else:
        ax.legend(fontsize="small")


def plot_deal_length(df: pd.DataFrame) -> Figure:
    """How long does a deal (a two-player frame: a game) last? The distribution of ``draws`` per
    variant, medians in the legend."""
    fig = Figure(figsize=(6.5 + (2.5 if len(variants(df)) > 2 else 0), 4.4))
    _deal_length_panel(fig.add_subplot(), df)
    return _finish(fig)


# --------------------------------------------------------------------------- Beijing and families


def _hbars(ax, table: pd.DataFrame, cat: str, labels: Sequence[str], value: str = "share") -> None:
    """Horizontal bars of ``value`` per category (one per variant side by side), Wilson error bars,
    a log axis for shares spanning decades, values written beside the bars (at most three variants)."""
    keys = ["variant"] if "variant" in table.columns and table["variant"].nunique() > 1 else []
    groups = list(grouped(table, keys))
    cats = list(dict.fromkeys(table[cat]))
    height = 0.8 / max(1, len(groups))
    y = np.arange(len(cats))[::-1]
    for i, (key, g) in enumerate(groups):
        g = g.set_index(cat).reindex(cats)
        v, lo, hi = (g[c].to_numpy(dtype=float) for c in (value, "lo", "hi"))
        pos = y - i * height + 0.4 - height / 2
        err = np.nan_to_num(np.vstack([v - lo, hi - v]).clip(min=0))
        ax.barh(pos, v, height, xerr=err, capsize=2, label=_label(key))
        if len(groups) <= 3:
            for p, vv, h in zip(pos, v, hi, strict=True):
                if np.isfinite(vv) and vv > 0:
                    text = f"{100 * vv:.2g}%" if vv < 0.1 else f"{100 * vv:.0f}%"
                    ax.annotate(
                        text,
                        (np.nanmax([vv, h]), p),
                        textcoords="offset points",
                        xytext=(3, 0),
                        va="center",
                        fontsize="x-small",
                    )
    ax.set_yticks(y, list(labels))
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
    ax.grid(axis="x", alpha=0.3)
    if len(groups) > 1:
        _legend_outside(ax)


def plot_fan_types(df: pd.DataFrame) -> Figure:
    """Beijing: which fan types do wins hold, and how many fans F? Wilson error bars, per variant."""
    types = fam.fan_type_shares(df)
    labels = [
        f"{n} {c.replace('_', ' ')} ({f})" if n != c.replace("_", " ") else f"{n} ({f})"
        for c, (n, f) in fam.BEIJING_FANS.items()
    ]
    total = fam.fan_total_distribution(df)
    fig = Figure(figsize=(12, 4.8))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    _hbars(ax1, types, "fan", labels)
    ax1.set_xlabel("share of wins holding the fan type (95% CI, log scale)")
    ax1.set_title("Which fan types do wins hold? (fans in brackets)", fontsize="small")
    for v in variants(total):
        g = total if v is None else total[total["variant"] == v]
        g = g[g["count"] > 0]
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        ax2.errorbar(
            g["F"], g["share"], yerr=err, marker="o", capsize=2, label="all" if v is None else str(v)
        )
    ax2.set_yscale("log")
    ax2.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_xlabel("F: the win's fans (their sum)")
    ax2.set_ylabel("share of wins (95% CI, log scale)")
    ax2.set_title("How many fans does a win have?", fontsize="small")
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize="small")
    return _finish(fig)


def plot_two_player_patterns(df: pd.DataFrame) -> Figure:
    """Two-player games: which patterns and limit hands do wins hold, and how many fans F? Shares of
    wins with their intervals (Wilson; exact for rare patterns), per variant; patterns no win held
    are left out."""
    table = fam.two_player_pattern_shares(df)
    seen = table.groupby("fan", sort=False)["count"].sum()
    table = table[table["fan"].isin(seen[seen > 0].index)]
    # the rule set's Chinese name first (the plot font holds every fan name's glyphs), the code name
    # (the column) and the fans in brackets
    labels = [
        f"{fam.TWO_PLAYER_FANS[code][0]} {code} ({fam.TWO_PLAYER_FANS[code][1] or 'limit'})"
        if code in fam.TWO_PLAYER_FANS
        else "役满 any limit hand"
        for code in dict.fromkeys(table["fan"])
    ]
    total = fam.fan_total_distribution(df)
    fig = Figure(figsize=(12, 2 + 0.22 * len(labels)))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    _hbars(ax1, table, "fan", labels)
    ax1.set_xlabel("share of wins holding the pattern (95% CI, log scale)")
    ax1.set_title("Which patterns do wins hold? (fans in brackets)", fontsize="small")
    for v in variants(total):
        g = total if v is None else total[total["variant"] == v]
        g = g[g["count"] > 0]
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        ax2.errorbar(
            g["F"], g["share"], yerr=err, marker="o", capsize=2, label="all" if v is None else str(v)
        )
    ax2.set_yscale("log")
    ax2.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_xlabel("F: the win's fans (their sum, a limit hand the cap)")
    ax2.set_ylabel("share of wins (95% CI, log scale)")
    ax2.set_title("How many fans does a win have?", fontsize="small")
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize="small")
    return _finish(fig)


def plot_value_distribution(df: pd.DataFrame, base_points: float | object = None) -> Figure:
    """Beijing: what is a win worth, in base units (1 = base_points points)? Share of wins by value
    (Wilson), and the tail P(value >= x), per variant."""
    table = fam.value_distribution(df, base_points)
    fig = Figure(figsize=(12, 4.4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    drawn: dict[str, np.ndarray] = {}
    shown = variants(table)
    for i, v in enumerate(shown):
        g = table if v is None else table[table["variant"] == v]
        g = g[g["count"] > 0]
        label = "all" if v is None else str(v)
        # variants side by side (a few percent of the value apart), so equal shares hide no point
        dodge = 2.0 ** (0.08 * (i - (len(shown) - 1) / 2))
        # a variant equal to one drawn before would hide under it: other marks, and the legend says so
        same = _same_as(drawn, label, g[["value", "share"]].to_numpy(dtype=float))
        label += f" (the same as {same})" if same else ""
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        mark = {"marker": "x", "ms": 9} if same else {"marker": "o"}
        ax1.errorbar(g["value"] * dodge, g["share"], yerr=err, capsize=2, ls="none", label=label, **mark)
        ax2.step(g["value"], g["at_least"], where="post", label=label, ls="--" if same else "-")
    for ax in (ax1, ax2):
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
        ax.set_xlabel("value of the win (base units: base x F, half for an open hand)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    ax1.set_ylabel("share of wins (95% CI, log scale)")
    ax1.set_title("What is a win worth?", fontsize="small")
    ax2.set_ylabel("P(a win is worth at least x)")
    ax2.set_title("How heavy is the value tail?", fontsize="small")
    return _finish(fig)


def plot_beijing_events(df: pd.DataFrame, base_points: float | object = None) -> Figure:
    """Beijing: how often do 烧庄, 互包 and robbed kongs happen (share of deals, Wilson), and what
    do they cost where they happen (mean payment involved, base units, bootstrap)?"""
    t = fam.beijing_events(df, base_points)
    names = {
        "burn": "烧庄",
        "burn_paid": "烧庄 paid",
        "mutual": "互包 bound",
        "mutual_paid": "互包 paid",
        "robbed_kong": "抢杠 robbed kong",
    }
    t = t.assign(event=t["event"].map(names))
    n_var = t["variant"].nunique() if "variant" in t.columns else 1
    fig = Figure(figsize=(12 + 3 * max(0, n_var - 2), 4.6))  # room for the values over the bars
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    _bars(ax1, t, "event", text=lambda x: f"{100 * x:.2g}%")
    ax1.set_ylabel("share of deals (95% CI)")
    ax1.set_title("How often do 烧庄, 互包 and robbed kongs happen?", fontsize="small")
    costs = t[t["event"].isin([names[e] for e in ("burn_paid", "mutual_paid", "robbed_kong")])]
    costs = costs.rename(columns={"cost": "mean", "cost_lo": "lo_", "cost_hi": "hi_"})
    costs = costs.drop(columns=["lo", "hi"]).rename(columns={"lo_": "lo", "hi_": "hi"})
    _bars(ax2, costs, "event", value="mean", percent=False)
    ax2.set_ylabel("mean payment where it happens (base units, 95% CI)")
    ax2.set_title(
        "What do they cost? (dealer's 烧庄 payment; the bound\n"
        "partner's payment; the robbed kong's 3 x value)",
        fontsize="small",
    )
    return _finish(fig)


def plot_family_readiness(frames: dict, max_draws: int = 16) -> Figure:
    """Readiness by own draw k of frames of any family side by side (Kaplan-Meier bands): declared
    ready (上听) under Daqing, a waiting hand (听牌) under Beijing; one panel per role.

    ``frames``: label -> a results frame of one variant, or one results frame (its variants)."""
    fig = Figure(figsize=(12, 4.6))
    axes = [fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)]
    for label, g in fam._labelled_frames(frames, "plot_family_readiness").items():
        t = fam.readiness_probability(
            g.drop(columns="variant", errors="ignore"), max_draws=max_draws, estimand="kaplan_meier"
        )
        for ax, role in zip(axes, ("dealer", "non_dealer"), strict=True):
            r = t[t["role"].astype(str) == role]
            at = [f"{k}: {100 * r.loc[r['k'] == k, 'p'].iloc[0]:.0f}%" for k in (6, 12)]
            line = ax.plot(r["k"], r["p"], marker=".", label=f"{label} (k {', '.join(at)})")[0]
            ax.fill_between(r["k"], r["lo"], r["hi"], color=line.get_color(), alpha=0.2)
    for ax, role in zip(axes, ("dealer", "non-dealer"), strict=True):
        ax.set_xlabel("own draws k (tiles the seat has drawn)")
        ax.set_ylabel("P(ready by draw k), Kaplan-Meier (95% CI)")
        ax.yaxis.set_major_formatter(_PCT)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", loc="lower right")
        ax.set_title(
            f"How soon is a {role} ready?\n(Daqing: declared 上听; Beijing: hand waiting 听牌)",
            fontsize="small",
        )
    return _finish(fig)


def plot_family_comparison(
    table: pd.DataFrame, metrics: Sequence[str] | None = None, titles: dict | None = None
) -> Figure:
    """Bars of a :func:`~daqing_sim.analysis.families.family_comparison` table: one panel per
    metric, one bar per label, 95 % error bars, values written. Shares in percent."""
    require(table, ["label", "metric", "estimate", "lo", "hi"], "plot_family_comparison")
    metrics = list(dict.fromkeys(table["metric"])) if metrics is None else list(metrics)
    titles = titles or {}
    n_cols = min(3, len(metrics))
    n_rows = int(np.ceil(len(metrics) / n_cols))
    fig = Figure(figsize=(4.6 * n_cols, 3.6 * n_rows))
    for i, m in enumerate(metrics):
        ax = fig.add_subplot(n_rows, n_cols, i + 1)
        t = table[table["metric"] == m]
        percent = bool(((t["estimate"] >= 0) & (t["estimate"] <= 1)).all()) and not m.endswith("mean")
        scale = 100 if percent else 1
        x = np.arange(len(t))
        v, lo, hi = (t[c].to_numpy(dtype=float) * scale for c in ("estimate", "lo", "hi"))
        ax.bar(
            x,
            v,
            yerr=np.nan_to_num(np.vstack([v - lo, hi - v]).clip(min=0)),
            capsize=3,
            color=[f"C{j}" for j in range(len(t))],
        )
        for xx, vv, hh in zip(x, v, hi, strict=True):
            ax.annotate(
                f"{vv:.1f}%" if percent else f"{vv:.3g}",
                (xx, hh),
                textcoords="offset points",
                xytext=(0, 2),
                ha="center",
                va="bottom",
                fontsize="x-small",
            )
        _tick_labels(ax, list(t["label"].astype(str)))
        ax.margins(y=0.15)
        ax.set_ylabel("percent (95% CI)" if percent else "mean (95% CI)")
        title = titles.get(m) or str(t["definition"].iloc[0] if "definition" in t else m)
        ax.set_title(textwrap.fill(title, 48), fontsize="small")
        ax.grid(axis="y", alpha=0.3)
    return _finish(fig)


def plot_family_fans(frames: dict) -> Figure:
    """Which fan types do wins hold, per frame of any family (its own types; Wilson, log scale)?

    ``frames``: label -> a results frame of one variant, or one results frame (its variants)
    (:func:`~daqing_sim.analysis.families.win_fan_shares`)."""
    tables = {
        label: fam.win_fan_shares(g.drop(columns="variant", errors="ignore"))
        for label, g in fam._labelled_frames(frames, "plot_family_fans").items()
    }
    fig = Figure(figsize=(6.2 * len(tables), 0.34 * max(len(t) for t in tables.values()) + 1.8))
    for i, (label, t) in enumerate(tables.items()):
        ax = fig.add_subplot(1, len(tables), i + 1)
        _hbars(ax, t, "fan", list(t["name"]))
        ax.set_xlabel("share of wins holding it (95% CI, log scale)")
        ax.set_title(f"{label}: which fan types do wins hold?", fontsize="small")
    return _finish(fig)


def plot_family_gains(frames: dict, base_points: float | object = None) -> Figure:
    """What does the winner collect for a win, in base units, per frame of any family? The tail
    P(gain >= x) (left) and the share of wins by gain (right, Wilson), means in the legend."""
    table = fam.gain_distribution(frames, base_points)
    fig = Figure(figsize=(12, 4.6))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for label in dict.fromkeys(table["label"]):
        g = table[table["label"] == label]
        mean = float((g["gain"] * g["count"]).sum() / g["count"].sum()) if g["count"].sum() else np.nan
        ax1.step(g["gain"], g["at_least"], where="post", label=f"{label} (mean {mean:.3g})")
        err = np.nan_to_num(np.vstack([g["share"] - g["lo"], g["hi"] - g["share"]]).clip(min=0))
        ax2.errorbar(g["gain"], g["share"], yerr=err, marker="o", ms=3, capsize=2, ls="none", label=label)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:g}"))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
        ax.set_xlabel("what the winner collects for the win (base units, log scale)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small")
    ax1.set_ylabel("P(a win collects at least x)")
    ax1.set_title("How heavy is the tail of a win's worth?", fontsize="small")
    ax2.set_ylabel("share of wins (95% CI, log scale)")
    ax2.set_title("What is a win worth? (Daqing: 2^N points; Beijing: points / base)", fontsize="small")
    return _finish(fig)
