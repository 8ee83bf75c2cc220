"""Estimators on results frames (one row per deal, docs/DESIGN.md): ready, waits, outcomes, money, risk.

Every function takes the frame returned by :func:`daqing_sim.game.simulate.simulate` or
:func:`daqing_sim.experiments.results.load_results` and returns a small tidy DataFrame
with an interval on every estimate (:mod:`daqing_sim.analysis.intervals`). Frames that
carry a ``variant`` column are always split by variant, in the order of its categories
(drop the column to pool variants, e.g. the seat rotations of a strategy tournament).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from daqing_sim.analysis._frame import (
    GROUP_KEYS,
    by_variant,
    deal_keys,
    family_name,
    frame_families,
    frame_seats,
    grouped,
    insert_keys,
    one_table,
    ordered,
    outcome,
    parse_by,
    require,
    seat_cols,
    seat_long,
    seat_matrix,
    text,
    variants,
    with_variant,
)
from daqing_sim.analysis.intervals import (
    CONFIDENCE,
    bootstrap_deals,
    bootstrap_ratio,
    familywise_confidence,
    kaplan_meier,
    quantile_intervals,
    wilson_interval,
)
from daqing_sim.codes import BAO_KINDS, OUTCOMES, WAIT_KINDS

__all__ = [
    "OUTCOMES",
    "BAO_KINDS",
    "ROLES",
    "TWO_PLAYER_ROLES",
    "ESTIMANDS",
    "WAIT_CLASSES",
    "RISK_STATISTICS",
    "ready_probability",
    "wait_kind_frequencies",
    "wait_classes",
    "wait_label_purity",
    "wait_kind_outcomes",
    "outcome_shares",
    "bao_shares",
    "winner_kong_share",
    "fan_distribution",
    "payment_distribution",
    "tail_probability",
    "expected_payment",
    "net_result",
    "deal_length",
    "deal_metric",
    "paired_difference",
    "strategy_results",
]

ROLES = (
    "dealer",
    "non_dealer",
    "winner",
    "discarder",
    "discarder_ready",
    "discarder_not_ready",
    "other_payer",
    "bystander",
)
#: the roles of a two-player deal: no 点黑炮 and no bystander; the other_payer is the opponent of a
#: self-drawing (or kong-robbing) winner
TWO_PLAYER_ROLES = ("dealer", "non_dealer", "winner", "discarder", "other_payer")
ESTIMANDS = {
    "by_draw": "P(declared ready by own draw k); a deal that ends before the k-th draw counts as not ready",
    "at_risk": "P(declared ready by own draw k | the seat made at least k own draws)",
    "kaplan_meier": "Kaplan-Meier 1 - S(k), the deal's end right-censoring the seat's time to ready",
}
WAIT_CLASSES = (
    "kanchan_only",
    "edge_only",
    "single_only",
    "dual_pair_only",
    "two_sided_only",
    "two_or_more_kinds",
)
RISK_STATISTICS = ("mean", "sd", "q01", "q05", "q50", "q95", "q99", "p_loss")


def _check_confidence(confidence: float, func: str) -> float:
    if not isinstance(confidence, float | int) or not 0 < confidence < 1:
        raise ValueError(f"{func}: confidence must be a number between 0 and 1, not {confidence!r}")
    return float(confidence)


# --------------------------------------------------------------------------- ready


def _declared_as_ready(df: object) -> object:
    """A two-player frame with its 报听 turns (``declared_turn_s``) as ``ready_turn_s``: the
    two-player ready declaration; any other frame as it is."""
    if (
        isinstance(df, pd.DataFrame)
        and "ready_turn_0" not in df.columns
        and "declared_turn_0" in df.columns
        and frame_families(df) == ["two_player"]
    ):
        return df.assign(**{f"ready_turn_{s}": df[f"declared_turn_{s}"] for s in frame_seats(df)})
    return df


def ready_probability(
    df: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    max_draws: int = 16,
    *,
    estimand: str = "by_draw",
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Probability that a seat has declared ready by its own k-th draw, k = 0 .. max_draws.

    Daqing: the 上听 declaration (``ready_turn_s``); two-player: the 报听 declaration
    (``declared_turn_s``, seats 0 and 1). Beijing has no declaration: its waiting hands (听牌)
    are :func:`~daqing_sim.analysis.families.readiness_probability`'s.

    Three estimands (``ESTIMANDS``) answer different questions:

    * ``"by_draw"``: P(ready by own draw k) within a real deal; a deal that ends before
      the seat's k-th draw counts as not ready, so the curve flattens at "ever ready".
    * ``"at_risk"``: the same among the seats that made at least k own draws
      (``own_draws_s >= k``): not diluted by short deals, but conditioned on them.
    * ``"kaplan_meier"``: the deal's end right-censors the seat's time to ready; the
      probability a seat would be ready by draw k had the deal gone on (assumes the
      end of a deal is independent of how close the seat is to ready).

    Parameters
    ----------
    df : DataFrame
        Results frame (dealer, ready_turn_0..3; own_draws_0..3 for at_risk and
        kaplan_meier; strategy_0..3 for ``by="strategy"``).
    by : str or list of str, optional
        Any of ``"role"`` (dealer vs non_dealer, the default), ``"seat"``, ``"strategy"``,
        ``"variant"``. A frame with a variant column is always split by variant.
    max_draws : int
        Largest k reported.
    estimand : {"by_draw", "at_risk", "kaplan_meier"}
    confidence : float
        Level of the intervals: Wilson (each seat-deal one trial) for by_draw and
        at_risk, pointwise log-log Greenwood for kaplan_meier.

    Returns
    -------
    DataFrame
        Group columns, then ``k, n, ready, p, lo, hi, estimand``; ``n`` is the number of
        seat-deals in the group (by_draw) or at risk at k, ``ready`` the seats ready by k.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> t = ready_probability(ds.simulate(50, seed=1), max_draws=6)
    >>> list(t.columns)
    ['role', 'k', 'n', 'ready', 'p', 'lo', 'hi', 'estimand']
    """
    func = "ready_probability"
    if isinstance(max_draws, bool) or not isinstance(max_draws, int | np.integer) or max_draws < 0:
        raise ValueError(f"{func}: max_draws must be a whole number >= 0, not {max_draws!r}")
    if estimand not in ESTIMANDS:
        raise ValueError(f"{func}: estimand must be one of {', '.join(ESTIMANDS)}, not {estimand!r}")
    confidence = _check_confidence(confidence, func)
    keys = with_variant(df, parse_by(by, ["role"], GROUP_KEYS, func))
    one_table(df, func)
    df = _declared_as_ready(df)
    fields = ["ready_turn"] + (["own_draws"] if estimand != "by_draw" else [])
    need = ["dealer"] + [c for f in fields for c in seat_cols(f, df)]
    if "strategy" in keys:
        fields.append("strategy")
        need += seat_cols("strategy", df)
    require(df, need, func)
    long = seat_long(df, fields)
    ks = np.arange(max_draws + 1)
    rows = []
    for key, g in grouped(long, keys):
        turns = g["ready_turn"].to_numpy().astype(np.int64)
        ready_at = turns >= 0
        ready = np.array([int((ready_at & (turns <= k)).sum()) for k in ks])
        if estimand == "by_draw":
            n = np.full(len(ks), len(g))
            p = ready / n
            lo, hi = wilson_interval(ready, n, confidence)
        elif estimand == "at_risk":
            own = g["own_draws"].to_numpy().astype(np.int64)
            n = np.array([int((own >= k).sum()) for k in ks])
            ready = np.array([int((ready_at & (turns <= k) & (own >= k)).sum()) for k in ks])
            with np.errstate(invalid="ignore", divide="ignore"):
                p = ready / n
            lo, hi = wilson_interval(ready, n, confidence)
        else:
            own = g["own_draws"].to_numpy().astype(np.int64)
            p, lo, hi, n = kaplan_meier(np.where(ready_at, turns, own), ready_at, ks, confidence)
        part = pd.DataFrame({"k": ks, "n": n, "ready": ready, "p": p, "lo": lo, "hi": hi})
        part["estimand"] = estimand
        rows.append(insert_keys(part, keys, key))
    return ordered(pd.concat(rows, ignore_index=True), df)


