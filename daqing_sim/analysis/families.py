"""Rule families in results frames: which family a variant plays, and the Beijing estimators.

A Daqing results frame has no ``family`` column; a Beijing one has ``family == "beijing"``
(docs/DESIGN.md). An experiment may hold variants of both; :func:`family_parts` splits such a
frame into one frame per family, each with its own columns only. Walls are shared only within
a family, so nothing here pairs deals of two families.

Beijing money is reported in **base units**: points divided by the variant's ``base_points``
(1,000 by default), so 1 is one fan of a concealed hand and a plain win by an open hand is 0.5.
Every function takes the frame of ``ds.simulate(..., rules=RuleSet(family="beijing"))`` or
``load_results`` and returns a tidy table with an interval on every estimate
(:mod:`daqing_sim.analysis.intervals`).

>>> import pandas as pd
>>> variant_families(pd.DataFrame({"deal": [0]}))
{None: 'daqing'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from daqing_sim.analysis import estimators as est
from daqing_sim.analysis._frame import (
    by_variant,
    frame_seats,
    one_table,
    ordered,
    outcome,
    require,
    seat_cols,
    seat_matrix,
    variants,
)
from daqing_sim.analysis.intervals import (
    CONFIDENCE,
    EXACT_METHOD,
    WILSON_METHOD,
    bootstrap_ratio,
    exact_interval,
    wilson_interval,
)
from daqing_sim.families import family_spec

__all__ = [
    "FAMILY_TITLES",
    "BEIJING_FANS",
    "BEIJING_BASE_POINTS",
    "BEIJING_EVENTS",
    "EVENT_COSTS",
    "TENPAI_ESTIMANDS",
    "COMPARISON_METRICS",
    "variant_families",
    "family_parts",
    "in_base_units",
    "beijing_win_payments",
    "burn_payments",
    "tenpai_probability",
    "readiness_probability",
    "deal_in_rates",
    "fan_type_shares",
    "fan_total_distribution",
    "value_distribution",
    "value_statistics",
    "beijing_events",
    "mutual_shift",
    "DAQING_WIN_FANS",
    "win_fan_shares",
    "gain_distribution",
    "family_comparison",
    "TWO_PLAYER_FANS",
    "TWO_PLAYER_LIMITS",
    "TWO_PLAYER_RIICHI_NAMES",
    "fan_label",
    "TWO_PLAYER_ROLE_STATS",
    "RARE_COUNT",
    "two_player_pattern_shares",
    "two_player_roles",
    "two_player_value_statistics",
    "two_player_dealer_pay",
    "two_player_declared_share",
]

FAMILY_TITLES = {"daqing": "Daqing", "beijing": "Beijing", "two_player": "two-player"}
# Fan code -> (Chinese name, fans) of docs/RULES_BEIJING.md, in the order of the frame's
# fan_<code> columns (the Beijing spec); a fan without a Chinese name in the rules (plain win, last
# discard) goes by its English one
BEIJING_FANS = {f.code: (f.zh or f.en, f.value) for f in family_spec("beijing").fans}
BEIJING_BASE_POINTS = 1000  # RuleSet(family="beijing").base_points
BEIJING_EVENTS = {
    "burn": "烧庄: the three others followed the dealer's discards (burn_rounds >= 1)",
    "burn_paid": "烧庄 paid: 烧庄 in a deal that was won (nothing is paid on a drawn deal)",
    "mutual": "互包: two players bound by three claims from one another (mutual_bindings >= 1)",
    "mutual_paid": "互包 paid: the winner's bound partner paid for the win (mutual_payer >= 0)",
    "robbed_kong": "抢杠: the win robbed a kong; its declarer pays 3 x value",
}
# What each event costs: the payment involved, in base units, in the deals where it happens.
EVENT_COSTS = {
    "burn": "what the dealer pays for 烧庄 (3 x burn_points x (2^rounds - 1); 0 on a drawn deal)",
    "burn_paid": "what the dealer pays for 烧庄, 3 x burn_points x (2^rounds - 1)",
    "mutual": "what the bound partner of the winner pays for the win (0 when neither bound player wins)",
    "mutual_paid": "what the winner's bound partner pays for the win (value on a deal-in, 3 x value else)",
    "robbed_kong": "what is paid for the win on a robbed kong (3 x value)",
}
TENPAI_ESTIMANDS = {
    "by_draw": "P(hand waiting (听牌) after a discard by own draw k); a deal ending before the k-th draw "
    "counts as not waiting",
    "at_risk": "P(hand waiting (听牌) by own draw k | the seat made at least k own draws)",
    "kaplan_meier": "Kaplan-Meier 1 - S(k), the deal's end right-censoring the seat's time to 听牌",
}


# --------------------------------------------------------------------------- families


def variant_families(df: pd.DataFrame) -> dict:
    """Variant (``None`` without a variant column) -> its rule family, from the ``family`` column
    (absent or missing for Daqing rows)."""
    if "family" not in df.columns:
        return {v: "daqing" for v in variants(df)}
    out = {}
    for v, g in by_variant(df):
        fam = g["family"].iloc[0] if len(g) else None
        out[v] = "daqing" if fam is None or pd.isna(fam) else str(fam)
    return out


def _restore(part: pd.DataFrame) -> pd.DataFrame:
    """Drop the columns another family filled (all missing here) and give the others back the
    types a mixed frame widened (integers read as floats, booleans as objects)."""
    part = part.loc[:, part.notna().any() | (part.columns == "variant")].copy()
    for c in part.columns:
        col = part[c]
        if col.dtype == object and col.map(lambda x: isinstance(x, bool | np.bool_)).all():
            part[c] = col.astype(bool)
        elif pd.api.types.is_float_dtype(col) and np.isfinite(col).all() and (col == np.round(col)).all():
            part[c] = col.astype(np.int64)
        elif c in ("family", "variant") and isinstance(col.dtype, pd.CategoricalDtype):
            part[c] = col.cat.remove_unused_categories()
    return part


def family_parts(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``[(family, frame)]`` in the order the families first appear among the variants.

    A frame of one family is returned as it is; a frame holding variants of several families
    (``load_results`` of a mixed experiment) is split by variant, each part keeping only the
    columns its family fills.

    >>> import pandas as pd
    >>> [f for f, _ in family_parts(pd.DataFrame({"deal": [0]}))]
    ['daqing']
    """
    fams = variant_families(df)
    order = list(dict.fromkeys(fams.values()))
    if len(order) == 1:
        return [(order[0], df)]
    parts = []
    for fam in order:
        names = [v for v, f in fams.items() if f == fam]
        part = _restore(df[df["variant"].isin(names)])
        if fam == "daqing":
            part = part.drop(columns=["family"], errors="ignore")
        parts.append((fam, part.reset_index(drop=True)))
    return parts


