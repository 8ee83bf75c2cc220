"""Statistics and plots on results DataFrames (one row per deal, docs/DESIGN.md).

Every function takes the frame returned by :func:`daqing_sim.game.simulate.simulate` or
:func:`daqing_sim.experiments.results.load_results` and returns a small tidy DataFrame (or a
matplotlib :class:`~matplotlib.figure.Figure`). Frames that carry a ``variant`` column
are always split by variant, in the order of its categories (drop the column to pool
variants, e.g. the seat rotations of a strategy tournament).

Plots are built on :class:`matplotlib.figure.Figure` directly, never through pyplot, so
they render headless (Agg canvas) and leave no global figure state behind; in Jupyter
``display(fig)`` shows them.

Intervals are 95 %:

* proportions: Wilson score interval (each seat-deal counted as one trial);
* means of payments (heavy-tailed 2^N amounts): nonparametric **percentile bootstrap**,
  999 resamples with a fixed seed, resampling whole deals (the four seats of a deal
  move together); with more than 20 000 deals, blocks of consecutive deals are
  resampled instead (deals are independent, so the blocks are i.i.d.);
* paired differences between variants: the same bootstrap over the paired deals.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from daqing_sim.codes import BAO_KINDS, OUTCOMES, WAIT_KINDS
from daqing_sim.validation import atomic_write

__all__ = [
    "BOOTSTRAP_METHOD",
    "OUTCOMES",
    "BAO_KINDS",
    "ROLES",
    "wilson_interval",
    "bootstrap_ratio",
    "ready_probability",
    "wait_kind_frequencies",
    "wait_kind_outcomes",
    "outcome_shares",
    "bao_shares",
    "fan_distribution",
    "payment_distribution",
    "tail_probability",
    "expected_payment",
    "deal_metric",
    "paired_difference",
    "strategy_results",
    "summarize",
    "write_summary",
    "format_ci",
    "plot_ready_probability",
    "plot_wait_kinds",
    "plot_payment_distribution",
    "plot_expected_payment",
    "plot_paired_difference",
    "plot_strategy_results",
]

Z95 = 1.959963984540054
N_BOOT = 999
BOOT_SEED = 0
MAX_BLOCKS = 20_000
BOOTSTRAP_METHOD = (
    f"percentile bootstrap, {N_BOOT} resamples of deals (seed {BOOT_SEED}; "
    f"blocks of consecutive deals above {MAX_BLOCKS} deals)"
)

SEATS = (0, 1, 2, 3)
ROLES = (
    "dealer",
    "non_dealer",
    "winner",
    "discarder",
    "discarder_ready",
    "discarder_not_ready",
    "other_loser",
)
GROUP_KEYS = ("variant", "role", "seat", "strategy")
SUMMARY_KS = (3, 6, 9, 12)
SUMMARY_DIFF_METRICS = ("win", "exhaustive_draw", "big_win", "bao_draw", "dealer_pay", "max_pay")


# --------------------------------------------------------------------------- validation


def _seat_cols(base: str) -> list[str]:
    return [f"{base}_{s}" for s in SEATS]


def _require(df: object, columns: Iterable[str], func: str) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(
            f"{func}: expected a results DataFrame (from simulate() or load_results()), "
            f"got {type(df).__name__}"
        )
    missing = [c for c in dict.fromkeys(columns) if c not in df.columns]
    if missing:
        raise ValueError(
            f"{func}: results frame is missing column(s) {', '.join(missing)}; pass the DataFrame "
            "returned by simulate() or load_results() (schema in docs/DESIGN.md)"
        )
    if len(df) == 0:
        raise ValueError(f"{func}: results frame has no rows; simulate at least one deal")
    return df


def _parse_by(by: str | Sequence[str] | None, default: Sequence[str], allowed: Sequence[str], func: str):
    keys = list(default) if by is None else [by] if isinstance(by, str) else list(by)
    bad = [k for k in keys if k not in allowed]
    if bad:
        raise ValueError(
            f"{func}: cannot group by {', '.join(map(repr, bad))}; use any of {', '.join(allowed)}"
        )
    return keys


def _with_variant(df: pd.DataFrame, keys: list[str]) -> list[str]:
    has_variant = "variant" in getattr(df, "columns", ())  # a non-frame is rejected by _require
    others = [k for k in keys if k != "variant"]
    return ["variant", *others] if has_variant else others


def _variants(df: pd.DataFrame) -> list:
    if "variant" not in df.columns:
        return [None]
    v = df["variant"]
    if isinstance(v.dtype, pd.CategoricalDtype):
        present = set(v.unique())
        return [c for c in v.cat.categories if c in present]
    return list(pd.unique(v))


def _by_variant(df: pd.DataFrame):
    for v in _variants(df):
        yield v, (df if v is None else df[df["variant"] == v])


def _ordered(table: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """Give a result's variant column the variant order of ``df`` (not alphabetical)."""
    if "variant" in table.columns and "variant" in df.columns:
        order = [v for v in _variants(df) if v in set(table["variant"])]
        table["variant"] = pd.Categorical(table["variant"], categories=order)
    return table


def _outcome(df: pd.DataFrame) -> np.ndarray:
    return df["outcome"].astype(str).to_numpy()


# --------------------------------------------------------------------------- interval maths