# --------------------------------------------------------------------------- waits


def _share_table(labels: pd.Series, cats: Sequence[str], name: str, confidence: float) -> pd.DataFrame:
    counts = labels.value_counts()
    cnt = np.array([int(counts.get(k, 0)) for k in cats])
    n = np.full(len(cats), len(labels))
    lo, hi = wilson_interval(cnt, n, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = cnt / n
    return pd.DataFrame({name: list(cats), "count": cnt, "n": n, "share": share, "lo": lo, "hi": hi})


def _by_groups(df: pd.DataFrame, long: pd.DataFrame, keys: list[str]):
    """(key, group) per variant and inner key; a variant with no rows still yields an empty group."""
    inner = [k for k in keys if k != "variant"]
    for v in variants(df):
        sub = long if v is None else long[long["variant"] == v]
        head = () if v is None else (v,)
        found = [(head + key, g) for key, g in grouped(sub, inner)] if len(sub) else []
        yield from found or [(head + (np.nan,) * len(inner), sub)]


def _ready_long(df: pd.DataFrame, fields: list[str], keys: list[str], func: str) -> pd.DataFrame:
    extra = ["strategy"] if "strategy" in keys else []
    one_table(df, func)
    need = ["dealer"] + [c for f in ["ready_turn", *fields, *extra] for c in seat_cols(f, df)]
    require(df, need, func)
    long = seat_long(df, ["ready_turn", *fields, *extra])
    return long[long["ready_turn"].to_numpy() >= 0]


def wait_kind_frequencies(
    df: pd.DataFrame, at: str = "ready", by: str | Sequence[str] | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Shares of the wait kinds (kanchan, edge, single, dual_pair, two_sided) by their label.

    At ``"ready"`` the label is ``ready_wait_s``, the **lowest kind code over the wait
    set** (KANCHAN=0 < EDGE < SINGLE < DUAL_PAIR < TWO_SIDED): a 2m/5m wait on 1m3m4m is
    labelled kanchan. :func:`wait_classes` reports the whole wait instead.

    Frames of every family have ``at="win"``: the ``wait_kind`` column, the kind the winning
    tile completed (two-player: the wait that scores the win, e.g. 平和's two-sided wait; a
    thirteen orphans wait is ``single``). Only Daqing frames have ``at="ready"``: Beijing has no
    ready declaration, and a two-player frame keeps the 报听 turn but not its wait.

    Parameters
    ----------
    df : DataFrame
        Results frame (of one family).
    at : {"ready", "win"}
        ``"ready"``: every seat that declared ready (Daqing); ``"win"``: the wait kind of every
        win (``wait_kind``, the kind the winning tile scored as; any family).
    by : str or list of str, optional
        ``"role"``, ``"seat"``, ``"strategy"`` (of the ready seat / of the winner) or
        ``"variant"``; default pooled (but always split by variant when present).
    confidence : float
        Level of the Wilson intervals.

    Returns
    -------
    DataFrame
        Group columns, then ``wait_kind, count, n, share, lo, hi``; every kind appears,
        with count 0 when absent.
    """
    func = "wait_kind_frequencies"
    if at not in ("ready", "win"):
        raise ValueError(f"{func}: at must be 'ready' or 'win', not {at!r}")
    keys = with_variant(df, parse_by(by, [], GROUP_KEYS, func))
    seats = one_table(df, func)
    if at == "ready":
        other = isinstance(df, pd.DataFrame) and frame_families(df) != ["daqing"]
        if other and "ready_wait_0" not in df.columns:
            raise ValueError(
                f"{func}: a {family_name(df)} frame records no wait at a ready declaration (Daqing's "
                "ready_wait_s); the wait of each win: wait_kind_frequencies(df, at='win')"
            )
        long = _ready_long(df, ["ready_wait"], keys, func)
        long = long.assign(wait_kind=long["ready_wait"].astype(str))
    else:
        extra = ["strategy"] if "strategy" in keys else []
        require(df, ["dealer", "winner", "wait_kind"] + [c for f in extra for c in seat_cols(f, df)], func)
        long = seat_long(df, extra)
        long = long[long["seat"].to_numpy() == np.tile(df["winner"].to_numpy(), len(seats))]
        kind = text(df["wait_kind"])[long["row"].to_numpy()]
        long = long.assign(wait_kind=kind)
    rows = [
        insert_keys(_share_table(g["wait_kind"], WAIT_KINDS, "wait_kind", confidence), keys, key)
        for key, g in _by_groups(df, long, keys)
    ]
    return ordered(pd.concat(rows, ignore_index=True), df)


def _pure_class(mask: np.ndarray) -> np.ndarray:
    mask = mask.astype(np.int64)
    single = (mask > 0) & ((mask & (mask - 1)) == 0)
    kind = np.log2(np.where(single, mask, 1)).round().astype(np.int64)
    return np.where(single, np.array(WAIT_CLASSES[:5], dtype=object)[np.clip(kind, 0, 4)], WAIT_CLASSES[5])


def wait_classes(
    df: pd.DataFrame, by: str | Sequence[str] | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Shares of the whole waits declared: pure classes (only kanchan, ..., two or more kinds).

    A declared wait is ``kanchan_only`` when every winning tile of its wait set is a
    kanchan (bit mask ``ready_wait_mask_s == 1 << KANCHAN``), and so on for each kind;
    ``two_or_more_kinds`` when its winning tiles are of two or more kinds (a 2m/5m wait on
    1m3m4m: kanchan and edge/two-sided). Compare :func:`wait_kind_frequencies`, which
    labels each wait by its lowest kind.

    Parameters
    ----------
    df : DataFrame
        Results frame with ready_turn_0..3 and ready_wait_mask_0..3 (and
        ready_wait_tiles_0..3 for the mean number of winning kinds).
    by : str or list of str, optional
        As in :func:`wait_kind_frequencies`.
    confidence : float
        Level of the Wilson intervals.

    Returns
    -------
    DataFrame
        Group columns, then ``wait_class, count, n, share, lo, hi, mean_tiles`` (mean
        number of winning tile kinds of the class; NaN without ready_wait_tiles).
    """
    func = "wait_classes"
    keys = with_variant(df, parse_by(by, [], GROUP_KEYS, func))
    has_tiles = "ready_wait_tiles_0" in df.columns
    long = _ready_long(df, ["ready_wait_mask"] + (["ready_wait_tiles"] if has_tiles else []), keys, func)
    long = long.assign(wait_class=_pure_class(long["ready_wait_mask"].to_numpy()))
    rows = []
    for key, g in _by_groups(df, long, keys):
        part = _share_table(g["wait_class"], WAIT_CLASSES, "wait_class", confidence)
        tiles = g.groupby("wait_class")["ready_wait_tiles"].mean() if has_tiles and len(g) else {}
        part["mean_tiles"] = [float(tiles.get(c, np.nan)) for c in WAIT_CLASSES]
        rows.append(insert_keys(part, keys, key))
    return ordered(pd.concat(rows, ignore_index=True), df)


def wait_label_purity(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per label (``ready_wait_s``): how often the wait holds more than the label says.

    Returns
    -------
    DataFrame
        ``[variant,] wait_kind, n, more_tiles, more_tiles_share, lo, hi, more_kinds,
        more_kinds_share, kinds_lo, kinds_hi``: declarations with more than one winning
        tile kind (``ready_wait_tiles_s > 1``) and with winning tiles of more than one
        kind (mask of two or more bits), Wilson intervals.
    """
    long = _ready_long(df, ["ready_wait", "ready_wait_tiles", "ready_wait_mask"], [], "wait_label_purity")
    rows = []
    for v, g in by_variant(long):
        for k in WAIT_KINDS:
            sel = g[g["ready_wait"].astype(str) == k]
            n = len(sel)
            more = int((sel["ready_wait_tiles"].to_numpy() > 1).sum())
            kinds = int((_pure_class(sel["ready_wait_mask"].to_numpy()) == WAIT_CLASSES[5]).sum())
            (lo, hi), (klo, khi) = wilson_interval(more, n, confidence), wilson_interval(kinds, n, confidence)
            row = {"wait_kind": k, "n": n, "more_tiles": more, "more_tiles_share": more / n if n else np.nan}
            row |= {"lo": float(lo), "hi": float(hi), "more_kinds": kinds}
            row["more_kinds_share"] = kinds / n if n else np.nan
            row |= {"kinds_lo": float(klo), "kinds_hi": float(khi)}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def wait_kind_outcomes(
    df: pd.DataFrame,
    classes: str = "label",
    turn_bins: Sequence[int] | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """What each declared wait brings: win rate, live outs and mean payment of the seat.

    For every seat-deal where the seat declared ready, grouped by its declared wait
    (and, with ``turn_bins``, by the own draw count at declaration): how often that seat
    went on to win (Wilson), its mean live outs at declaration, and its mean payment in
    the deal (bootstrap over deals, :data:`~daqing_sim.analysis.intervals.BOOTSTRAP_METHOD`).
    Declaring early and holding a kanchan are confounded; stratifying by the declaration
    turn compares waits declared at the same point of the deal.

    Parameters
    ----------
    classes : {"label", "pure"}
        ``"label"``: the lowest kind (``ready_wait_s``); ``"pure"``: :func:`wait_classes`.
    turn_bins : sequence of int, optional
        Left edges of the declaration-turn bands, e.g. ``(0, 4, 7, 10)`` for 0-3, 4-6,
        7-9 and 10+.
    confidence : float

    Returns
    -------
    DataFrame
        ``[variant,] [turns,] wait_kind|wait_class, n, wins, win_rate, lo, hi, mean_outs,
        mean_pay, pay_lo, pay_hi``.
    """
    func = "wait_kind_outcomes"
    if classes not in ("label", "pure"):
        raise ValueError(f"{func}: classes must be 'label' or 'pure', not {classes!r}")
    col, cats = ("wait_kind", WAIT_KINDS) if classes == "label" else ("wait_class", WAIT_CLASSES)
    field = "ready_wait" if classes == "label" else "ready_wait_mask"
    one_table(df, func)
    need = ["winner"] + seat_cols("ready_turn", df) + seat_cols(field, df) + seat_cols("pay", df)
    require(df, need, func)
    edges = sorted({int(b) for b in turn_bins}) if turn_bins is not None else [0]
    bands = [f"{a}-{b - 1}" for a, b in zip(edges, edges[1:], strict=False)] + [f"{edges[-1]}+"]
    rows = []
    for v, g in by_variant(df):
        turn = seat_matrix(g, "ready_turn")
        if classes == "label":
            kind = np.column_stack([text(g[c]) for c in seat_cols(field)])
        else:
            kind = _pure_class(seat_matrix(g, field).ravel()).reshape(turn.shape)
        won = np.array(frame_seats(g))[None, :] == g["winner"].to_numpy()[:, None]
        pay = seat_matrix(g, "pay").astype(float)
        outs = seat_matrix(g, "ready_outs").astype(float) if "ready_outs_0" in g.columns else None
        band_of = np.searchsorted(edges, turn, side="right") - 1
        cells = [(b, k) for b in range(len(bands)) for k in cats]
        masks = [(turn >= 0) & (band_of == b) & (kind == k) for b, k in cells]
        S = np.column_stack([(pay * m).sum(1) for m in masks])
        C = np.column_stack([m.sum(1) for m in masks]).astype(float)
        est, plo, phi = bootstrap_ratio(S, C, confidence=confidence)
        for j, (b, k) in enumerate(cells):
            m = masks[j]
            n, wins = int(m.sum()), int((m & won).sum())
            lo, hi = wilson_interval(wins, n, confidence)
            row = {"turns": bands[b]} if turn_bins is not None else {}
            row |= {col: k, "n": n, "wins": wins, "win_rate": wins / n if n else np.nan}
            row |= {"lo": float(lo), "hi": float(hi)}
            row["mean_outs"] = float(outs[m].mean()) if outs is not None and n else np.nan
            row |= {"mean_pay": est[j], "pay_lo": plo[j], "pay_hi": phi[j]}
            rows.append(({"variant": v} if v is not None else {}) | row)
    table = ordered(pd.DataFrame(rows), df)
    if turn_bins is not None:  # in the order of the turns, not of the labels ("10+" after "7-9")
        table["turns"] = pd.Categorical(table["turns"], categories=bands, ordered=True)
    return table


# --------------------------------------------------------------------------- outcomes and bao


def _proportion_table(
    df: pd.DataFrame,
    labels: Callable[[pd.DataFrame], np.ndarray],
    cats: Sequence[str],
    name: str,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Per variant, count and Wilson interval of each category of ``labels(g)`` (None = excluded)."""
    rows = []
    for v, g in by_variant(df):
        lab = labels(g)
        kept = pd.Series(lab[lab != None])  # noqa: E711 -- elementwise on an object array
        part = _share_table(kept, cats, name, confidence)
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def outcome_shares(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Share of deals ending in each outcome (self_draw, deal_in, deal_in_not_ready, exhaustive_draw).

    Returns
    -------
    DataFrame
        ``[variant,] outcome, count, n, share, lo, hi`` (Wilson).
    """
    require(df, ["outcome"], "outcome_shares")
    return _proportion_table(df, lambda g: outcome(g).astype(object), OUTCOMES, "outcome", confidence)


def bao_shares(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Bao kinds (none, 摸宝 bao, 宝边 bao_edge, 宝中宝 bao_in_bao) among wins and per deal.

    Returns
    -------
    DataFrame
        ``[variant,] bao, count, wins, deals, share_of_wins, lo, hi, share_of_deals,
        deals_lo, deals_hi`` (Wilson).
    """
    require(df, ["outcome", "bao"], "bao_shares")

    def among(g: pd.DataFrame, wins_only: bool) -> np.ndarray:
        bao = text(g["bao"]).astype(object)
        win = outcome(g) != "exhaustive_draw"
        return np.where(win, bao, None if wins_only else "no_win")

    wins = _proportion_table(df, lambda g: among(g, True), BAO_KINDS, "bao", confidence)
    deals = _proportion_table(df, lambda g: among(g, False), BAO_KINDS, "bao", confidence)
    out = wins.rename(columns={"n": "wins", "share": "share_of_wins"})
    out.insert(out.columns.get_loc("wins") + 1, "deals", deals["n"].to_numpy())
    out["share_of_deals"] = deals["share"].to_numpy()
    out["deals_lo"] = deals["lo"].to_numpy()
    out["deals_hi"] = deals["hi"].to_numpy()
    return out


def winner_kong_share(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Share of winners holding at least one kong (``winner_kongs > 0``), Wilson.

    Returns
    -------
    DataFrame
        ``[variant,] count, n, share, lo, hi`` (n = deals with a winner).
    """
    require(df, ["winner", "winner_kongs"], "winner_kong_share")
    rows = []
    for v, g in by_variant(df):
        won = g["winner"].to_numpy() >= 0
        k, n = int((won & (g["winner_kongs"].to_numpy() > 0)).sum()), int(won.sum())
        lo, hi = wilson_interval(k, n, confidence)
        row = {"count": k, "n": n, "share": k / n if n else np.nan, "lo": float(lo), "hi": float(hi)}
        rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- fans and payments


def fan_distribution(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Distribution of N (a loser owes 2^N) over every loser entry ``fans_s >= 0``.

    Returns
    -------
    DataFrame
        ``[variant,] N, count, n, share, lo, hi`` for N = 0 .. the largest N seen (Wilson,
        each loser entry one trial; the three losers of a deal share its fans, so the
        intervals are approximate).
    """
    one_table(df, "fan_distribution")
    require(df, seat_cols("fans", df), "fan_distribution")
    rows = []
    for v, g in by_variant(df):
        f = seat_matrix(g, "fans").astype(np.int64).ravel()
        f = f[f >= 0]
        cnt = np.bincount(f, minlength=1)
        n = np.full(len(cnt), cnt.sum())
        lo, hi = wilson_interval(cnt, n, confidence)
        part = pd.DataFrame({"N": np.arange(len(cnt)), "count": cnt, "n": n})
        part["share"] = cnt / cnt.sum() if cnt.sum() else np.nan
        part["lo"], part["hi"] = lo, hi
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def payment_distribution(df: pd.DataFrame, who: str = "payer") -> pd.DataFrame:
    """Distribution of payment amounts: 2^N units (Daqing), the frame's points (Beijing: pass
    :func:`~daqing_sim.analysis.families.in_base_units` of the frame for base units), the
    win's value in points (two-player: seats 0 and 1, the loser pays the winner the value).

    Parameters
    ----------
    who : {"payer", "winner"}
        ``"payer"``: each amount a seat actually paid in a deal (``-pay_s`` where
        ``pay_s < 0``; a 点黑炮 discarder pays the three amounts as one payment; a Beijing
        dealer's 烧庄 is part of its ``pay_s``); ``"winner"``: what the winner received.

    Returns
    -------
    DataFrame
        ``[variant,] amount, count, share, at_least`` (``at_least`` = share of amounts
        >= this amount, the tail).
    """
    if who not in ("payer", "winner"):
        raise ValueError(f"payment_distribution: who must be 'payer' or 'winner', not {who!r}")
    one_table(df, "payment_distribution")
    require(df, seat_cols("pay", df), "payment_distribution")
    rows = []
    for v, g in by_variant(df):
        pay = seat_matrix(g, "pay").astype(np.int64)
        amounts = -pay[pay < 0] if who == "payer" else pay[pay > 0]
        vals, cnt = np.unique(amounts, return_counts=True)
        part = pd.DataFrame({"amount": vals, "count": cnt})
        total = cnt.sum()
        part["share"] = cnt / total if total else np.nan
        part["at_least"] = np.cumsum(cnt[::-1])[::-1] / total if total else np.nan
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def tail_probability(df: pd.DataFrame, threshold: int = 64, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """P(some seat pays at least ``threshold`` in a deal), per variant, Wilson.

    ``threshold`` is in the frame's units (Daqing 2^N, Beijing and two-player points); a
    two-player deal has one payer, seat 0 or 1.

    Returns
    -------
    DataFrame
        ``[variant,] threshold, count, n, p, lo, hi``.
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int | np.integer | float) or threshold <= 0:
        raise ValueError(f"tail_probability: threshold must be a positive amount, not {threshold!r}")
    one_table(df, "tail_probability")
    require(df, seat_cols("pay", df), "tail_probability")
    rows = []
    for v, g in by_variant(df):
        hit = (-seat_matrix(g, "pay")).max(axis=1) >= threshold
        k, n = int(hit.sum()), len(hit)
        lo, hi = wilson_interval(k, n, confidence)
        row = {"threshold": threshold, "count": k, "n": n, "p": k / n, "lo": float(lo), "hi": float(hi)}
        rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def role_masks(g: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per role of ``ROLES``, a (deals, seats) boolean matrix: seat s had that role in the deal
    (two columns for a two-player frame, whose roles are those of ``TWO_PLAYER_ROLES``)."""
    seats = np.array(frame_seats(g))[None, :]
    dealer = g["dealer"].to_numpy()[:, None]
    winner = g["winner"].to_numpy()[:, None]
    discarder = g["discarder"].to_numpy()[:, None]
    out = outcome(g)[:, None]
    won = winner >= 0
    is_winner = seats == winner
    is_discarder = (seats == discarder) & (discarder >= 0)
    other = won & ~is_winner & ~is_discarder
    black = out == "deal_in_not_ready"
    return {
        "dealer": np.broadcast_to(seats == dealer, (len(g), seats.shape[1])),
        "non_dealer": np.broadcast_to(seats != dealer, (len(g), seats.shape[1])),
        "winner": is_winner,
        "discarder": is_discarder,
        "discarder_ready": is_discarder & (out == "deal_in"),
        "discarder_not_ready": is_discarder & black,
        "other_payer": other & ~black,
        "bystander": other & black,
    }


def _labels(df: pd.DataFrame, by: str, func: str) -> list:
    """The seats or roles a payment table of ``df`` reports (two seats and ``TWO_PLAYER_ROLES`` for a
    two-player frame)."""
    seats = one_table(df, func)
    if by == "seat":
        return list(seats)
    return list(ROLES) if len(seats) == 4 else list(TWO_PLAYER_ROLES)


def _groups(g: pd.DataFrame, by: str, labels: list) -> list[np.ndarray]:
    if by == "seat":
        eye = np.eye(len(labels), dtype=bool)
        return [np.broadcast_to(eye[s], (len(g), len(labels))) for s in labels]
    masks = role_masks(g)
    return [masks[r] for r in labels]


def expected_payment(
    df: pd.DataFrame, by: str = "seat", contrast_to: object | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Expected payment (winner positive) per seat or per role, bootstrap interval.

    The interval resamples deals, in blocks of consecutive deals above 1,000
    (:func:`~daqing_sim.analysis.intervals.bootstrap_ratio`), so the heavy 2^N tail and the
    dependence between the seats of a deal are respected.

    Units are the frame's ``pay_s``: 2^N units for Daqing; points for Beijing (the win's payments
    and 烧庄; pass :func:`~daqing_sim.analysis.families.in_base_units` of the frame for base
    units); points for two-player, where the loser pays the winner the value. A two-player frame
    has seats 0 and 1 and the roles ``TWO_PLAYER_ROLES``.

    Parameters
    ----------
    by : {"seat", "role"}
        ``"seat"``: mean ``pay_s`` per seat over all deals. ``"role"``: mean payment of a
        seat given its role in the deal: dealer, non_dealer, winner, discarder (dealt
        in, ready or not; Beijing and two-player: also the declarer of a robbed kong when the
        frame names it the ``discarder``), discarder_ready (点炮), discarder_not_ready (点黑炮,
        pays for all), other_payer (neither winner nor discarder, on a 自摸 or 点炮: pays its own
        amount; two-player: the opponent of a self-drawing winner), bystander (neither winner
        nor discarder on a 点黑炮: pays nothing). Roles overlap (a dealer may win).
    contrast_to : seat or role, optional
        Also report ``diff, diff_lo, diff_hi``: each mean minus this one's, bootstrapped
        jointly over the same deals (e.g. the cost of 点黑炮 with
        ``by="role", contrast_to="discarder_ready"``).
    confidence : float

    Returns
    -------
    DataFrame
        ``[variant,] seat|role, n, mean, lo, hi[, diff, diff_lo, diff_hi]``
        (n = seat-deals in the group).
    """
    func = "expected_payment"
    if by not in ("seat", "role"):
        raise ValueError(f"{func}: by must be 'seat' or 'role', not {by!r}")
    labels = _labels(df, by, func)
    if contrast_to is not None and contrast_to not in labels:
        choices = ", ".join(map(str, labels))
        raise ValueError(f"{func}: cannot contrast to {contrast_to!r}; use one of {choices}")
    need = seat_cols("pay", df) + (["dealer", "winner", "discarder", "outcome"] if by == "role" else [])
    require(df, need, func)
    rows = []
    for v, g in by_variant(df):
        pay = seat_matrix(g, "pay").astype(float)
        masks = _groups(g, by, labels)
        S = np.column_stack([(pay * m).sum(1) for m in masks])
        C = np.column_stack([m.sum(1) for m in masks]).astype(float)
        est, lo, hi = bootstrap_ratio(S, C, confidence=confidence)
        part = pd.DataFrame({by: labels, "n": C.sum(0).astype(np.int64), "mean": est, "lo": lo, "hi": hi})
        if contrast_to is not None:
            diff = bootstrap_ratio(S, C, contrast_to=labels.index(contrast_to), confidence=confidence)
            part["diff"], part["diff_lo"], part["diff_hi"] = diff
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def _mean_sd(t: list[np.ndarray]) -> np.ndarray:
    s1, s2, c = t
    mean = s1 / c
    sd = np.sqrt(np.maximum(s2 - s1 * mean, 0) / (c - 1))
    return np.concatenate([mean, sd], axis=1)


def _risk_rows(values: list[np.ndarray], S: list[np.ndarray], confidence: float) -> list[dict]:
    """Risk statistics per group from its values and its per-deal (sum, sum of squares, count)."""
    est, lo, hi = bootstrap_deals(S, _mean_sd, confidence=confidence)
    g = len(values)
    out = []
    for j, x in enumerate(values):
        n = len(x)
        rows = {
            "mean": (est[j], lo[j], hi[j]),
            "sd": (est[g + j], lo[g + j], hi[g + j]),
        }
        qs = (0.01, 0.05, 0.5, 0.95, 0.99)
        for q, e, a, b in zip(qs, *quantile_intervals(x, qs, confidence), strict=True):
            rows[f"q{round(100 * q):02d}"] = (float(e), float(a), float(b))
        k = int((x < 0).sum())
        plo, phi = wilson_interval(k, n, confidence)
        rows["p_loss"] = (k / n if n else np.nan, float(plo), float(phi))
        out.append({s: (*rows[s], n) for s in RISK_STATISTICS})
    return out


def net_result(df: pd.DataFrame, by: str = "seat", confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Risk: the distribution of a seat's net result of a deal (``pay_s``), per seat or role.

    Statistics (``RISK_STATISTICS``): mean and SD (bootstrap over deals), the 1/5/50/95/99 %
    quantiles (order-statistic intervals of ``scipy.stats.quantile_test``; they treat the
    seat-deals of a role as independent) and P(loss) = P(net < 0) (Wilson). Units, seats and
    roles as in :func:`expected_payment`: 2^N units for Daqing, points for Beijing (or base units
    of :func:`~daqing_sim.analysis.families.in_base_units`) and two-player (seats 0 and 1, the
    ``TWO_PLAYER_ROLES``).

    Parameters
    ----------
    by : {"seat", "role"}
        Groups as in :func:`expected_payment`.
    confidence : float

    Returns
    -------
    DataFrame
        ``[variant,] seat|role, statistic, estimate, lo, hi, n`` (n = seat-deals).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> t = net_result(ds.simulate(40, seed=2))
    >>> sorted(set(t["statistic"])) == sorted(RISK_STATISTICS)
    True
    """
    if by not in ("seat", "role"):
        raise ValueError(f"net_result: by must be 'seat' or 'role', not {by!r}")
    labels = _labels(df, by, "net_result")
    need = seat_cols("pay", df) + (["dealer", "winner", "discarder", "outcome"] if by == "role" else [])
    require(df, need, "net_result")
    rows = []
    for v, g in by_variant(df):
        pay = seat_matrix(g, "pay").astype(float)
        masks = _groups(g, by, labels)
        S = [np.column_stack([(p * m).sum(1) for m in masks]) for p in (pay, pay * pay)]
        S.append(np.column_stack([m.sum(1) for m in masks]).astype(float))
        stats_ = _risk_rows([pay[m] for m in masks], S, confidence)
        for label, st in zip(labels, stats_, strict=True):
            for name, (e, lo, hi, n) in st.items():
                row = {by: label, "statistic": name, "estimate": e, "lo": lo, "hi": hi, "n": n}
                rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def deal_length(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The deal-length distribution: tiles drawn from the live wall (``draws``) per deal.

    Returns
    -------
    DataFrame
        ``[variant,] statistic, estimate, lo, hi, n`` for mean and SD (bootstrap over
        deals) and the 1/5/50/95/99 % quantiles (order-statistic intervals).
    """
    require(df, ["draws"], "deal_length")
    rows = []
    for v, g in by_variant(df):
        x = g["draws"].to_numpy(dtype=float)
        st = _risk_rows([x], [x[:, None], (x * x)[:, None], np.ones((len(x), 1))], confidence)[0]
        for name, (e, lo, hi, n) in st.items():
            if name != "p_loss":
                row = {"statistic": name, "estimate": e, "lo": lo, "hi": hi, "n": n}
                rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


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
        probability of ever getting ready). Payments are the frame's ``pay_s`` (2^N units
        for Daqing, points for Beijing and two-player); a two-player frame has two seats, and
        its ready declaration is 报听 (``declared_turn_s``); Beijing has none.

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
        return (outcome(require(df, ["outcome"], "deal_metric")) == metric).astype(float)
    if metric == "win":
        return (outcome(require(df, ["outcome"], "deal_metric")) != "exhaustive_draw").astype(float)
    if metric == "big_win":
        require(df, ["outcome", "big"], "deal_metric")
        return ((outcome(df) != "exhaustive_draw") & df["big"].to_numpy(dtype=bool)).astype(float)
    if metric in ("bao_draw", "bao_edge", "bao_in_bao", "any_bao"):
        bao = text(require(df, ["bao"], "deal_metric")["bao"])
        if metric == "any_bao":
            return np.isin(bao, BAO_KINDS[1:]).astype(float)
        return (bao == ("bao" if metric == "bao_draw" else metric)).astype(float)
    one_table(df, "deal_metric")
    if metric == "dealer_pay":
        require(df, ["dealer", *seat_cols("pay", df)], "deal_metric")
        dealer = df["dealer"].to_numpy().astype(np.int64)
        return seat_matrix(df, "pay")[np.arange(len(df)), dealer].astype(float)
    if metric in ("max_pay", "pays_64"):
        require(df, seat_cols("pay", df), "deal_metric")
        m = np.maximum((-seat_matrix(df, "pay")).max(axis=1), 0).astype(float)
        return m if metric == "max_pay" else (m >= 64).astype(float)
    if metric == "winner_gain":
        require(df, seat_cols("pay", df), "deal_metric")
        return np.maximum(seat_matrix(df, "pay").max(axis=1), 0).astype(float)
    if metric in ("any_ready", "ready_share"):
        df = _declared_as_ready(df)
        require(df, seat_cols("ready_turn", df), "deal_metric")
        ready = seat_matrix(df, "ready_turn") >= 0
        return (ready.any(axis=1) if metric == "any_ready" else ready.mean(axis=1)).astype(float)
    if metric in df.columns and (
        pd.api.types.is_numeric_dtype(df[metric]) or pd.api.types.is_bool_dtype(df[metric])
    ):
        return df[metric].to_numpy(dtype=float)
    raise ValueError(f"unknown metric {metric!r}; use one of {' '.join(_METRIC_DOC.split())}")


def paired_difference(
    df: pd.DataFrame,
    metric: str | Callable[[pd.DataFrame], object] | Sequence[str],
    baseline_variant: object | None = None,
    *,
    adjust: str | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Per-deal paired differences ``metric(variant) - metric(baseline)`` on the same walls.

    Deals are matched on ``deal`` (and ``seed`` when present); the interval is the
    bootstrap over the matched deals. Only the paired design licenses causal words:
    on the same walls and players, the difference is what the variant's change does.

    Parameters
    ----------
    df : DataFrame
        Results of several variants (``variant`` column) run on the same walls.
    metric : str, callable or list of str
        See :func:`deal_metric`.
    baseline_variant : optional
        The variant subtracted; default the first variant.
    adjust : {None, "bonferroni"}
        ``"bonferroni"``: the intervals hold jointly for the whole table (family = its
        rows, metrics x variants), each at level ``1 - (1 - confidence) / family``.
    confidence : float

    Returns
    -------
    DataFrame
        ``metric, variant, baseline, n_pairs, baseline_mean, variant_mean, diff, lo, hi,
        confidence, family_size``.
    """
    func = "paired_difference"
    if adjust not in (None, "bonferroni"):
        raise ValueError(f"{func}: adjust must be None or 'bonferroni', not {adjust!r}")
    confidence = _check_confidence(confidence, func)
    require(df, ["variant", "deal"], func)
    names = variants(df)
    if baseline_variant is None:
        baseline_variant = names[0]
    elif baseline_variant not in names:
        raise ValueError(
            f"{func}: baseline variant {baseline_variant!r} is not in the frame; "
            f"variants: {', '.join(map(str, names))}"
        )
    metrics = [metric] if isinstance(metric, str) or callable(metric) else list(metric)
    family = len(metrics) * (len(names) - 1) if adjust else 1
    level = familywise_confidence(max(1, family), confidence)
    keys = deal_keys(df)
    base = df[df["variant"] == baseline_variant]
    if base.duplicated(keys).any():
        raise ValueError(f"{func}: deal ids repeat within variant {baseline_variant!r}; cannot pair")
    base_vals = np.column_stack([deal_metric(base, m) for m in metrics])
    base_idx = pd.MultiIndex.from_frame(base[keys]) if len(keys) > 1 else pd.Index(base["deal"])
    rows = []
    for v in names:
        if v == baseline_variant:
            continue
        g = df[df["variant"] == v]
        vals = np.column_stack([deal_metric(g, m) for m in metrics])
        g_idx = pd.MultiIndex.from_frame(g[keys]) if len(keys) > 1 else pd.Index(g["deal"])
        pos = base_idx.get_indexer(g_idx)
        ok = pos >= 0
        est, lo, hi = bootstrap_ratio(vals[ok] - base_vals[pos[ok]], confidence=level)
        for j, m in enumerate(metrics):
            row = {"metric": m if isinstance(m, str) else getattr(m, "__name__", "metric"), "variant": v}
            row |= {"baseline": baseline_variant, "n_pairs": int(ok.sum())}
            row["baseline_mean"] = float(base_vals[pos[ok], j].mean()) if ok.any() else np.nan
            row["variant_mean"] = float(vals[ok, j].mean()) if ok.any() else np.nan
            row |= {"diff": est[j], "lo": lo[j], "hi": hi[j], "confidence": level, "family_size": family}
            rows.append(row)
    cols = ["metric", "variant", "baseline", "n_pairs", "baseline_mean", "variant_mean", "diff", "lo", "hi"]
    return ordered(pd.DataFrame(rows, columns=[*cols, "confidence", "family_size"]), df)


# --------------------------------------------------------------------------- strategies


def strategy_results(
    df: pd.DataFrame,
    pool_variants: bool = True,
    baseline_strategy: str | None = None,
    *,
    adjust: str | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Per strategy (seats mapped via strategy_0..3): mean payment, paired contrast and rates.

    Meant for seat-rotated tournaments (experiments/strategies.toml), where the
    variants rotate the strategies over the seats on the same walls: pooled over the
    variants, every strategy plays every seat of every deal once, so seat and dealer
    advantages cancel.

    Any family: payments in the frame's units (Daqing 2^N, Beijing and two-player points); the
    ready rate is the declaration's (Daqing 上听, two-player 报听; NaN for Beijing, which has
    none: see :func:`~daqing_sim.analysis.families.readiness_probability` for its 听牌).

    Intervals: mean payment and the paired contrast ``mean_pay - mean_pay(baseline)``
    bootstrap deal ids, so the rotations of one wall move together; rates (win, deal-in,
    ready) use Wilson over seat-deals.

    Parameters
    ----------
    pool_variants : bool
        Pool all variants (default, for rotations); False reports each variant.
    baseline_strategy : str, optional
        Strategy the contrast is taken against (default ``"greedy"`` when present,
        else the first name).
    adjust : {None, "bonferroni"}
        ``"bonferroni"``: the contrast intervals hold jointly over the other strategies
        (family = strategies - 1, per pooled table or variant).
    confidence : float

    Returns
    -------
    DataFrame
        ``[variant,] strategy, n, mean_pay, lo, hi, diff, diff_lo, diff_hi, win_rate,
        win_lo, win_hi, deal_in_rate, deal_in_lo, deal_in_hi, ready_rate, ready_lo,
        ready_hi, family_size``.
    """
    func = "strategy_results"
    if adjust not in (None, "bonferroni"):
        raise ValueError(f"{func}: adjust must be None or 'bonferroni', not {adjust!r}")
    seat_ids = one_table(df, func)
    df = _declared_as_ready(df)
    need = seat_cols("pay", df) + seat_cols("strategy", df) + ["deal", "winner", "discarder"]
    require(df, need, func)
    all_names = sorted(set(np.concatenate([df[c].astype(str).unique() for c in seat_cols("strategy", df)])))
    if baseline_strategy is None:
        baseline_strategy = "greedy" if "greedy" in all_names else all_names[0]
    elif baseline_strategy not in all_names:
        raise ValueError(
            f"{func}: baseline strategy {baseline_strategy!r} never plays; strategies: {', '.join(all_names)}"
        )
    parts = [(None, df)] if pool_variants else list(by_variant(df))
    rows = []
    for v, g in parts:
        strat = np.column_stack([text(g[c]) for c in seat_cols("strategy", g)])
        names = [s for s in all_names if (strat == s).any()]
        family = max(1, len(names) - 1) if adjust else 1
        pay = seat_matrix(g, "pay").astype(float)
        seats = np.array(seat_ids)[None, :]
        discarder = g["discarder"].to_numpy()[:, None]
        flags = {
            "win": seats == g["winner"].to_numpy()[:, None],
            "deal_in": (seats == discarder) & (discarder >= 0),
        }
        if "ready_turn_0" in g.columns:
            flags["ready"] = seat_matrix(g, "ready_turn") >= 0
        masks = [strat == s for s in names]
        sums = pd.DataFrame(np.column_stack([(pay * m).sum(1) for m in masks] + [m.sum(1) for m in masks]))
        per_deal = sums.groupby([g[k].to_numpy() for k in deal_keys(g)], sort=True).sum().to_numpy()
        S, C = per_deal[:, : len(names)], per_deal[:, len(names) :]
        est, lo, hi = bootstrap_ratio(S, C, confidence=confidence)
        base = names.index(baseline_strategy) if baseline_strategy in names else None
        if base is not None:
            level = familywise_confidence(family, confidence)
            dif, dlo, dhi = bootstrap_ratio(S, C, contrast_to=base, confidence=level)
        else:
            dif = dlo = dhi = np.full(len(names), np.nan)
        for j, s in enumerate(names):
            m = masks[j]
            n = int(m.sum())
            row = {"strategy": s, "n": n, "mean_pay": est[j], "lo": lo[j], "hi": hi[j]}
            row |= {"diff": dif[j], "diff_lo": dlo[j], "diff_hi": dhi[j]}
            for name in ("win", "deal_in", "ready"):
                if name not in flags:
                    row |= {f"{name}_rate": np.nan, f"{name}_lo": np.nan, f"{name}_hi": np.nan}
                    continue
                k = int((flags[name] & m).sum())
                rlo, rhi = wilson_interval(k, n, confidence)
                row |= {f"{name}_rate": k / n, f"{name}_lo": float(rlo), f"{name}_hi": float(rhi)}
            row["family_size"] = family
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)