def _base_of(base_points: int | float | Mapping | None, v: object) -> float:
    if isinstance(base_points, Mapping):
        b = base_points.get(v, base_points.get(str(v), BEIJING_BASE_POINTS))
    else:
        b = BEIJING_BASE_POINTS if base_points is None else base_points
    return float(b) if b and b > 0 else 1.0  # base_points = 0: report points


def in_base_units(df: pd.DataFrame, base_points: int | float | Mapping | None = None) -> pd.DataFrame:
    """A copy of a Beijing frame with ``pay_s`` and ``value`` in base units (points / base_points).

    ``base_points``: one number for every variant, or variant -> number (default 1,000, the
    Beijing default; a variant with ``base_points = 0`` keeps points).
    """
    require(df, ["value", *seat_cols("pay")], "in_base_units")
    out = df.copy()
    cols = ["value", *seat_cols("pay")]
    if "variant" in df.columns:
        bases = {v: _base_of(base_points, v) for v in variants(df)}
        scale = df["variant"].map(bases).to_numpy(dtype=float)
    else:
        scale = np.full(len(df), _base_of(base_points, None))
    for c in cols:
        out[c] = df[c].to_numpy(dtype=float) / scale
    return out


# --------------------------------------------------------------------------- payments


def _beijing(df: pd.DataFrame, func: str, extra: Sequence[str] = ()) -> pd.DataFrame:
    need = ["outcome", "winner", "discarder", "dealer", "value", "robbed_kong", "mutual_payer"]
    return require(df, [*need, *seat_cols("pay"), *extra], func)


def beijing_win_payments(df: pd.DataFrame) -> np.ndarray:
    """``(deals, 4)``: each seat's payment for the deal's win (winner positive), in the frame's units.

    A deal-in: the discarder pays the value; a self-draw: each of the three others pays it; a
    robbed kong: the kong's declarer (``discarder``) pays 3 x value; under 互包 the winner's
    bound partner (``mutual_payer``) pays all of it (the value on a deal-in, 3 x value else).
    ``pay_s`` minus this is what 烧庄 moved (:func:`burn_payments`).
    """
    _beijing(df, "beijing_win_payments")
    n = len(df)
    v = df["value"].to_numpy(dtype=float)
    winner = df["winner"].to_numpy().astype(np.int64)
    disc = df["discarder"].to_numpy().astype(np.int64)
    mp = df["mutual_payer"].to_numpy().astype(np.int64)
    robbed = df["robbed_kong"].to_numpy(dtype=bool)
    deal_in = outcome(df) == "deal_in"
    won = winner >= 0
    total = np.where(deal_in & ~robbed, v, 3 * v)
    payer = np.where(mp >= 0, mp, np.where(deal_in, disc, -1))
    pay = np.zeros((n, 4))
    rows = np.arange(n)
    shared = won & (payer < 0)  # a self-draw: the three others pay the value each
    pay[shared] -= v[shared, None]
    pay[rows[won], winner[won]] += np.where(shared[won], total[won] + v[won], total[won])
    one = won & (payer >= 0)
    pay[rows[one], payer[one]] -= total[one]
    return pay


def burn_payments(df: pd.DataFrame) -> np.ndarray:
    """``(deals, 4)``: each seat's 烧庄 payment (the dealer negative), ``pay_s`` minus the win's."""
    return seat_matrix(_beijing(df, "burn_payments"), "pay").astype(float) - beijing_win_payments(df)


# --------------------------------------------------------------------------- tenpai and deal-ins