def wilson_interval(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions.

    Parameters
    ----------
    successes, trials : array_like
        Counts; ``trials == 0`` gives ``nan`` bounds.
    z : float
        Normal quantile (1.96 for 95 %).

    Returns
    -------
    lo, hi : ndarray
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("wilson_interval: successes must lie between 0 and trials")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.where(n > 0, np.clip(centre - half, 0, 1), np.nan)
        hi = np.where(n > 0, np.clip(centre + half, 0, 1), np.nan)
    return lo, hi


def bootstrap_ratio(
    sums: np.ndarray,
    counts: np.ndarray | None = None,
    *,
    n_boot: int = N_BOOT,
    seed: int = BOOT_SEED,
    max_blocks: int = MAX_BLOCKS,
    contrast_to: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratio ``sum(sums) / sum(counts)`` with a 95 % percentile bootstrap over rows (deals).

    Parameters
    ----------
    sums : ndarray, shape (n,) or (n, g)
        Per-deal totals of the quantity, one column per group.
    counts : ndarray, same shape, optional
        Per-deal number of observations of each group (default 1 each: a plain mean).
    n_boot, seed : int
        Resamples and the fixed random seed.
    max_blocks : int
        Above this many rows, consecutive rows are summed into ``max_blocks`` blocks,
        which are resampled instead (valid because deals are independent).
    contrast_to : int, optional
        Report every ratio minus the ratio of this column, bootstrapped jointly
        (a paired contrast; the column itself gets 0).

    Returns
    -------
    estimate, lo, hi : ndarray, shape (g,)
    """
    S = np.asarray(sums, dtype=float)
    squeeze = S.ndim == 1
    S = S.reshape(len(S), -1)
    C = np.ones_like(S) if counts is None else np.asarray(counts, dtype=float).reshape(S.shape)
    if len(S) == 0:
        nan = np.full(S.shape[1], np.nan)
        return (nan, nan, nan) if not squeeze else (nan[0], nan[0], nan[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        est = S.sum(0) / C.sum(0)
    if contrast_to is not None:
        est = est - est[contrast_to]
    if len(S) > max_blocks:
        starts = np.linspace(0, len(S), max_blocks + 1).astype(np.int64)[:-1]
        S = np.add.reduceat(S, starts, axis=0)
        C = np.add.reduceat(C, starts, axis=0)
    m = len(S)
    rng = np.random.default_rng(seed)
    stats = np.empty((n_boot, S.shape[1]))
    chunk = max(1, min(n_boot, 2_000_000 // m))
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        idx = rng.integers(0, m, size=(b, m)) + (np.arange(b) * m)[:, None]
        w = np.bincount(idx.ravel(), minlength=b * m).reshape(b, m).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            stats[start : start + b] = (w @ S) / (w @ C)
    if contrast_to is not None:
        stats -= stats[:, [contrast_to]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # groups never observed: all-NaN
        lo, hi = np.nanpercentile(stats, [2.5, 97.5], axis=0) if m > 1 else (est.copy(), est.copy())
    lo = np.where(np.isnan(est), np.nan, lo)
    hi = np.where(np.isnan(est), np.nan, hi)
    if squeeze:
        return est[0], lo[0], hi[0]
    return est, lo, hi


# --------------------------------------------------------------------------- long (seat) view


def _seat_long(df: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """One row per (deal, seat): row (position in ``df``), seat, [variant,] role and ``fields``."""
    n = len(df)
    out = {
        "row": np.tile(np.arange(n), 4),
        "seat": np.repeat(np.array(SEATS, dtype=np.int8), n),
    }
    if "variant" in df.columns:
        out["variant"] = pd.concat([df["variant"]] * 4, ignore_index=True)
    dealer = np.tile(df["dealer"].to_numpy(), 4)
    out["role"] = pd.Categorical(
        np.where(out["seat"] == dealer, "dealer", "non_dealer"), categories=["dealer", "non_dealer"]
    )
    for f in fields:
        out[f] = pd.concat([df[c] for c in _seat_cols(f)], ignore_index=True)
        if f == "strategy":
            out[f] = out[f].astype(str)
    return pd.DataFrame(out)


def _seat_matrix(df: pd.DataFrame, base: str) -> np.ndarray:
    return np.column_stack([df[c].to_numpy() for c in _seat_cols(base)])


def _grouped(long: pd.DataFrame, keys: list[str]):
    if not keys:
        yield (), long
        return
    for k, g in long.groupby(keys, observed=True, sort=True):
        yield (k if isinstance(k, tuple) else (k,)), g


# --------------------------------------------------------------------------- ready and waits


def ready_probability(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, max_draws: int = 16
) -> pd.DataFrame:
    """P(a seat has declared ready by its own k-th draw), k = 0 .. max_draws.

    A seat-deal counts as ready by k when ``0 <= ready_turn_s <= k``; a deal that ends
    before the seat's k-th draw counts as not ready (this is the probability within a
    real deal, not conditional on the deal lasting k draws).

    Parameters
    ----------
    df : DataFrame
        Results frame (columns dealer, ready_turn_0..3; strategy_0..3 for ``by="strategy"``).
    by : str or list of str, optional
        Any of ``"role"`` (dealer vs non_dealer, the default), ``"seat"``, ``"strategy"``,
        ``"variant"``. A frame with a variant column is always split by variant.
    max_draws : int
        Largest k reported.

    Returns
    -------
    DataFrame
        Group columns, then ``k, n, ready, p, lo, hi`` (Wilson 95 %, each seat-deal one
        trial; n is the number of seat-deals in the group).
    """
    if isinstance(max_draws, bool) or not isinstance(max_draws, int | np.integer) or max_draws < 0:
        raise ValueError(f"ready_probability: max_draws must be a whole number >= 0, not {max_draws!r}")
    keys = _with_variant(df, _parse_by(by, ["role"], GROUP_KEYS, "ready_probability"))
    need = ["dealer", *_seat_cols("ready_turn")]
    if "strategy" in keys:
        need += _seat_cols("strategy")
    _require(df, need, "ready_probability")
    long = _seat_long(df, ["ready_turn"] + (["strategy"] if "strategy" in keys else []))
    rows = []
    ks = np.arange(max_draws + 1)
    for key, g in _grouped(long, keys):
        turns = g["ready_turn"].to_numpy().astype(np.int64)
        turns = turns[(turns >= 0) & (turns <= max_draws)]
        ready = np.cumsum(np.bincount(turns, minlength=max_draws + 1))
        n = np.full(len(ks), len(g))
        lo, hi = wilson_interval(ready, n)
        part = pd.DataFrame({"k": ks, "n": n, "ready": ready, "p": ready / n, "lo": lo, "hi": hi})
        for name, value in zip(keys, key, strict=True):
            part.insert(keys.index(name), name, value)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


def wait_kind_frequencies(
    df: pd.DataFrame, at: str = "ready", by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """Shares of the wait kinds (kanchan, edge, single, dual_pair, two_sided).

    Parameters
    ----------
    df : DataFrame
        Results frame.
    at : {"ready", "win"}
        ``"ready"``: the declared wait of every seat that declared ready
        (``ready_wait_s``); ``"win"``: the wait kind of every win (``wait_kind``).
    by : str or list of str, optional
        ``"role"``, ``"seat"``, ``"strategy"`` (of the ready seat / of the winner) or
        ``"variant"``; default pooled (but always split by variant when present).

    Returns
    -------
    DataFrame
        Group columns, then ``wait_kind, count, n, share, lo, hi`` (Wilson 95 %); every
        kind appears, with count 0 when absent.
    """
    if at not in ("ready", "win"):
        raise ValueError(f"wait_kind_frequencies: at must be 'ready' or 'win', not {at!r}")
    keys = _with_variant(df, _parse_by(by, [], GROUP_KEYS, "wait_kind_frequencies"))
    extra = ["strategy"] if "strategy" in keys else []
    need = ["dealer"] + [c for f in extra for c in _seat_cols(f)]
    if at == "ready":
        need += _seat_cols("ready_turn") + _seat_cols("ready_wait")
        _require(df, need, "wait_kind_frequencies")
        long = _seat_long(df, ["ready_turn", "ready_wait", *extra])
        long = long[long["ready_turn"].to_numpy() >= 0]
        kind = long["ready_wait"].astype(str)
    else:
        need += ["winner", "wait_kind"]
        _require(df, need, "wait_kind_frequencies")
        long = _seat_long(df, extra)
        winner = np.tile(df["winner"].to_numpy(), 4)
        long = long[long["seat"].to_numpy() == winner]
        kind = df["wait_kind"].astype(str).to_numpy()[long["row"].to_numpy()]
        kind = pd.Series(kind, index=long.index)
    long = long.assign(wait_kind=kind)
    rows = []
    inner = [k for k in keys if k != "variant"]
    groups = []
    for v in _variants(df):
        sub = long if v is None else long[long["variant"] == v]
        head = () if v is None else (v,)
        found = [(head + key, g) for key, g in _grouped(sub, inner)] if len(sub) else []
        # nobody ready / no win in this variant: still report the kinds, with zero counts
        groups += found or [(head + (np.nan,) * len(inner), sub)]
    for key, g in groups:
        counts = g["wait_kind"].value_counts()
        cnt = np.array([int(counts.get(k, 0)) for k in WAIT_KINDS])
        n = np.full(len(WAIT_KINDS), len(g))
        lo, hi = wilson_interval(cnt, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = cnt / n
        part = pd.DataFrame(
            {"wait_kind": list(WAIT_KINDS), "count": cnt, "n": n, "share": share, "lo": lo, "hi": hi}
        )
        for i, (name, value) in enumerate(zip(keys, key, strict=True)):
            part.insert(i, name, value)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


def wait_kind_outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """What each declared wait kind brings: win rate, live outs and mean payment of the seat.

    For every seat-deal where the seat declared ready, grouped by its declared wait
    kind (``ready_wait_s``): how often that seat went on to win (Wilson 95 %), its mean
    live outs at declaration, and its mean payment in the deal (percentile bootstrap
    over deals, 999 resamples, seed 0).

    Returns
    -------
    DataFrame
        ``[variant,] wait_kind, n, wins, win_rate, lo, hi, mean_outs, mean_pay, pay_lo, pay_hi``.
    """
    need = ["winner"] + _seat_cols("ready_turn") + _seat_cols("ready_wait") + _seat_cols("pay")
    _require(df, need, "wait_kind_outcomes")
    rows = []
    for v, g in _by_variant(df):
        ready = _seat_matrix(g, "ready_turn") >= 0
        kind = np.column_stack([g[c].astype(str).to_numpy() for c in _seat_cols("ready_wait")])
        won = np.array(SEATS)[None, :] == g["winner"].to_numpy()[:, None]
        pay = _seat_matrix(g, "pay").astype(float)
        outs = _seat_matrix(g, "ready_outs").astype(float) if "ready_outs_0" in g.columns else None
        masks = [ready & (kind == k) for k in WAIT_KINDS]
        S = np.column_stack([(pay * m).sum(1) for m in masks])
        C = np.column_stack([m.sum(1) for m in masks]).astype(float)
        est, plo, phi = bootstrap_ratio(S, C)
        for j, k in enumerate(WAIT_KINDS):
            m = masks[j]
            n, wins = int(m.sum()), int((m & won).sum())
            lo, hi = wilson_interval(wins, n)
            row = {
                "wait_kind": k,
                "n": n,
                "wins": wins,
                "win_rate": wins / n if n else np.nan,
                "lo": float(lo),
                "hi": float(hi),
                "mean_outs": float(outs[m].mean()) if outs is not None and n else np.nan,
                "mean_pay": est[j],
                "pay_lo": plo[j],
                "pay_hi": phi[j],
            }
            rows.append(({"variant": v} if v is not None else {}) | row)
    return _ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- outcomes and bao


def _proportion_table(
    df: pd.DataFrame, labels: Callable[[pd.DataFrame], np.ndarray], cats: Sequence[str], name: str
) -> pd.DataFrame:
    """Per variant, count and Wilson interval of each category of ``labels(g)`` (None = excluded)."""
    rows = []
    for v, g in _by_variant(df):
        lab = labels(g)
        n = int(np.sum(lab != None))  # noqa: E711 -- elementwise on an object array
        cnt = np.array([int(np.sum(lab == c)) for c in cats])
        lo, hi = wilson_interval(cnt, np.full(len(cats), n))
        with np.errstate(invalid="ignore", divide="ignore"):
            share = cnt / n
        part = pd.DataFrame({name: list(cats), "count": cnt, "n": n, "share": share, "lo": lo, "hi": hi})
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


def outcome_shares(df: pd.DataFrame) -> pd.DataFrame:
    """Share of deals ending in each outcome (self_draw, deal_in, deal_in_not_ready, exhaustive_draw).

    Returns
    -------
    DataFrame
        ``[variant,] outcome, count, n, share, lo, hi`` (Wilson 95 %).
    """
    _require(df, ["outcome"], "outcome_shares")
    return _proportion_table(df, lambda g: _outcome(g).astype(object), OUTCOMES, "outcome")


def bao_shares(df: pd.DataFrame) -> pd.DataFrame:
    """Bao kinds (none, 摸宝 bao, 宝边 bao_edge, 宝中宝 bao_in_bao) among wins and per deal.

    Returns
    -------
    DataFrame
        ``[variant,] bao, count, wins, deals, share_of_wins, lo, hi, share_of_deals,
        deals_lo, deals_hi`` (Wilson 95 %).
    """
    _require(df, ["outcome", "bao"], "bao_shares")

    def among(g: pd.DataFrame, wins_only: bool) -> np.ndarray:
        bao = g["bao"].astype(str).to_numpy().astype(object)
        win = _outcome(g) != "exhaustive_draw"
        return np.where(win, bao, None if wins_only else "no_win")

    wins = _proportion_table(df, lambda g: among(g, True), BAO_KINDS, "bao")
    deals = _proportion_table(df, lambda g: among(g, False), BAO_KINDS, "bao")
    out = wins.rename(columns={"n": "wins", "share": "share_of_wins"})
    out.insert(out.columns.get_loc("wins") + 1, "deals", deals["n"].to_numpy())
    out["share_of_deals"] = deals["share"].to_numpy()
    out["deals_lo"] = deals["lo"].to_numpy()
    out["deals_hi"] = deals["hi"].to_numpy()
    return out


# --------------------------------------------------------------------------- fans and payments


def fan_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Distribution of N (a loser owes 2^N) over every loser entry ``fans_s >= 0``.

    Returns
    -------
    DataFrame
        ``[variant,] N, count, share`` for N = 0 .. the largest N seen.
    """
    _require(df, _seat_cols("fans"), "fan_distribution")
    rows = []
    for v, g in _by_variant(df):
        f = _seat_matrix(g, "fans").astype(np.int64).ravel()
        f = f[f >= 0]
        cnt = np.bincount(f, minlength=1)
        part = pd.DataFrame({"N": np.arange(len(cnt)), "count": cnt})
        part["share"] = cnt / cnt.sum() if cnt.sum() else np.nan
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


def payment_distribution(df: pd.DataFrame, who: str = "payer") -> pd.DataFrame:
    """Distribution of 2^N payment amounts.

    Parameters
    ----------
    who : {"payer", "winner"}
        ``"payer"``: each amount a seat actually paid in a deal (``-pay_s`` where
        ``pay_s < 0``; a 点黑炮 discarder pays the three amounts as one payment);
        ``"winner"``: what the winner received.

    Returns
    -------
    DataFrame
        ``[variant,] amount, count, share, at_least`` (``at_least`` = share of amounts
        >= this amount, the tail).
    """
    if who not in ("payer", "winner"):
        raise ValueError(f"payment_distribution: who must be 'payer' or 'winner', not {who!r}")
    _require(df, _seat_cols("pay"), "payment_distribution")
    rows = []
    for v, g in _by_variant(df):
        pay = _seat_matrix(g, "pay").astype(np.int64)
        amounts = -pay[pay < 0] if who == "payer" else pay[pay > 0]
        vals, cnt = np.unique(amounts, return_counts=True)
        part = pd.DataFrame({"amount": vals, "count": cnt})
        total = cnt.sum()
        part["share"] = cnt / total if total else np.nan
        part["at_least"] = np.cumsum(cnt[::-1])[::-1] / total if total else np.nan
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


def tail_probability(df: pd.DataFrame, threshold: int = 64) -> pd.DataFrame:
    """P(some seat pays at least ``threshold`` in a deal), per variant, Wilson 95 %.

    Returns
    -------
    DataFrame
        ``[variant,] threshold, count, n, p, lo, hi``.
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int | np.integer | float) or threshold <= 0:
        raise ValueError(f"tail_probability: threshold must be a positive amount, not {threshold!r}")
    _require(df, _seat_cols("pay"), "tail_probability")
    rows = []
    for v, g in _by_variant(df):
        hit = (-_seat_matrix(g, "pay")).max(axis=1) >= threshold
        k, n = int(hit.sum()), len(hit)
        lo, hi = wilson_interval(k, n)
        row = {"threshold": threshold, "count": k, "n": n, "p": k / n, "lo": float(lo), "hi": float(hi)}
        rows.append(({"variant": v} if v is not None else {}) | row)
    return _ordered(pd.DataFrame(rows), df)


def _role_masks(g: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per role, a (deals, 4) boolean matrix: seat s had that role in the deal."""
    seats = np.array(SEATS)[None, :]
    dealer = g["dealer"].to_numpy()[:, None]
    winner = g["winner"].to_numpy()[:, None]
    discarder = g["discarder"].to_numpy()[:, None]
    outcome = _outcome(g)[:, None]
    won = winner >= 0
    is_winner = seats == winner
    is_discarder = (seats == discarder) & (discarder >= 0)
    return {
        "dealer": np.broadcast_to(seats == dealer, (len(g), 4)),
        "non_dealer": np.broadcast_to(seats != dealer, (len(g), 4)),
        "winner": is_winner,
        "discarder": is_discarder,
        "discarder_ready": is_discarder & (outcome == "deal_in"),
        "discarder_not_ready": is_discarder & (outcome == "deal_in_not_ready"),
        "other_loser": won & ~is_winner & ~is_discarder,
    }


def expected_payment(df: pd.DataFrame, by: str = "seat", contrast_to: object | None = None) -> pd.DataFrame:
    """Expected payment (2^N units, winner positive) per seat or per role, 95 % bootstrap CI.

    The interval is a nonparametric **percentile bootstrap** (999 resamples, seed 0)
    that resamples whole deals, so the heavy 2^N tail and the dependence between the
    seats of a deal are both respected; above 20 000 deals, blocks of consecutive deals
    are resampled.

    Parameters
    ----------
    by : {"seat", "role"}
        ``"seat"``: mean ``pay_s`` per seat over all deals. ``"role"``: mean payment of a
        seat given its role in the deal: dealer, non_dealer, winner, discarder (dealt
        in, ready or not), discarder_ready (点炮), discarder_not_ready (点黑炮, pays for
        all), other_loser (neither winner nor discarder in a deal with a win: pays its
        own amount on 自摸 and 点炮, nothing on 点黑炮). Roles overlap (a dealer may win).
    contrast_to : seat or role, optional
        Also report ``diff, diff_lo, diff_hi``: each mean minus this one's, bootstrapped
        jointly over the same deals (e.g. the cost of 点黑炮 with
        ``by="role", contrast_to="discarder_ready"``).

    Returns
    -------
    DataFrame
        ``[variant,] seat|role, n, mean, lo, hi[, diff, diff_lo, diff_hi]``
        (n = seat-deals in the group).
    """
    if by not in ("seat", "role"):
        raise ValueError(f"expected_payment: by must be 'seat' or 'role', not {by!r}")
    labels = list(SEATS) if by == "seat" else list(ROLES)
    if contrast_to is not None and contrast_to not in labels:
        raise ValueError(
            f"expected_payment: cannot contrast to {contrast_to!r}; use one of {', '.join(map(str, labels))}"
        )
    need = _seat_cols("pay") + (["dealer", "winner", "discarder", "outcome"] if by == "role" else [])
    _require(df, need, "expected_payment")
    rows = []
    for v, g in _by_variant(df):
        pay = _seat_matrix(g, "pay").astype(float)
        if by == "seat":
            S, C = pay, np.ones_like(pay)
        else:
            masks = _role_masks(g)
            S = np.column_stack([(pay * masks[r]).sum(1) for r in ROLES])
            C = np.column_stack([masks[r].sum(1) for r in ROLES]).astype(float)
        est, lo, hi = bootstrap_ratio(S, C)
        part = pd.DataFrame({by: labels, "n": C.sum(0).astype(np.int64), "mean": est, "lo": lo, "hi": hi})
        if contrast_to is not None:
            diff = bootstrap_ratio(S, C, contrast_to=labels.index(contrast_to))
            part["diff"], part["diff_lo"], part["diff_hi"] = diff
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return _ordered(pd.concat(rows, ignore_index=True), df)


# --------------------------------------------------------------------------- paired variants

_METRIC_DOC = """win, exhaustive_draw, self_draw, deal_in, deal_in_not_ready, big_win, bao_draw,
bao_edge, bao_in_bao, any_bao, dealer_pay, winner_gain, max_pay, pays_64, any_ready, ready_share,
or any numeric/bool column (e.g. pay_0, draws, bao_replacements)"""


def deal_metric(df: pd.DataFrame, metric: str | Callable[[pd.DataFrame], object]) -> np.ndarray:
    (
        """A per-deal number for paired comparisons.

    Parameters
    ----------
    metric : str or callable
        A name ("""
        + _METRIC_DOC
        + """), or a function of the frame returning one
        number per deal. ``winner_gain`` is what the winner receives (0 without a
        win); ``max_pay`` is the largest single payment in the deal; ``pays_64`` is 1
        when someone pays at least 64; ``ready_share`` is the fraction of the four
        seats that declared ready (its paired difference is the change in the per-seat
        ready probability).

    Returns
    -------
    ndarray of float, one per row.
    """
    )
    if callable(metric):
        values = np.asarray(metric(df), dtype=float)
        if values.shape != (len(df),):
            raise ValueError(f"deal_metric: the metric function must return {len(df)} values, one per deal")
        return values
    if not isinstance(metric, str):
        raise ValueError(f"deal_metric: metric must be a name or a function, not {metric!r}")
    if metric in OUTCOMES:
        return (_outcome(_require(df, ["outcome"], "deal_metric")) == metric).astype(float)
    if metric == "win":
        return (_outcome(_require(df, ["outcome"], "deal_metric")) != "exhaustive_draw").astype(float)
    if metric == "big_win":
        _require(df, ["outcome", "big"], "deal_metric")
        return ((_outcome(df) != "exhaustive_draw") & df["big"].to_numpy(dtype=bool)).astype(float)
    if metric in ("bao_draw", "bao_edge", "bao_in_bao", "any_bao"):
        bao = _require(df, ["bao"], "deal_metric")["bao"].astype(str).to_numpy()
        if metric == "any_bao":
            return np.isin(bao, BAO_KINDS[1:]).astype(float)
        return (bao == ("bao" if metric == "bao_draw" else metric)).astype(float)
    if metric == "dealer_pay":
        _require(df, ["dealer", *_seat_cols("pay")], "deal_metric")
        return _seat_matrix(df, "pay")[np.arange(len(df)), df["dealer"].to_numpy().astype(np.int64)].astype(
            float
        )
    if metric in ("max_pay", "pays_64"):
        _require(df, _seat_cols("pay"), "deal_metric")
        m = np.maximum((-_seat_matrix(df, "pay")).max(axis=1), 0).astype(float)
        return m if metric == "max_pay" else (m >= 64).astype(float)
    if metric == "winner_gain":
        _require(df, _seat_cols("pay"), "deal_metric")
        return np.maximum(_seat_matrix(df, "pay").max(axis=1), 0).astype(float)
    if metric in ("any_ready", "ready_share"):
        _require(df, _seat_cols("ready_turn"), "deal_metric")
        ready = _seat_matrix(df, "ready_turn") >= 0
        return (ready.any(axis=1) if metric == "any_ready" else ready.mean(axis=1)).astype(float)
    if metric in df.columns and (
        pd.api.types.is_numeric_dtype(df[metric]) or pd.api.types.is_bool_dtype(df[metric])
    ):
        return df[metric].to_numpy(dtype=float)
    raise ValueError(f"unknown metric {metric!r}; use one of {' '.join(_METRIC_DOC.split())}")


def _deal_keys(df: pd.DataFrame) -> list[str]:
    return ["seed", "deal"] if "seed" in df.columns else ["deal"]


def paired_difference(
    df: pd.DataFrame,
    metric: str | Callable[[pd.DataFrame], object] | Sequence[str],
    baseline_variant: object | None = None,
) -> pd.DataFrame:
    """Per-deal paired differences ``metric(variant) - metric(baseline)`` on the same walls.

    Deals are matched on ``deal`` (and ``seed`` when present); the interval is the
    percentile bootstrap over the matched deals (999 resamples, seed 0).

    Parameters
    ----------
    df : DataFrame
        Results of several variants (``variant`` column) run on the same walls.
    metric : str, callable or list of str
        See :func:`deal_metric`.
    baseline_variant : optional
        The variant subtracted; default the first variant.

    Returns
    -------
    DataFrame
        ``metric, variant, baseline, n_pairs, baseline_mean, variant_mean, diff, lo, hi``.
    """
    _require(df, ["variant", "deal"], "paired_difference")
    variants = _variants(df)
    if baseline_variant is None:
        baseline_variant = variants[0]
    elif baseline_variant not in variants:
        raise ValueError(
            f"paired_difference: baseline variant {baseline_variant!r} is not in the frame; "
            f"variants: {', '.join(map(str, variants))}"
        )
    metrics = [metric] if isinstance(metric, str) or callable(metric) else list(metric)
    keys = _deal_keys(df)
    base = df[df["variant"] == baseline_variant]
    if base.duplicated(keys).any():
        raise ValueError(
            f"paired_difference: deal ids repeat within variant {baseline_variant!r}; cannot pair"
        )
    base_vals = np.column_stack([deal_metric(base, m) for m in metrics])
    base_idx = pd.MultiIndex.from_frame(base[keys]) if len(keys) > 1 else pd.Index(base["deal"])
    rows = []
    for v in variants:
        if v == baseline_variant:
            continue
        g = df[df["variant"] == v]
        vals = np.column_stack([deal_metric(g, m) for m in metrics])
        g_idx = pd.MultiIndex.from_frame(g[keys]) if len(keys) > 1 else pd.Index(g["deal"])
        pos = base_idx.get_indexer(g_idx)
        ok = pos >= 0
        d = vals[ok] - base_vals[pos[ok]]
        est, lo, hi = bootstrap_ratio(d)
        for j, m in enumerate(metrics):
            rows.append(
                {
                    "metric": m if isinstance(m, str) else getattr(m, "__name__", "metric"),
                    "variant": v,
                    "baseline": baseline_variant,
                    "n_pairs": int(ok.sum()),
                    "baseline_mean": float(base_vals[pos[ok], j].mean()) if ok.any() else np.nan,
                    "variant_mean": float(vals[ok, j].mean()) if ok.any() else np.nan,
                    "diff": est[j],
                    "lo": lo[j],
                    "hi": hi[j],
                }
            )
    cols = ["metric", "variant", "baseline", "n_pairs", "baseline_mean", "variant_mean", "diff", "lo", "hi"]
    return _ordered(pd.DataFrame(rows, columns=cols), df)


# --------------------------------------------------------------------------- strategies


def strategy_results(
    df: pd.DataFrame, pool_variants: bool = True, baseline_strategy: str | None = None
) -> pd.DataFrame:
    """Per strategy (seats mapped via strategy_0..3): mean payment, contrast and rates.

    Meant for seat-rotated tournaments (experiments/strategies.toml), where the
    variants rotate the strategies over the seats on the same walls: pooled over the
    variants, every strategy plays every seat of every deal once, so seat and dealer
    advantages cancel.

    Intervals: mean payment and the paired contrast ``mean_pay - mean_pay(baseline)``
    use the percentile bootstrap (999, seed 0) resampling deal ids, so the rotations
    of one wall move together; rates use Wilson 95 % over seat-deals.

    Parameters
    ----------
    pool_variants : bool
        Pool all variants (default, for rotations); False reports each variant.
    baseline_strategy : str, optional
        Strategy the contrast is taken against (default ``"greedy"`` when present,
        else the first name).

    Returns
    -------
    DataFrame
        ``[variant,] strategy, n, mean_pay, lo, hi, diff, diff_lo, diff_hi, win_rate,
        win_lo, win_hi, deal_in_rate, deal_in_lo, deal_in_hi, ready_rate``.
    """
    need = _seat_cols("pay") + _seat_cols("strategy") + ["deal", "winner", "discarder"]
    _require(df, need, "strategy_results")
    all_names = sorted(set(np.concatenate([df[c].astype(str).unique() for c in _seat_cols("strategy")])))
    if baseline_strategy is None:
        baseline_strategy = "greedy" if "greedy" in all_names else all_names[0]
    elif baseline_strategy not in all_names:
        raise ValueError(
            f"strategy_results: baseline strategy {baseline_strategy!r} never plays; "
            f"strategies: {', '.join(all_names)}"
        )
    parts = [(None, df)] if pool_variants else list(_by_variant(df))
    rows = []
    for v, g in parts:
        strat = np.column_stack([g[c].astype(str).to_numpy() for c in _seat_cols("strategy")])
        names = [s for s in all_names if (strat == s).any()]
        pay = _seat_matrix(g, "pay").astype(float)
        seats = np.array(SEATS)[None, :]
        discarder = g["discarder"].to_numpy()[:, None]
        is_win = seats == g["winner"].to_numpy()[:, None]
        is_disc = (seats == discarder) & (discarder >= 0)
        ready = _seat_matrix(g, "ready_turn") >= 0 if "ready_turn_0" in g.columns else None
        masks = [strat == s for s in names]
        sums = pd.DataFrame(np.column_stack([(pay * m).sum(1) for m in masks] + [m.sum(1) for m in masks]))
        keys = [g[k].to_numpy() for k in _deal_keys(g)]
        per_deal = sums.groupby(keys, sort=True).sum().to_numpy()  # one row per wall
        S, C = per_deal[:, : len(names)], per_deal[:, len(names) :]
        est, lo, hi = bootstrap_ratio(S, C)
        base = names.index(baseline_strategy) if baseline_strategy in names else None
        if base is not None:
            dif, dlo_, dhi_ = bootstrap_ratio(S, C, contrast_to=base)
        else:
            dif = dlo_ = dhi_ = np.full(len(names), np.nan)
        for j, s in enumerate(names):
            m = masks[j]
            n = int(m.sum())
            wins, dis = int((is_win & m).sum()), int((is_disc & m).sum())
            wlo, whi = wilson_interval(wins, n)
            dlo, dhi = wilson_interval(dis, n)
            row = {
                "strategy": s,
                "n": n,
                "mean_pay": est[j],
                "lo": lo[j],
                "hi": hi[j],
                "diff": dif[j],
                "diff_lo": dlo_[j],
                "diff_hi": dhi_[j],
                "win_rate": wins / n,
                "win_lo": float(wlo),
                "win_hi": float(whi),
                "deal_in_rate": dis / n,
                "deal_in_lo": float(dlo),
                "deal_in_hi": float(dhi),
                "ready_rate": float((ready & m).sum() / n) if ready is not None else np.nan,
            }
            rows.append(({"variant": v} if v is not None else {}) | row)
    return _ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- summary


def summarize(df: pd.DataFrame, baseline: object | None = None) -> pd.DataFrame:
    """One row per variant: the headline statistics of a run.

    Columns: ``variant, deals``; ``rate_<outcome>`` per outcome and ``win_rate``, each
    with ``_lo/_hi`` (Wilson 95 %); ``big_share`` (夹 among wins) and
    ``bao_share_<bao|bao_edge|bao_in_bao>`` (among wins) with intervals;
    ``ready_dealer_k<k>`` / ``ready_other_k<k>`` for k in 3, 6, 9, 12 (P(ready by own
    k-th draw)); ``wait_ready_<kind>`` and ``wait_win_<kind>`` shares; ``pay_mean_<s>``
    with ``pay_lo_<s>/pay_hi_<s>`` per seat (percentile bootstrap over deals, see
    ``pay_ci_method``); ``diff_<metric>`` with ``_lo/_hi``: paired difference to the
    baseline variant (default the first) for win, exhaustive_draw, big_win, bao_draw,
    dealer_pay and max_pay (bootstrap over paired deals; NaN for the baseline itself).

    Parameters
    ----------
    df : DataFrame
        Results frame, with or without a ``variant`` column.
    baseline : optional
        Variant the paired differences are taken against.
    """
    need = ["deal", "outcome", "big", "bao", "wait_kind", "dealer", "winner"]
    need += _seat_cols("pay") + _seat_cols("ready_turn") + _seat_cols("ready_wait")
    _require(df, need, "summarize")
    variants = _variants(df)
    baseline = baseline if baseline not in ("", None) else None
    if baseline is not None and baseline not in variants:
        raise ValueError(
            f"summarize: baseline variant {baseline!r} is not in the frame; "
            f"variants: {', '.join(map(str, variants))}"
        )
    ready = ready_probability(df, by="role", max_draws=max(SUMMARY_KS))
    wr = wait_kind_frequencies(df, at="ready")
    ww = wait_kind_frequencies(df, at="win")
    pay = expected_payment(df, by="seat")
    diffs = None
    if len(variants) > 1:
        diffs = paired_difference(df, list(SUMMARY_DIFF_METRICS), baseline)
    rows = []
    for v, g in _by_variant(df):

        def sel(t: pd.DataFrame, v=v) -> pd.DataFrame:
            return t if v is None else t[t["variant"] == v]

        n = len(g)
        outcome = _outcome(g)
        win = outcome != "exhaustive_draw"
        row: dict[str, object] = {"variant": "all" if v is None else v, "deals": n}

        def add_prop(name, k, total, row=row):
            lo, hi = wilson_interval(k, total)
            row[name] = k / total if total else np.nan
            row[f"{name}_lo"], row[f"{name}_hi"] = float(lo), float(hi)

        for o in OUTCOMES:
            add_prop(f"rate_{o}", int((outcome == o).sum()), n)
        add_prop("win_rate", int(win.sum()), n)
        n_win = int(win.sum())
        add_prop("big_share", int((win & g["big"].to_numpy(dtype=bool)).sum()), n_win)
        bao = g["bao"].astype(str).to_numpy()
        for b in BAO_KINDS[1:]:
            add_prop(f"bao_share_{b}", int((win & (bao == b)).sum()), n_win)
        r = sel(ready)
        for k in SUMMARY_KS:
            for role, label in (("dealer", "dealer"), ("non_dealer", "other")):
                hit = r[(r["role"] == role) & (r["k"] == k)]["p"]
                row[f"ready_{label}_k{k}"] = float(hit.iloc[0]) if len(hit) else np.nan
        for prefix, table in (("wait_ready", sel(wr)), ("wait_win", sel(ww))):
            for kind, share in zip(table["wait_kind"], table["share"], strict=True):
                row[f"{prefix}_{kind}"] = share
        p = sel(pay)
        for s, m, lo, hi in zip(p["seat"], p["mean"], p["lo"], p["hi"], strict=True):
            row[f"pay_mean_{s}"], row[f"pay_lo_{s}"], row[f"pay_hi_{s}"] = m, lo, hi
        row["pay_ci_method"] = BOOTSTRAP_METHOD
        if diffs is not None:
            d = diffs[diffs["variant"] == v]
            for m in SUMMARY_DIFF_METRICS:
                hit = d[d["metric"] == m]
                for col, suffix in (("diff", ""), ("lo", "_lo"), ("hi", "_hi")):
                    row[f"diff_{m}{suffix}"] = float(hit[col].iloc[0]) if len(hit) else np.nan
        rows.append(row)
    return _ordered(pd.DataFrame(rows), df)


def write_summary(
    df: pd.DataFrame, outdir: str | os.PathLike, baseline: object | None = None
) -> pd.DataFrame:
    """Write ``summary.csv`` and PNG plots into ``outdir`` atomically; return the summary.

    Files: ``summary.csv`` (see :func:`summarize`), ``ready_probability.png``,
    ``wait_kinds.png``, ``payments.png``; each is written to a temporary file in
    ``outdir`` and moved into place with :func:`os.replace`, so readers never see a
    half-written file.
    """
    outdir = Path(outdir)
    if outdir.exists() and not outdir.is_dir():
        raise ValueError(f"write_summary: {outdir} exists and is not a directory; pass a folder path")
    table = summarize(df, baseline=baseline)
    outdir.mkdir(parents=True, exist_ok=True)
    atomic_write(outdir / "summary.csv", lambda p: table.to_csv(p, index=False))
    figures = {
        "ready_probability.png": plot_ready_probability(df),
        "wait_kinds.png": plot_wait_kinds(df),
        "payments.png": plot_payment_distribution(df),
    }
    for name, fig in figures.items():
        atomic_write(outdir / name, lambda p, fig=fig: fig.savefig(p, format="png", dpi=100))
    return table


def format_ci(estimate: float, lo: float, hi: float, percent: bool = False, digits: int | None = None) -> str:
    """``"12.3% (95% CI 11.0 to 13.6%)"`` or ``"1.23 (95% CI 0.98 to 1.51)"`` for prose.

    By default the decimals follow the interval's width, so that a narrow interval (a
    paired difference of 0.04 between 0.02 and 0.06) is not printed as "0.0 to 0.1".

    >>> format_ci(0.1234, 0.11, 0.136, percent=True)
    '12.3% (95% CI 11.0 to 13.6%)'
    >>> format_ci(0.043, 0.021, 0.064)
    '0.043 (95% CI 0.021 to 0.064)'
    """
    scale = 100 if percent else 1
    if digits is None:
        width = abs(hi - lo) * scale
        digits = 1
        if np.isfinite(width) and 0 < width < 1:
            digits = min(3, int(np.ceil(-np.log10(width))) + 1)
    if percent:
        return f"{100 * estimate:.{digits}f}% (95% CI {100 * lo:.{digits}f} to {100 * hi:.{digits}f}%)"
    return f"{estimate:.{digits}f} (95% CI {lo:.{digits}f} to {hi:.{digits}f})"


# --------------------------------------------------------------------------- plots


def _label(key: tuple, names: Sequence[str]) -> str:
    return ", ".join(str(k) for k in key) if key else "all"


def plot_ready_probability(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, max_draws: int = 16
) -> Figure:
    """Ready-probability curves P(ready by own draw k) with Wilson 95 % bands.

    Returns
    -------
    matplotlib.figure.Figure
    """
    table = ready_probability(df, by=by, max_draws=max_draws)
    keys = [c for c in table.columns if c in GROUP_KEYS]
    # several variants (or strategies...): one panel per role keeps the curves readable
    others = [k for k in keys if k != "role"]
    several = "role" in keys and others and len(table[others].drop_duplicates()) > 1
    panel_key = "role" if several else None
    panels = list(_grouped(table, [panel_key])) if panel_key else [((), table)]
    line_keys = [k for k in keys if k != panel_key]
    fig = Figure(figsize=(6.5 * len(panels), 4.5))
    for i, (panel, sub) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        for key, g in _grouped(sub, line_keys):
            line = ax.plot(g["k"], g["p"], marker=".", label=_label(key, line_keys))[0]
            ax.fill_between(g["k"], g["lo"], g["hi"], color=line.get_color(), alpha=0.2)
        ax.set_xlabel("own draws k")
        ax.set_ylabel("P(declared ready by draw k)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
        ax.set_title("ready probability" + (f": {panel[0]}" if panel else "") + " (95% Wilson bands)")
    fig.tight_layout()
    return fig


def _bar_groups(ax, table: pd.DataFrame, cat: str, value: str = "share") -> None:
    keys = [c for c in table.columns if c in GROUP_KEYS]
    groups = list(_grouped(table, keys))
    cats = list(dict.fromkeys(table[cat]))
    width = 0.8 / max(1, len(groups))
    x = np.arange(len(cats))
    for i, (key, g) in enumerate(groups):
        g = g.set_index(cat).reindex(cats)
        err = np.vstack([g[value] - g["lo"], g["hi"] - g[value]]).clip(min=0)
        ax.bar(x + i * width - 0.4 + width / 2, g[value], width, yerr=err, capsize=2, label=_label(key, keys))
    ax.set_xticks(x, cats, rotation=20)
    ax.grid(axis="y", alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize="small")


def plot_wait_kinds(df: pd.DataFrame) -> Figure:
    """Wait-kind shares at ready and at win (bars with Wilson 95 % error bars)."""
    fig = Figure(figsize=(10, 4))
    for i, at in enumerate(("ready", "win")):
        ax = fig.add_subplot(1, 2, i + 1)
        _bar_groups(ax, wait_kind_frequencies(df, at=at), "wait_kind")
        ax.set_title(f"wait kinds at {at}")
        ax.set_ylabel("share")
    fig.tight_layout()
    return fig


def plot_payment_distribution(df: pd.DataFrame) -> Figure:
    """Fan count N and payment amounts (log scale) per variant."""
    fig = Figure(figsize=(10, 4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    fans = fan_distribution(df)
    pays = payment_distribution(df)
    for v in _variants(df):
        g = fans if v is None else fans[fans["variant"] == v]
        p = pays if v is None else pays[pays["variant"] == v]
        label = "all" if v is None else str(v)
        ax1.plot(g["N"], g["share"], marker="o", label=label)
        ax2.step(p["amount"], p["at_least"], where="post", label=label)
    ax1.set_xlabel("N (a loser owes 2^N)")
    ax1.set_ylabel("share of loser entries")
    ax1.set_title("fan distribution")
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.set_xlabel("amount paid by one seat")
    ax2.set_ylabel("P(amount >= x)")
    ax2.set_title("payment tail")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def plot_expected_payment(df: pd.DataFrame, by: str = "seat") -> Figure:
    """Expected payment per seat or role with bootstrap 95 % error bars."""
    table = expected_payment(df, by=by)
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    _bar_groups(ax, table.assign(**{by: table[by].astype(str)}), by, value="mean")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_ylabel("mean payment (2^N units)")
    ax.set_title(f"expected payment per {by} (bootstrap 95% CI)")
    fig.tight_layout()
    return fig


def plot_paired_difference(table: pd.DataFrame) -> Figure:
    """Forest plot of a :func:`paired_difference` table (diff with 95 % interval)."""
    _require(table, ["metric", "variant", "diff", "lo", "hi"], "plot_paired_difference")
    table = table.assign(metric=table["metric"].astype(str)).sort_values("metric", kind="stable")
    fig = Figure(figsize=(7, 0.4 * len(table) + 1.5))
    ax = fig.add_subplot()
    y = np.arange(len(table))[::-1]
    for metric in dict.fromkeys(table["metric"]):
        sel = (table["metric"] == metric).to_numpy()
        t = table[sel]
        err = np.vstack([t["diff"] - t["lo"], t["hi"] - t["diff"]]).clip(min=0)
        ax.errorbar(t["diff"], y[sel], xerr=err, fmt="o", capsize=3, label=metric)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y, [f"{m}: {v}" for m, v in zip(table["metric"], table["variant"], strict=True)])
    ax.set_xlabel("paired difference to baseline (95% bootstrap CI)")
    ax.legend(fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def plot_strategy_results(df: pd.DataFrame) -> Figure:
    """Mean payment per strategy with bootstrap 95 % error bars."""
    table = strategy_results(df).rename(columns={"mean_pay": "mean"})
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    _bar_groups(ax, table, "strategy", value="mean")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_ylabel("mean payment per seat-deal")
    ax.set_title("strategy tournament (bootstrap 95% CI)")
    fig.tight_layout()
    return fig