def _as_ready(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """A view of ``df`` whose ``ready_turn_s`` are its ``column_s`` (for the ready estimators)."""
    view = df.drop(columns=[c for c in seat_cols("ready_turn") if c in df.columns])
    return view.assign(**{f"ready_turn_{s}": df[f"{column}_{s}"] for s in frame_seats(df)})


def tenpai_probability(
    df: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    max_draws: int = 16,
    *,
    estimand: str = "by_draw",
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """P(a seat's hand waits (听牌) by its own k-th draw), k = 0 .. max_draws, Beijing or two-player.

    Nobody declares ready under Beijing: the frame's ``tenpai_turn_s`` is the seat's own draw
    count when its hand first waited after a discard (-1 never); a two-player frame has the same
    column for its seats 0 and 1 (its 报听 declarations are ``ready_probability``'s). The
    estimands are those of :func:`~daqing_sim.analysis.estimators.ready_probability`
    (:data:`TENPAI_ESTIMANDS`), with the same columns and intervals.
    """
    require(df, ["dealer", *seat_cols("tenpai_turn", df)], "tenpai_probability")
    return est.ready_probability(
        _as_ready(df, "tenpai_turn"), by=by, max_draws=max_draws, estimand=estimand, confidence=confidence
    )


def readiness_probability(df: pd.DataFrame, **kw) -> pd.DataFrame:
    """Readiness by own draw k of either family: declared ready (上听, ``ready_turn_s``) under
    Daqing, a waiting hand (听牌, ``tenpai_turn_s``) under Beijing; keywords of
    :func:`tenpai_probability`. The frame must be of one family."""
    fams = set(variant_families(df).values())
    if len(fams) > 1:
        raise ValueError(
            "readiness_probability: the frame holds several families; split it with family_parts"
        )
    if fams == {"daqing"}:
        return est.ready_probability(df, **kw)
    return tenpai_probability(df, **kw)


def deal_in_rates(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Deal-ins per deal, and P(a seat deals in) per seat-deal by role (dealer, non_dealer), Wilson.

    A deal-in is a win on another player's tile: a discard, or a robbed kong (its declarer is the
    ``discarder``); under Daqing both 点炮 and 点黑炮. One winner per discard: at most one a deal.
    A deal has three non-dealer seat-deals at a table of four, one in a two-player frame.

    Returns
    -------
    DataFrame
        ``[variant,] who, count, n, rate, lo, hi`` with who = ``deal`` (deal-ins per deal),
        ``dealer``, ``non_dealer`` (per seat-deal of the role).
    """
    others = len(one_table(df, "deal_in_rates")) - 1
    require(df, ["discarder", "dealer", "winner"], "deal_in_rates")
    rows = []
    for v, g in by_variant(df):
        disc = g["discarder"].to_numpy().astype(np.int64)
        hit = (disc >= 0) & (g["winner"].to_numpy() >= 0)
        is_dealer = disc == g["dealer"].to_numpy()
        cells = {
            "deal": (int(hit.sum()), len(g)),
            "dealer": (int((hit & is_dealer).sum()), len(g)),
            "non_dealer": (int((hit & ~is_dealer).sum()), others * len(g)),
        }
        for who, (k, n) in cells.items():
            lo, hi = wilson_interval(k, n, confidence)
            row = {"who": who, "count": k, "n": n, "rate": k / n if n else np.nan}
            rows.append(({"variant": v} if v is not None else {}) | row | {"lo": float(lo), "hi": float(hi)})
    return ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- fans and values


def _wins(g: pd.DataFrame) -> np.ndarray:
    return g["winner"].to_numpy() >= 0


def fan_type_shares(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Share of Beijing wins holding each fan type (``fan_<code>``), Wilson among wins.

    A win may hold several (一条龙 with 清一色; any type with the last discard), so the shares
    need not add up to 1; ``plain_win`` is a win with none of the nine named types.

    Returns
    -------
    DataFrame
        ``[variant,] fan, name, fans, count, n, share, lo, hi`` (n = wins).
    """
    require(df, ["winner", *(f"fan_{c}" for c in BEIJING_FANS)], "fan_type_shares")
    rows = []
    for v, g in by_variant(df):
        won = _wins(g)
        n = int(won.sum())
        for code, (name, fans) in BEIJING_FANS.items():
            k = int((won & g[f"fan_{code}"].to_numpy(dtype=bool)).sum())
            lo, hi = wilson_interval(k, n, confidence)
            row = {
                "fan": code,
                "name": name,
                "fans": fans,
                "count": k,
                "n": n,
                "share": k / n if n else np.nan,
            }
            rows.append(({"variant": v} if v is not None else {}) | row | {"lo": float(lo), "hi": float(hi)})
    return ordered(pd.DataFrame(rows), df)


def fan_total_distribution(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Distribution of F (``fan_total``, the win's fans) among wins, F = 1 .. the largest seen, Wilson.

    Returns
    -------
    DataFrame
        ``[variant,] F, count, n, share, lo, hi``.
    """
    require(df, ["winner", "fan_total"], "fan_total_distribution")
    top = int(df["fan_total"].max()) if len(df) else 1
    rows = []
    for v, g in by_variant(df):
        f = g["fan_total"].to_numpy().astype(np.int64)[_wins(g)]
        cnt = np.bincount(f, minlength=top + 1)[1:]
        n = np.full(len(cnt), len(f))
        lo, hi = wilson_interval(cnt, n, confidence)
        part = pd.DataFrame({"F": np.arange(1, len(cnt) + 1), "count": cnt, "n": n})
        part["share"] = cnt / len(f) if len(f) else np.nan
        part["lo"], part["hi"] = lo, hi
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def value_distribution(
    df: pd.DataFrame, base_points: int | float | Mapping | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Distribution of a win's value: Beijing's (base x F, half for an open hand) in base units, a
    two-player win's in points (there is no base unit: ``base_points`` is not used).

    Returns
    -------
    DataFrame
        ``[variant,] value, count, n, share, lo, hi, at_least`` (n = wins; Wilson;
        ``at_least`` = share of wins worth at least ``value``), every value seen in the frame.
    """
    require(df, ["winner", "value"], "value_distribution")
    two_player = set(variant_families(df).values()) == {"two_player"}
    units = df if two_player else in_base_units(df, base_points)
    won_all = units["winner"].to_numpy() >= 0
    values = np.unique(units["value"].to_numpy()[won_all])
    rows = []
    for v, g in by_variant(units):
        x = g["value"].to_numpy()[_wins(g)]
        cnt = np.array([int((x == u).sum()) for u in values])
        n = np.full(len(values), len(x))
        lo, hi = wilson_interval(cnt, n, confidence)
        part = pd.DataFrame({"value": values, "count": cnt, "n": n})
        part["share"] = cnt / len(x) if len(x) else np.nan
        part["lo"], part["hi"] = lo, hi
        part["at_least"] = np.cumsum(cnt[::-1])[::-1] / len(x) if len(x) else np.nan
        if v is not None:
            part.insert(0, "variant", v)
        rows.append(part)
    return ordered(pd.concat(rows, ignore_index=True), df)


def value_statistics(
    df: pd.DataFrame, base_points: int | float | Mapping | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """E[value] and the value's spread, in base units.

    Statistics: ``mean``, ``sd``, ``q01`` .. ``q99`` of the value of a win (bootstrap over deals
    for mean and SD, order-statistic intervals for the quantiles), ``mean_deal`` (E[value] per
    deal, a drawn deal counting 0, bootstrap) and ``F_mean`` (E[F] of a win, bootstrap).

    Returns
    -------
    DataFrame
        ``[variant,] statistic, estimate, lo, hi, n`` (n = wins, deals for ``mean_deal``).
    """
    require(df, ["winner", "value", "fan_total"], "value_statistics")
    if set(variant_families(df).values()) == {"two_player"}:  # in points: no base unit
        return two_player_value_statistics(df, confidence)
    units = in_base_units(df, base_points)
    rows = []
    for v, g in by_variant(units):
        won = _wins(g).astype(float)
        x = g["value"].to_numpy(dtype=float)
        S = [(x * won)[:, None], (x * x * won)[:, None], won[:, None]]
        st = est._risk_rows([x[won > 0]], S, confidence)[0]
        st.pop("p_loss")
        st["mean_deal"] = (*bootstrap_ratio(x, confidence=confidence), len(g))
        f = g["fan_total"].to_numpy(dtype=float)
        st["F_mean"] = (*bootstrap_ratio(f * won, won, confidence=confidence), int(won.sum()))
        for name, (e, lo, hi, n) in st.items():
            row = {"statistic": name, "estimate": e, "lo": lo, "hi": hi, "n": n}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- 烧庄, 互包, 抢杠


def _event_cost(g: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per event: (happened per deal, payment involved per deal) in the frame's units."""
    won = _wins(g)
    rounds = g["burn_rounds"].to_numpy().astype(np.int64)
    dealer = g["dealer"].to_numpy().astype(np.int64)
    rows = np.arange(len(g))
    burn_cost = -burn_payments(g)[rows, dealer]
    win = beijing_win_payments(g)
    mp = g["mutual_payer"].to_numpy().astype(np.int64)
    mutual_cost = np.where(mp >= 0, -win[rows, np.clip(mp, 0, 3)], 0.0)
    robbed = g["robbed_kong"].to_numpy(dtype=bool) & won
    v = g["value"].to_numpy(dtype=float)
    return {
        "burn": (rounds >= 1, burn_cost),
        "burn_paid": ((rounds >= 1) & won, burn_cost),
        "mutual": (g["mutual_bindings"].to_numpy() >= 1, mutual_cost),
        "mutual_paid": (mp >= 0, mutual_cost),
        "robbed_kong": (robbed, np.where(robbed, 3 * v, 0.0)),
    }


def mutual_shift(g: pd.DataFrame) -> np.ndarray:
    """Per deal, what 互包 moved onto the winner's bound partner: its payment for the win minus what
    it would have paid without 互包 (its own share: the value on a self-draw, all of it when it dealt
    in or declared the robbed kong, nothing on another player's deal-in)."""
    rows = np.arange(len(g))
    mp = g["mutual_payer"].to_numpy().astype(np.int64)
    win = beijing_win_payments(g)
    paid = np.where(mp >= 0, -win[rows, np.clip(mp, 0, 3)], 0.0)
    v = g["value"].to_numpy(dtype=float)
    robbed = g["robbed_kong"].to_numpy(dtype=bool)
    own_discard = g["discarder"].to_numpy() == mp
    deal_in = outcome(g) == "deal_in"
    own = np.where(deal_in, np.where(own_discard, np.where(robbed, 3 * v, v), 0.0), v)
    return np.where(mp >= 0, paid - own, 0.0)


def beijing_events(
    df: pd.DataFrame, base_points: int | float | Mapping | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """How often 烧庄, 互包 and robbed kongs (抢杠) happen, and what they cost, per variant.

    Events (:data:`BEIJING_EVENTS`): ``burn`` (烧庄 happened), ``burn_paid`` (and the deal was won,
    so the dealer paid), ``mutual`` (a 互包 binding formed), ``mutual_paid`` (the winner's bound
    partner paid for the win), ``robbed_kong`` (the win robbed a kong). The cost
    (:data:`EVENT_COSTS`) is the mean payment involved in the deals where the event happens, in
    base units: what the dealer pays for 烧庄, what the bound partner pays for the win, what is paid
    for a robbed kong's win; ``shift_*`` is, for ``mutual_paid``, the part of it 互包 moved onto the
    partner (beyond its own share without 互包).

    Returns
    -------
    DataFrame
        ``[variant,] event, count, n, share, lo, hi, cost, cost_lo, cost_hi, shift, shift_lo,
        shift_hi`` (share of deals, Wilson; costs bootstrapped over deals, NaN without an event).
    """
    need = ["burn_rounds", "mutual_bindings"]
    _beijing(df, "beijing_events", need)
    units = in_base_units(df, base_points)
    rows = []
    for v, g in by_variant(units):
        cells = _event_cost(g)
        shift = mutual_shift(g)
        for event, (hit, cost) in cells.items():
            k, n = int(hit.sum()), len(g)
            lo, hi = wilson_interval(k, n, confidence)
            c = bootstrap_ratio(cost * hit, hit.astype(float), confidence=confidence) if k else (np.nan,) * 3
            s = (
                bootstrap_ratio(shift * hit, hit.astype(float), confidence=confidence)
                if k and event == "mutual_paid"
                else (np.nan,) * 3
            )
            row = {"event": event, "count": k, "n": n, "share": k / n if n else np.nan}
            row |= {"lo": float(lo), "hi": float(hi), "cost": c[0], "cost_lo": c[1], "cost_hi": c[2]}
            row |= {"shift": s[0], "shift_lo": s[1], "shift_hi": s[2]}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


# --------------------------------------------------------------------------- across families

COMPARISON_METRICS = {
    "deals_won_share": "share of deals someone wins (not an exhaustive draw); not a player's 和了率, "
    "which is per seat-deal (about a quarter of it)",
    "exhaustive_draw": "share of deals ending in an exhaustive draw (荒庄 / 荒牌)",
    "self_draw": "share of deals won by self-draw (自摸)",
    "deal_in": "share of deals won on another player's tile (Daqing: 点炮 and 点黑炮; Beijing: a discard "
    "or a robbed kong): deal-ins per deal",
    "draws_mean": "tiles drawn from the live wall in a deal, mean",
    "ready_k6_dealer": "dealer ready by its own 6th draw (Kaplan-Meier; Daqing: declared 上听, "
    "Beijing: 听牌)",
    "ready_k6_non_dealer": "non-dealer ready by its own 6th draw (as ready_k6_dealer)",
    "ready_k12_non_dealer": "non-dealer ready by its own 12th draw (as ready_k6_dealer)",
    "gain_mean": "what the winner collects for the win, mean per win, in base units (Daqing: 2^N points; "
    "Beijing: points / base_points, 烧庄 excluded)",
}


def _winner_gain(g: pd.DataFrame, family: str, base: float) -> np.ndarray:
    """Per deal, what the winner collects for the win (base units; 0 without a winner)."""
    if family == "beijing":
        win = beijing_win_payments(g) / base
    elif family == "two_player":
        win = _tp_matrix(g, "pay").astype(float)
    else:
        win = seat_matrix(g, "pay").astype(float)
    winner = g["winner"].to_numpy().astype(np.int64)
    return np.where(winner >= 0, win[np.arange(len(g)), np.clip(winner, 0, win.shape[1] - 1)], 0.0)


def _labelled_frames(
    frames: Mapping[str, pd.DataFrame] | pd.DataFrame, func: str
) -> Mapping[str, pd.DataFrame]:
    """``frames`` as label -> frame of one variant: a mapping as it is; one results frame split by
    variant (labelled by variant name, or by its family without a variant column)."""
    if isinstance(frames, pd.DataFrame):
        require(frames, ["outcome", "winner"], func)
        out = {}
        for family, part in family_parts(frames):
            for v, g in by_variant(part):
                out[FAMILY_TITLES.get(family, family) if v is None else str(v)] = g
        return out
    if not isinstance(frames, Mapping):
        raise ValueError(
            f"{func}: pass a results DataFrame or a dict of them (label -> frame of one variant), "
            f"not {type(frames).__name__}"
        )
    return frames


def family_comparison(
    frames: Mapping[str, pd.DataFrame] | pd.DataFrame,
    base_points: int | float | Mapping | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """The figures of :data:`COMPARISON_METRICS` for frames of any families, side by side.

    ``frames``: label -> a results frame of one variant (e.g. ``{"Daqing greedy": ...,
    "Beijing greedy": ...}``), or one results frame, each of its variants a label. Each figure is
    estimated on its own frame: the families play other walls, so the table compares levels, with
    an interval each, not paired differences.

    Returns
    -------
    DataFrame
        ``label, family, metric, estimate, lo, hi, n, definition`` (Wilson for shares, bootstrap
        over deals for means, Kaplan-Meier log-log for readiness).
    """
    rows = []
    for label, g in _labelled_frames(frames, "family_comparison").items():
        require(g, ["outcome", "winner", "draws"], "family_comparison")
        fams = set(variant_families(g).values())
        if len(fams) != 1 or len(variants(g)) != 1:
            raise ValueError(
                f"family_comparison: frame {label!r} holds {len(variants(g))} variants; give one variant of "
                "one family per label, or pass the whole frame (its variants become the labels)"
            )
        family = fams.pop()
        base = _base_of(base_points, label) if family == "beijing" else 1.0
        out = outcome(g)
        n = len(g)
        shares = {
            "deals_won_share": out != "exhaustive_draw",
            "exhaustive_draw": out == "exhaustive_draw",
            "self_draw": out == "self_draw",
            "deal_in": np.isin(out, ["deal_in", "deal_in_not_ready"]),
        }
        for m, hit in shares.items():
            lo, hi = wilson_interval(int(hit.sum()), n, confidence)
            rows.append((label, family, m, hit.mean(), float(lo), float(hi), n))
        draws = g["draws"].to_numpy(dtype=float)
        rows.append((label, family, "draws_mean", *bootstrap_ratio(draws, confidence=confidence), n))
        ready = readiness_probability(g.drop(columns="variant", errors="ignore"), estimand="kaplan_meier")
        for k, role in ((6, "dealer"), (6, "non_dealer"), (12, "non_dealer")):
            r = ready[(ready["k"] == k) & (ready["role"].astype(str) == role)].iloc[0]
            rows.append((label, family, f"ready_k{k}_{role}", r["p"], r["lo"], r["hi"], int(r["n"])))
        won = (g["winner"].to_numpy() >= 0).astype(float)
        gain = _winner_gain(g, family, base)
        rows.append(
            (label, family, "gain_mean", *bootstrap_ratio(gain, won, confidence=confidence), int(won.sum()))
        )
    t = pd.DataFrame(rows, columns=["label", "family", "metric", "estimate", "lo", "hi", "n"])
    t["definition"] = t["metric"].map(COMPARISON_METRICS)
    return t


# Daqing fans that apply to a win as a whole (docs/RULES.md, Scoring): code -> (name, frame test)
DAQING_WIN_FANS = {
    "self_draw": "自摸 self-draw",
    "big": "夹 big win",
    "bao": "宝 bao (any kind)",
    "bao_edge": "宝边 bao edge",
    "bao_in_bao": "宝中宝 bao in bao",
    "deal_in_not_ready": "点黑炮 deal-in not ready",
    "dealer": "庄 the winner is the dealer",
}


def win_fan_shares(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Share of wins holding each fan type of the frame's family, Wilson among wins.

    Beijing: :func:`fan_type_shares`. Daqing: the fans that apply to the win as a whole
    (:data:`DAQING_WIN_FANS`; 庄 counts the dealer's wins, since the dealer fan then applies to every
    loser); 门清 and a deal-in's 庄 are fans of single losers and are not among them.

    Returns
    -------
    DataFrame
        ``[variant,] fan, name, count, n, share, lo, hi`` (n = wins).
    """
    require(df, ["outcome", "winner"], "win_fan_shares")
    fams = set(variant_families(df).values())
    if fams == {"beijing"}:
        t = fan_type_shares(df, confidence)
        t["name"] = [f"{BEIJING_FANS[c][0]} ({BEIJING_FANS[c][1]})" for c in t["fan"]]
        return t.drop(columns="fans")
    if fams == {"two_player"}:  # its patterns and limit hands (two_player_pattern_shares has more)
        t = two_player_pattern_shares(df, confidence)
        t["name"] = [f"{n} ({f if f else 'limit'})" for n, f in zip(t["name"], t["fans"], strict=True)]
        return t[[c for c in ("variant", "fan", "name", "count", "n", "share", "lo", "hi") if c in t]]
    if fams != {"daqing"}:
        names = ", ".join(FAMILY_TITLES.get(f, f) for f in sorted(fams))
        raise ValueError(
            f"win_fan_shares: the frame holds several rule families ({names}); split it with family_parts"
        )
    require(df, ["outcome", "winner", "dealer", "big", "bao"], "win_fan_shares")
    rows = []
    for v, g in by_variant(df):
        won = _wins(g)
        out = outcome(g)
        bao = g["bao"].astype(str).to_numpy()
        hits = {
            "self_draw": out == "self_draw",
            "big": g["big"].to_numpy(dtype=bool),
            "bao": bao != "none",
            "bao_edge": bao == "bao_edge",
            "bao_in_bao": bao == "bao_in_bao",
            "deal_in_not_ready": out == "deal_in_not_ready",
            "dealer": g["winner"].to_numpy() == g["dealer"].to_numpy(),
        }
        n = int(won.sum())
        for code, hit in hits.items():
            k = int((won & hit).sum())
            lo, hi = wilson_interval(k, n, confidence)
            row = {"fan": code, "name": DAQING_WIN_FANS[code], "count": k, "n": n}
            row |= {"share": k / n if n else np.nan, "lo": float(lo), "hi": float(hi)}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def gain_distribution(
    frames: Mapping[str, pd.DataFrame] | pd.DataFrame,
    base_points: int | float | Mapping | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """What the winner collects for a win, in base units, for frames of any family.

    Daqing: the winner's ``pay`` (the losers' 2^N points; 1 point = 1 base unit). Beijing: the win's
    payments (:func:`beijing_win_payments`: the value on a deal-in, 3 x value on a self-draw or a
    robbed kong), 烧庄 excluded, in base units (points / base_points). The base units of the two
    families are not an exchange rate: the table compares the shape of what wins are worth.

    Returns
    -------
    DataFrame
        ``label, family, gain, count, n, share, lo, hi, at_least`` (n = wins; Wilson;
        ``at_least`` = share of wins collecting at least ``gain``).
    """
    parts = []
    for label, g in _labelled_frames(frames, "gain_distribution").items():
        require(g, ["outcome", "winner"], "gain_distribution")
        fams = set(variant_families(g).values())
        if len(fams) != 1 or len(variants(g)) != 1:
            raise ValueError(
                f"gain_distribution: frame {label!r} holds {len(variants(g))} variants; give one variant of "
                "one family per label, or pass the whole frame (its variants become the labels)"
            )
        family = fams.pop()
        base = _base_of(base_points, label) if family == "beijing" else 1.0
        won = _wins(g)
        x = _winner_gain(g, family, base)[won]
        values, cnt = np.unique(x, return_counts=True)
        n = np.full(len(values), len(x))
        lo, hi = wilson_interval(cnt, n, confidence)
        part = pd.DataFrame({"label": label, "family": family, "gain": values, "count": cnt, "n": n})
        part["share"] = cnt / len(x) if len(x) else np.nan
        part["lo"], part["hi"] = lo, hi
        part["at_least"] = np.cumsum(cnt[::-1])[::-1] / len(x) if len(x) else np.nan
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


# --------------------------------------------------------------------------- two-player games

TWO_PLAYER_SEATS = (0, 1)
# Fan code -> (Chinese name, fans; 0 for a limit hand, worth the cap) of docs/RULES_TWO_PLAYER.md, in
# the order of the frame's fan_<code> columns (the two-player spec).
TWO_PLAYER_FANS = {f.code: (f.zh, f.value) for f in family_spec("two_player").fans}
TWO_PLAYER_LIMITS = tuple(c for c, (_, f) in TWO_PLAYER_FANS.items() if f == 0)
# Code names that mean another hand in riichi (docs/RULES_TWO_PLAYER.md): the riichi hand they name.
TWO_PLAYER_RIICHI_NAMES = {
    "chiihou": "riichi's renhou (人和); here a win on the dealer's first discard",
    "renhou": "riichi's chiihou (地和); here the non-dealer's self-draw on its first draw",
}


def fan_label(code: str, family: str = "two_player") -> str:
    """A fan or pattern as readers see it: the rule set's Chinese name first, then the code name
    (the ``fan_<code>`` column), and the riichi meaning where the code name's differs.

    >>> fan_label("chiihou")
    "地和 (chiihou: riichi's renhou (人和); here a win on the dealer's first discard)"
    >>> fan_label("seven_pairs", "beijing")
    '七对 (seven_pairs)'
    """
    table = {"two_player": TWO_PLAYER_FANS, "beijing": BEIJING_FANS}.get(family)
    if table is None:
        raise ValueError(f"fan_label: family must be 'two_player' or 'beijing', not {family!r}")
    if code == "limit_any":
        return "役满 (limit_any: any limit hand)"
    if code not in table:
        raise ValueError(f"fan_label: {code!r} is no {family} fan code; codes: {', '.join(table)}")
    name = table[code][0]
    note = TWO_PLAYER_RIICHI_NAMES.get(code) if family == "two_player" else None
    if name == code.replace("_", " "):  # no Chinese name in the rules text (Beijing's plain win)
        return name
    return f"{name} ({code}: {note})" if note else f"{name} ({code})"


# Below this many wins holding a pattern (or not holding it) its share gets the exact binomial
# interval: Wilson's coverage is uneven for a handful of events.
RARE_COUNT = 50
TWO_PLAYER_ROLE_STATS = {
    "win": "P(the seat of the role wins the game), per game",
    "self_draw": "P(the seat of the role wins by self-draw (自摸, a robbed kong included)), per game",
    "deal_in": "P(the seat of the role deals in: the opponent wins on its discard), per game",
    "declared": "P(the seat of the role declares ready (报听) in the game), per seat-game",
    "tenpai": "P(the seat of the role is ever waiting (听牌) in the game), per seat-game",
    "pay": "mean payment of the seat of the role per game (points, winner positive)",
}


def _tp_cols(base: str) -> list[str]:
    return [f"{base}_{s}" for s in TWO_PLAYER_SEATS]


def _tp_matrix(g: pd.DataFrame, base: str) -> np.ndarray:
    return np.column_stack([g[c].to_numpy() for c in _tp_cols(base)])


def two_player_pattern_shares(
    df: pd.DataFrame, confidence: float = CONFIDENCE, rare: int = RARE_COUNT
) -> pd.DataFrame:
    """Share of two-player wins holding each pattern and limit hand (``fan_<code> > 0``), and of
    wins holding any limit hand (``limit_any``).

    A win may hold several patterns, so the shares need not add up to 1 (``plain_win`` is a win
    with none). The interval is Wilson, or the exact Clopper-Pearson one when fewer than ``rare``
    wins hold the pattern (or fewer than ``rare`` do not). ``games_per_win`` is games played per
    win holding it (NaN when none did); ``first_game`` the first game id holding it (-1 none).

    Returns
    -------
    DataFrame
        ``[variant,] fan, name, fans, limit, count, n, share, lo, hi, method, games, games_per_win,
        first_game`` (n = wins; ``fans`` 0 for a limit hand, worth the cap).
    """
    cols = [f"fan_{c}" for c in TWO_PLAYER_FANS]
    require(df, ["winner", "deal", *cols], "two_player_pattern_shares")
    rows = []
    for v, g in by_variant(df):
        won = _wins(g)
        n = int(won.sum())
        deal = g["deal"].to_numpy()
        held = {c: won & (g[f"fan_{c}"].to_numpy() > 0) for c in TWO_PLAYER_FANS}
        held["limit_any"] = np.logical_or.reduce([held[c] for c in TWO_PLAYER_LIMITS])
        for code, hit in held.items():
            k = int(hit.sum())
            exact = k < rare or n - k < rare
            lo, hi = (exact_interval if exact else wilson_interval)(k, n, confidence)
            name, fans = TWO_PLAYER_FANS.get(code, ("役满 any limit hand", 0))
            row = {"fan": code, "name": name, "fans": fans, "limit": fans == 0, "count": k, "n": n}
            row |= {"share": k / n if n else np.nan, "lo": float(lo), "hi": float(hi)}
            row |= {"method": EXACT_METHOD if exact else WILSON_METHOD, "games": len(g)}
            row |= {"games_per_win": len(g) / k if k else np.nan}
            row["first_game"] = int(deal[hit][0]) if k else -1
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def two_player_roles(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Dealer and non-dealer of two-player games: the figures of :data:`TWO_PLAYER_ROLE_STATS`.

    Shares are Wilson over games (one seat of each role a game); the mean payment is bootstrapped
    over games.

    Returns
    -------
    DataFrame
        ``[variant,] role, statistic, estimate, lo, hi, n`` (n = games).
    """
    need = ["winner", "discarder", "dealer", "outcome", *_tp_cols("pay"), *_tp_cols("declared_turn")]
    require(df, [*need, *_tp_cols("tenpai_turn")], "two_player_roles")
    rows = []
    for v, g in by_variant(df):
        n = len(g)
        idx = np.arange(n)
        dealer = g["dealer"].to_numpy().astype(np.int64)
        winner = g["winner"].to_numpy().astype(np.int64)
        disc = g["discarder"].to_numpy().astype(np.int64)
        self_draw = outcome(g) == "self_draw"
        pay = _tp_matrix(g, "pay").astype(float)
        for role, seat in (("dealer", dealer), ("non_dealer", 1 - dealer)):
            hits = {
                "win": winner == seat,
                "self_draw": (winner == seat) & self_draw,
                "deal_in": (winner >= 0) & ~self_draw & (disc == seat),
                "declared": _tp_matrix(g, "declared_turn")[idx, seat] >= 0,
                "tenpai": _tp_matrix(g, "tenpai_turn")[idx, seat] >= 0,
            }
            for stat, hit in hits.items():
                k = int(hit.sum())
                lo, hi = wilson_interval(k, n, confidence)
                row = {"role": role, "statistic": stat, "estimate": k / n, "lo": float(lo), "hi": float(hi)}
                rows.append(({"variant": v} if v is not None else {}) | row | {"n": n})
            e, lo, hi = bootstrap_ratio(pay[idx, seat], confidence=confidence)
            row = {"role": role, "statistic": "pay", "estimate": e, "lo": lo, "hi": hi, "n": n}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def two_player_value_statistics(df: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """E[value] and its spread for two-player games, in points (F x multiplier x points per fan).

    Statistics as :func:`value_statistics`: ``mean``, ``sd``, ``q01`` .. ``q99`` of a win's value,
    ``mean_deal`` (E[value] per game, a drawn game counting 0) and ``F_mean`` (E[F] of a win).

    Returns
    -------
    DataFrame
        ``[variant,] statistic, estimate, lo, hi, n`` (n = wins, games for ``mean_deal``).
    """
    require(df, ["winner", "value", "fan_total"], "two_player_value_statistics")
    rows = []
    for v, g in by_variant(df):
        won = _wins(g).astype(float)
        x = g["value"].to_numpy(dtype=float)
        S = [(x * won)[:, None], (x * x * won)[:, None], won[:, None]]
        st = est._risk_rows([x[won > 0]], S, confidence)[0]
        st.pop("p_loss")
        st["mean_deal"] = (*bootstrap_ratio(x, confidence=confidence), len(g))
        f = g["fan_total"].to_numpy(dtype=float)
        st["F_mean"] = (*bootstrap_ratio(f * won, won, confidence=confidence), int(won.sum()))
        for name, (e, lo, hi, n) in st.items():
            row = {"statistic": name, "estimate": e, "lo": lo, "hi": hi, "n": n}
            rows.append(({"variant": v} if v is not None else {}) | row)
    return ordered(pd.DataFrame(rows), df)


def two_player_dealer_pay(df: pd.DataFrame) -> np.ndarray:
    """Per game, the dealer's payment (points, winner positive): a metric of ``paired_difference``."""
    dealer = require(df, ["dealer", *_tp_cols("pay")], "two_player_dealer_pay")["dealer"].to_numpy()
    return _tp_matrix(df, "pay")[np.arange(len(df)), dealer.astype(np.int64)].astype(float)


two_player_dealer_pay.__name__ = "dealer_pay"


def two_player_declared_share(df: pd.DataFrame) -> np.ndarray:
    """Per game, the share of the two seats that declared ready (报听): its paired difference is the
    change in P(报听) per seat-game."""
    return (
        _tp_matrix(require(df, _tp_cols("declared_turn"), "two_player_declared_share"), "declared_turn") >= 0
    ).mean(axis=1)


two_player_declared_share.__name__ = "declared_share"
