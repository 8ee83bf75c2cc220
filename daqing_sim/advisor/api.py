"""``advise``: which tile to discard (or whether to claim), with ready and win odds and the
expected 2^N value, for the hand in front of you.

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.advise("13m456p789s中中 [345m] 9p", k=2)
>>> best = df.iloc[0]
>>> best["discard"], int(best["shanten"]), int(best["outs"])  # throw 9p: ready on the kanchan 2m
('9p', 0, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim import coldstart, compile_notice
from daqing_sim.advisor import danger as D
from daqing_sim.advisor import exact
from daqing_sim.advisor import hand_calls as H
from daqing_sim.advisor.claims import claim_options
from daqing_sim.advisor.table import TableView, table_view
from daqing_sim.codes import ADDED_KONG, BAO_KINDS, CONCEALED_KONG, KONG, N_KINDS, USER_BASE
from daqing_sim.compile_notice import announce
from daqing_sim.families.daqing.scoring import settle
from daqing_sim.hand.notation import Hand, parse_hand
from daqing_sim.hand.tiles import tile_from_name, tile_name
from daqing_sim.render.frames import AdviceFrame
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int

METHODS = ("exact", "simulate")
MAX_K = 4  # k = 4 can take minutes on a hand one exchange from ready
N_LIVE = 58  # live wall after the deal (docs/RULES.md, "Deal")
NO_DISCARD = "no discard"
# (bao kind, big) pairs a self-draw can score; the pay table is indexed 2 * bao + big
_WIN_KINDS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 1))


@dataclass(frozen=True)
class _Context:
    pool: np.ndarray  # int64 (28,): unseen copies
    wall_left: int
    draws_left: int | None
    k: int
    rules: RuleSet
    enc: np.ndarray
    seat: int
    dealer: int
    concealed: tuple[bool, ...]
    kongs: int
    view: TableView

    def dangers(self, counts, mk, mt, nm) -> np.ndarray:
        """(4, 28): the danger of discarding each kind from ``counts`` vs each ready seat."""
        if not self.view.ready:
            return np.zeros((4, N_KINDS))
        obs = D.observation_for(counts, mk, mt, nm, self.view, self.wall_left, self.dealer, self.rules)
        return D.danger_by_kind(obs, self.view.ready)

    def no_danger(self) -> dict[str, float]:
        """The danger columns of a row without a discard."""
        return {"danger": 0.0, **{f"danger_s{r}": 0.0 for r in self.view.ready}}

    def pay_table(self, extra_kongs: int = 0) -> np.ndarray:
        """The seat's income from a self-draw win, ``2 * bao_kind + big`` (settle semantics)."""
        pay = np.zeros(8)
        for bao, big in _WIN_KINDS:
            pay[2 * bao + big] = settle(
                winner=self.seat,
                dealer=self.dealer,
                method="self_draw",
                big=bool(big),
                bao=BAO_KINDS[bao],
                concealed=self.concealed,
                winner_kongs=self.kongs + extra_kongs,
                rules=self.rules,
            )[self.seat]
        return pay

    def draws(self, default: int) -> int:
        return default if self.draws_left is None else self.draws_left


def _seat(value, name: str) -> int:
    v = check_int(value, name)
    if v > 3:
        raise ValueError(f"{name}={v} is out of range: seats are 0, 1, 2, 3")
    return v


def _tile(value, name: str) -> int:
    if isinstance(value, str):
        return tile_from_name(value)
    t = check_int(value, name)
    if t >= N_KINDS:
        raise ValueError(f"{name}={t} is not a tile kind 0-27: write it as e.g. '5m' or '中'")
    return t


def _seen_counts(seen) -> np.ndarray:
    if seen is None:
        return np.zeros(N_KINDS, dtype=np.int64)
    if isinstance(seen, str):
        return parse_hand(seen, require_full=False).total_counts().astype(np.int64)
    arr = np.asarray(seen)
    if arr.shape != (N_KINDS,) or not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() > 4:
        raise ValueError(
            f"seen must be tiles in hand notation (e.g. '19m中 [345p]') or 28 counts of 0-4, not {seen!r:.60}"
        )
    return arr.astype(np.int64)


def _unseen(hand: Hand, seen: np.ndarray, claim: int | None) -> np.ndarray:
    """Copies of each kind the seat has not seen (``table_view`` has checked that at most four
    are held, seen and claimed)."""
    held = hand.total_counts().astype(np.int64) + seen
    if claim is not None:
        held[claim] += 1
    return 4 - held


def _concealed(concealed, ready: tuple[int, ...], rules: RuleSet) -> tuple[bool, ...]:
    if concealed is None:  # a ready seat has opened its door (开门)
        return tuple(not (s in ready and rules.require_open) for s in range(4))
    if isinstance(concealed, str) or not isinstance(concealed, Sequence | np.ndarray) or len(concealed) != 4:
        raise ValueError(f"concealed must be four True/False values, one per seat, not {concealed!r}")
    return tuple(bool(c) for c in concealed)


def _ready_seats(ready: Iterable[int], seat: int) -> tuple[int, ...]:
    if isinstance(ready, str) or not isinstance(ready, Iterable):
        raise ValueError(f"ready must be a list of seat numbers, e.g. ready=(1, 3), not {ready!r}")
    seats = tuple(sorted({_seat(s, "ready seat") for s in ready}))
    if seat in seats:
        raise ValueError(f"ready lists the advised seat {seat}: give only the opponents who are ready")
    return seats


def _outs_args(counts, mk, mt, nm, pool, enc, tabs) -> tuple:
    """The arguments of ``outs_k`` as :func:`_outs` passes them (one signature, one compile)."""
    lower = np.zeros(N_KINDS, dtype=np.uint8)
    c = np.ascontiguousarray(counts, dtype=np.int64)
    return c, mk, mt, nm, np.asarray(pool, dtype=np.int64), enc, tabs, lower


def _outs(counts, mk, mt, nm, pool, enc) -> tuple[int, np.ndarray]:
    """The Daqing shanten of a 13-tile state and the kinds whose draw lowers it (``outs_k``)."""
    coldstart.wait("advise_outs")  # a helper compiling outs_k: load it from the cache instead
    args = _outs_args(counts, mk, mt, nm, pool, enc, H.tables())
    shanten = exact.outs_k(*args)
    return int(shanten), args[-1]


def warm_outs() -> None:
    """Compile (or load) the wait set's kernel and then ``outs_k`` for the argument types
    :func:`advise` passes, without building the lookup tables (stand-ins of their types): the
    job of the helper process :func:`advise` starts on a cold cache (:mod:`daqing_sim.coldstart`)
    while this one builds the tables. The wait set comes first: the values' search calls it too,
    and finds it in the cache by the time it needs it."""
    from numba import typeof

    from daqing_sim.hand.kernels import wait_set_k
    from daqing_sim.hand.tables import type_stand_ins

    tabs = type_stand_ins()
    hand = parse_hand("123m456p789s112m中")
    mk, mt, nm = hand.meld_arrays()
    enc = RuleSet().encode()
    wait_args = exact.wait_set_stand_ins(mk, mt, nm, enc, tabs)
    wait_set_k.compile(tuple(typeof(a) for a in wait_args))
    args = _outs_args(hand.counts, mk, mt, nm, np.full(N_KINDS, 2), enc, tabs)
    exact.outs_k.compile(tuple(typeof(a) for a in args))


def _start_outs_helper() -> None:
    """On a cold cache, compile ``outs_k`` (the Daqing shanten's kernels) in a helper process
    while this one builds the tables and compiles the values (the search): the two share no
    kernel but the wait set."""
    outs, *values = (
        compile_notice.is_cached("daqing_sim.advisor.exact", k)
        for k in ("outs_k", "discard_values_k", "state_value_k")
    )
    if outs or all(values):  # nothing to compile, or nothing else to compile meanwhile
        return
    coldstart.start("advise_outs", "from daqing_sim.advisor.api import warm_outs; warm_outs()")


def _shape_cols(ctx: _Context, counts, mk, mt, nm, draws: int) -> dict:
    """Shanten, outs and own draws of one 13-tile state."""
    shanten, lower = _outs(counts, mk, mt, nm, ctx.pool, ctx.enc)
    outs = [t for t in range(N_KINDS) if lower[t]]
    return {
        "shanten": shanten,
        "outs": int(sum(ctx.pool[t] for t in outs)),
        "out_tiles": " ".join(f"{tile_name(t)}x{ctx.pool[t]}" for t in outs),
        "draws": draws,
    }


def _state_row(ctx: _Context, counts, mk, mt, nm, draws: int, vals: np.ndarray) -> dict:
    """Shanten and outs of one 13-tile state, beside its exact values ``vals``."""
    row = _shape_cols(ctx, counts, mk, mt, nm, draws)
    for i in range(ctx.k):
        row[f"p_ready_{i + 1}"] = float(vals[i])
    row["p_win"] = float(vals[ctx.k])
    row["ev"] = float(vals[ctx.k + 1])
    return row


def _single_row(ctx: _Context, counts, mk, mt, nm, draws: int, pay: np.ndarray) -> dict:
    """The row of a 13-tile state (no discard to choose)."""
    c = np.ascontiguousarray(counts, dtype=np.int64)
    vals = np.zeros(ctx.k + 2)
    exact.state_value_k(c, mk, mt, nm, ctx.pool, ctx.k, draws, ctx.enc, H.tables(), pay, vals)
    return {**_state_row(ctx, c, mk, mt, nm, draws, vals), **ctx.no_danger()}


def _rank_key(row: dict, k: int) -> tuple:
    return (
        -round(row["ev"], 12),
        -round(row["p_win"], 12),
        *(-round(row[f"p_ready_{i}"], 12) for i in range(k, 0, -1)),
        row["shanten"],
        -row["outs"],
    )


def _discard_rows(ctx: _Context, counts, mk, mt, nm, draws: int, pay: np.ndarray, action: str) -> list[dict]:
    """One row per kind held in the 14-tile ``counts``: the state after discarding it."""
    c14 = np.ascontiguousarray(counts, dtype=np.int64)
    vals = np.zeros((N_KINDS, ctx.k + 2))
    exact.discard_values_k(c14, mk, mt, nm, ctx.pool, ctx.k, draws, ctx.enc, H.tables(), pay, vals)
    dangers = ctx.dangers(c14, mk, mt, nm)
    rows = []
    for d in range(N_KINDS):
        if c14[d] == 0:
            continue
        c = c14.copy()
        c[d] -= 1
        rows.append(
            {
                "action": action,
                "discard": tile_name(d),
                **_state_row(ctx, c, mk, mt, nm, draws, vals[d]),
                **D.combine(dangers, ctx.view.ready, d),
            }
        )
    return rows


def _claim_rows(ctx: _Context, hand: Hand, claim: int, claim_from: int) -> list[dict]:
    w = ctx.wall_left
    gap = (ctx.seat - claim_from) % 4  # the seat's first own draw is the gap-th wall tile
    mk, mt, nm = hand.meld_arrays()
    pay = ctx.pay_table()
    pass_draws = ctx.draws((w - gap) // 4 + 1 if w >= gap else 0)
    rows = [
        {
            "action": "pass",
            "discard": NO_DISCARD,
            **_single_row(ctx, hand.counts, mk, mt, nm, pass_draws, pay),
        }
    ]
    options = claim_options(hand.counts, mk, mt, nm, claim, gap == 1, w, ctx.rules)
    for opt in options:
        if opt.action == "kong":  # the replacement tile is drawn at once, from the back
            row = {"action": opt.label, "discard": NO_DISCARD}
            draws = ctx.draws(1 + (w - 1) // 4)
            row.update(
                _single_row(
                    ctx, opt.counts, opt.meld_kind, opt.meld_tile, opt.n_melds, draws, ctx.pay_table(1)
                )
            )
            rows.append(row)
            continue
        cands = _discard_rows(
            ctx, opt.counts, opt.meld_kind, opt.meld_tile, opt.n_melds, ctx.draws(w // 4), pay, opt.label
        )
        rows.append(min(cands, key=lambda r: _rank_key(r, ctx.k)))
    return rows


def advise(
    hand: Hand | str,
    *,
    seen=None,
    wall_left: int | None = None,
    draws_left: int | None = None,
    ready: Iterable[int] = (),
    dealer: int = 0,
    seat: int = 0,
    concealed: Sequence[bool] | None = None,
    claim: str | int | None = None,
    claim_from: int | None = None,
    ponds: Mapping[int, str] | None = None,
    melds: Mapping[int, str] | None = None,
    passed: Mapping[int, str] | None = None,
    k: int = 3,
    rules: RuleSet = RuleSet(),
    method: str = "exact",
    n_sims: int = 2000,
    seed: int = 0,
    n_jobs: int = 1,
    field: Sequence[Any] | None = None,
    confidence: float = 0.95,
    flowers: str | Sequence[str | int] = (),
) -> pd.DataFrame:
    """Rate every discard of a 14-tile hand (or the claims on a discarded tile), best first.

    **The exact model** (``method="exact"``) is a single-player game: the seat alone plays on.

    * Tiles. The unseen tiles are the 112 less the hand (melds included), ``seen`` and the
      ``claim`` tile; a discarded tile becomes seen. The seat's own future draws are a uniform
      random sequence without replacement from the unseen tiles (the others' hands, the wall
      and the bao are exchangeable from its point of view). The seat uses no information that
      arrives later (others' discards).
    * The others never win and never claim; kongs, 换宝 (bao replacement) and the last-tiles
      rule play no part after the decision. The seat wins only by self-draw (it never wins on
      a discard).
    * Ready means a ready *shape*: a non-empty Daqing wait set, as ``daqing_shanten`` counts
      it. Open door and 手把一, which need claims, are not required. The first discard that
      leaves a ready shape declares it, and the hand is then kept (as ``lock_after_ready``).
    * Winning. A ready hand wins by self-draw on its first own draw of a winning tile or of
      the bao. The bao is unknown to the seat: its kind is that of one unseen tile, uniform
      over the tiles still unseen when the hand becomes ready, and that tile is not drawn. A
      drawn bao that is itself a winning tile scores at face value as 宝边 (small) or 宝中宝
      (big); otherwise it is wild (摸宝) for the best-scoring wait, big first. Under
      ``bao_kan_instant`` (宝卡) a bao on a kanchan wait wins at once as 宝中宝.
    * Payments are those of :func:`daqing_sim.families.daqing.scoring.settle` for a self-draw by
      ``seat`` (dealer fan, each loser's concealment, self-draw, big, bao fans, kong fans of
      the seat's melds under ``kong_fan``). Nobody else wins, so the result is never negative.
    * Horizon. The seat has ``draws`` own draws before the wall runs out (column ``draws``;
      from ``draws_left``, else from ``wall_left`` with three other draws between two of its
      own). It must become ready within the first ``k`` of them (the search depth); a hand not
      ready by then counts as not winning. So ``p_win`` and ``ev`` are exact for the whole
      deal when ``k >= draws - 1`` and lower bounds otherwise (``df.attrs["exact_to_wall_end"]``).
    * Each probability column is the best value any play achieves for that column (the best
      plays for ``p_ready_1`` and for ``ev`` may differ); ``recommended`` is the row with the
      highest ``ev``, ties broken by ``p_win``, then ``p_ready_k`` .. ``p_ready_1``.

    **The simulated model** (``method="simulate"``) plays the rest of the deal ``n_sims``
    times on the engine, with the four seats of ``field`` (default four ``expert`` players):

    * Worlds. Each simulation draws a world consistent with what the seat sees
      (:mod:`daqing_sim.advisor.world`): every ``ready`` opponent gets a hand that is actually
      ready (constructed from sets and a pair, with a wait missing its ``passed`` kinds, and
      an open door under ``require_open``: its ``melds``, else one chi or peng of the seen
      tiles outside the ponds, else of the unseen tiles; so, as in the exact model, a ready
      seat needs no ``melds``), the other opponents uniform concealed tiles, then the bao and
      the ``wall_left`` live tiles are drawn from the unseen rest (the rest is out of play).
      Ponds, melds and passed tiles are on the table as given; opponents are ready since
      before their last discard.
    * Play. The engine is paused at the seat's decision, answered with the candidate discard
      (declaring ready when it can) or, for a 13-tile hand, left to draw; then every seat plays
      by its ``field`` entry to the deal's end: claims, deal-ins, kongs, 换宝 and the
      last-tiles rule included. ``concealed`` and ``draws_left`` are not used.
    * Columns. ``p_ready_i``: the seat has *declared* ready (open door required) within ``i``
      own draws after the decision; ``p_win``: the seat won the deal; ``ev``: its mean
      result (2^N units, losses included). Each has ``_lo`` / ``_hi``, a ``confidence``
      interval (Clopper-Pearson for probabilities, a t interval over worlds for ``ev``).
      ``ev_vs_best`` is the mean paired difference to the best row, with its t interval:
      every candidate meets the same worlds (common random numbers), so it is much narrower
      than the intervals of ``ev``. Rows are ranked by ``ev``, then ``p_win``.
    * Worlds depend on ``seed`` and their index only: the same answer for every ``n_jobs``.

    **Beijing and two-player hands** (``rules=RuleSet(family="beijing")`` or
    ``"two_player"``; :mod:`daqing_sim.advisor.family_advise`). The exact model is the same
    single-player game on 34 kinds with the family's rules:

    * Tiles: the unseen tiles are the 136 less the hand, ``seen``, the ``claim`` tile and (two-
      player) the face-up ``flowers``; there is no bao. Two-player's seat draws from every unseen
      tile alike (it cannot tell the 65 out of play from the wall).
    * Ready: a non-empty wait set of the family (Beijing's four melds and a pair, seven pairs;
      two-player's with thirteen orphans too); kept once reached. Nobody declares under Beijing;
      under two-player a concealed hand made ready later declares 报听 (门清报听, one fan: the model
      locks the hand anyway), and each discard that leaves a concealed hand ready has a second
      row, ``declare``, with the fan (``discard`` rows do not declare); a 13-tile row (``draw``,
      ``pass``) counts a ready concealed hand as declared.
    * Wins and ``ev``, in the family's own units: a self-drawn win on a kind is worth what
      :func:`daqing_sim.score_win` gives it (Beijing: each of the three others pays base x F,
      half for an open hand; two-player: the opponent pays F x multiplier x points per fan, with
      门清自摸, the flowers and 报听), with the last-tile fan (海底捞月 / 河底捞月) when the seat's
      last own draw is the wall's last tile and, two-player, ``extra_draws`` more draws after the
      wall's end for the ready seat (海底捞月, its fan). Not modelled: 杠上开花, 互包, 烧庄, 天听.
    * Horizon: Beijing's 69 tiles to draw after the deal (``wall_left`` default ``69 - seen``),
      four seats; two-player's 44 (default ``44 - seen``), two seats.
    * ``claim``: a ``win`` row (the discarder pays the value; the engine takes every win of an
      undeclared hand at once, so it comes first), ``pass``, chi from the previous seat, peng,
      kong; no condition (推倒和).
    * Danger, Beijing: against each other seat r, the Beijing expert's P(r is ready) x P(the kind
      is one of r's waits | ready), read from ``ponds`` and ``melds``
      (:mod:`daqing_sim.families.beijing.danger`; the ponds' order is taken as given, each discard
      a change of hand); ``danger`` combines the three. Two-player: against the opponent only
      once it has declared (``ready=(1,)``), P(the kind is one of its waits) by the same wait
      model, 0 for a kind it let pass (``passed``), as the two-player expert folds to those.
    * Options of other families are errors: ``concealed`` (Daqing), ``ready`` and ``passed``
      under Beijing (nobody declares), ``flowers`` outside two-player; seats are 0-1 under
      two-player.
    * ``method="simulate"``: the position is loaded into a paused Beijing or two-player deal and
      the search evaluator (:class:`daqing_sim.search.evaluator.Evaluator`) plays each candidate
      to the deal's end in ``n_sims`` worlds dealt from the unseen tiles, with ``field`` (one
      built-in strategy name per seat): ``ev`` (the seat's mean payment, t interval),
      ``ev_vs_best``, ``p_win`` (a positive payment); ``p_ready_i`` are not measured (NaN).
      Two-player discards leaving a concealed hand ready are weighed declared (报听) and not. It
      runs in this process (``n_jobs`` is not used).

    **Danger** (both methods): ``danger_s{r}`` is the expert's estimate that the discard deals
    in to ready seat ``r`` (:func:`daqing_sim.families.daqing.expert.tile_danger` on what the seat
    sees: unseen counts, ``r``'s pond and melds; 0 for a kind ``r`` let pass, as a ready seat
    always wins when it can) and ``danger = 1 - prod_r (1 - danger_s{r})``, the chance it deals
    in to some ready seat if their waits were independent; 0 with nobody ready and for rows
    without a discard. The exact model does not use it (the others never win there).

    Parameters
    ----------
    hand : Hand or str
        The seat's hand: 14 tiles (its own draw included) to choose a discard, or 13 tiles.
    seen : str or array_like, optional
        The tiles the seat sees besides its own: discards and the others' exposed melds, in
        hand notation (``"19m中 [345p]"``) or 28 counts. The tiles of ``ponds`` and ``melds``
        are seen whether or not they are listed here too: a kind counts as often as ``seen``
        lists it, or ``ponds`` and ``melds`` together, whichever is more (so ``seen="19m"``
        with ``ponds={1: "19m"}`` is two tiles seen, not four).
    wall_left : int, optional
        Tiles left in the live wall now. Default ``58 - tiles seen``, which is exact when nobody
        has claimed (each discard on the table followed one draw).
    draws_left : int, optional
        The seat's own draws to come, overriding ``wall_left`` for every row (exact model).
    ready : iterable of int
        Opponent seats that are ready: the ``danger`` columns, the default ``concealed``
        (a ready seat has opened its door) and the simulated worlds.
    dealer, seat : int
        Seats 0-3 of the dealer (庄) and of the advised player.
    concealed : sequence of 4 bool, optional
        Whether each seat is still concealed (门清), which is a fan of that loser; the seat's
        own entry is ignored. Default: every opponent not in ``ready`` (exact model).
    claim : str or int, optional
        A tile just discarded by ``claim_from``, for a 13-tile hand: rows for passing and each
        legal chi, peng and kong (the chi and peng rows with their best discard). Exact model.
    claim_from : int, optional
        The discarder's seat; default the previous seat (上家), from whom chi is allowed.
    ponds : dict of int to str, optional
        Seats' discards in order, e.g. ``{1: "19m中5s"}`` (seen tiles; the advised seat's own too).
    melds : dict of int to str, optional
        Other seats' exposed melds, e.g. ``{1: "[345p]"}`` (seen tiles).
    passed : dict of int to str, optional
        Kinds each ready seat let pass since it declared (its own later discards included),
        e.g. ``{1: "9m5s"}``: safe against it. Each must be seen.
    k : int
        Own draws counted for ``p_ready_1`` .. ``p_ready_k`` (exact: searched, 1-4; ``k=3``
        takes well under a second, ``k=4`` can take minutes on a hand one exchange from ready).
    rules : RuleSet
        Rule flags.
    method : {"exact", "simulate"}
        The model (above).
    n_sims, seed, n_jobs : int
        Simulated worlds, their seed, and worker processes (simulated model).
    field : sequence of 4, optional
        The seats' players after the decision (simulated model): strategy names,
        ``(name, {knob: value})`` or ``ds.Player`` objects, as for :func:`daqing_sim.simulate`.
        Default four ``"expert"``.
    confidence : float
        Level of the simulated intervals (default 0.95).
    flowers : str or sequence of tiles
        Two-player: the face-up flower tiles (at most ``rules.flower_tiles``), e.g. ``"5p"``.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, best first: ``action`` (``discard``, ``draw``, ``pass``,
        ``chi [345m]``, ``peng [777s]``, ``kong [7777s]``), ``discard`` (the tile, or
        ``"no discard"``), ``shanten`` (Daqing, after the discard), ``outs`` (live copies of
        the kinds that lower it) and ``out_tiles``, ``draws``, ``p_ready_1`` .. ``p_ready_k``,
        ``p_win``, ``ev`` (2^N units), the simulated intervals, ``danger`` and ``danger_s{r}``,
        and ``recommended``. ``df.attrs`` holds the model inputs.

    Examples
    --------
    Throw 4m for a kanchan on 2m (4 live copies), or 1m for a two-sided 2m-5m (7):

    >>> import daqing_sim as ds
    >>> df = ds.advise("134m456p789s中中 [345m]", k=1)
    >>> df.set_index("discard").loc[["4m", "1m"], ["shanten", "outs"]].values.tolist()
    [[0, 4], [0, 7]]
    >>> ds.advise("46m55p789s1s中中 [345m]", claim="5m")["action"].tolist()
    ['chi [456m]', 'pass']

    Simulated, against a ready seat 1 that let 9s pass (9s is safe, 5p is not):

    >>> df = ds.advise("14m456p789s中中5p [345m]", ready=(1,), melds={1: "[222p]"}, seen="9s",
    ...                passed={1: "9s"}, method="simulate", n_sims=50, seed=1).set_index("discard")
    >>> float(df.loc["9s", "danger"]), bool(df.loc["5p", "danger"] > 0)
    (0.0, True)

    Beijing (points: three losers pay 1,000 x F for a concealed self-draw) and two-player (报听):

    >>> bj = ds.advise("234m456p678s2233z9m", rules=ds.RuleSet(family="beijing"), k=1).iloc[0]
    >>> bj["discard"], int(bj["shanten"]), round(bj["ev"] / bj["p_win"])
    ('9m', 0, 3000)
    >>> tp = ds.advise("234m456p678s2233z9m", rules=ds.RuleSet(family="two_player"), k=1)
    >>> tp[["action", "discard"]].head(2).values.tolist()
    [['declare', '9m'], ['discard', '9m']]
    """
    if method not in METHODS:
        raise ValueError(f"method={method!r} is unknown: use 'exact' or 'simulate'")
    if not isinstance(rules, RuleSet):
        raise ValueError(f"rules must be a RuleSet, not {type(rules).__name__}")
    if rules.family != "daqing":
        return _family_advise(
            hand,
            rules=rules,
            seen=seen,
            wall_left=wall_left,
            draws_left=draws_left,
            ready=ready,
            dealer=dealer,
            seat=seat,
            concealed=concealed,
            claim=claim,
            claim_from=claim_from,
            ponds=ponds,
            melds=melds,
            passed=passed,
            k=k,
            flowers=flowers,
            method=method,
            n_sims=n_sims,
            seed=seed,
            n_jobs=n_jobs,
            field=field,
            confidence=confidence,
        )
    if flowers:
        raise ValueError(
            "flowers= is a two-player option (the face-up flower tiles): Daqing has none, leave it out"
        )
    hand = hand if isinstance(hand, Hand) else parse_hand(hand)
    seat = _seat(seat, "seat")
    dealer = _seat(dealer, "dealer")
    k = check_int(k, "k", minimum=1)
    if k > MAX_K and method == "exact":
        raise ValueError(f"k={k} is too deep for the exact search: use 1 to {MAX_K} own draws")
    claim_t = None if claim is None else _tile(claim, "claim")
    if claim_t is not None and hand.size != 13:
        raise ValueError(f"claim needs a 13-tile hand (the tile is someone else's discard); {hand} has 14")
    ready_t = _ready_seats(ready, seat)
    view = table_view(
        hand, _seen_counts(seen), ponds=ponds, melds=melds, passed=passed, ready=ready_t, seat=seat,
        claim=claim_t,
    )  # fmt: skip
    pool = _unseen(hand, view.seen, claim_t)
    n_seen = int(view.seen.sum()) + (claim_t is not None)
    if wall_left is None:
        wall_left = max(0, min(N_LIVE - n_seen, int(pool.sum()) - 1))
    wall_left = check_int(wall_left, "wall_left")
    if wall_left > min(N_LIVE, int(pool.sum()) - 1):
        raise ValueError(
            f"wall_left={wall_left} is impossible: at most {min(N_LIVE, int(pool.sum()) - 1)} "
            "(the live wall has 58 tiles, all unseen, and the bao is unseen too)"
        )
    if draws_left is not None:
        draws_left = check_int(draws_left, "draws_left")
    kongs = sum(m.code in (KONG, CONCEALED_KONG, ADDED_KONG) for m in hand.melds)
    ctx = _Context(
        pool, wall_left, draws_left, k, rules, rules.encode(), seat, dealer,
        _concealed(concealed, ready_t, rules), kongs, view,
    )  # fmt: skip
    if method == "simulate":
        if claim_t is not None:
            raise ValueError(
                "claim with method='simulate' is not available yet: use method='exact' for claims"
            )
        sim = _SimArgs(
            check_int(n_sims, "n_sims", minimum=1),
            check_int(seed, "seed"),
            check_int(n_jobs, "n_jobs", minimum=1),
            _confidence(confidence),
            *_field(field),
        )
        from daqing_sim.players.seats import table_players

        announce("advise_simulate", table_players(sim.codes))
        rows = _simulate_rows(ctx, hand, sim)
        rows.sort(key=lambda r: (-r["ev"], -r["p_win"], *(-r[f"p_ready_{i}"] for i in range(k, 0, -1))))
    else:
        announce("advise_claim" if claim_t is not None else "advise" if hand.size == 14 else "advise_draw")
        _start_outs_helper()
        rows = _exact_rows(ctx, hand, claim_t, claim_from)
        rows.sort(key=lambda r: _rank_key(r, k))
    df = AdviceFrame(rows)  # drawn with tiles in Jupyter (daqing_sim.render.frames)
    df["recommended"] = np.arange(len(df)) == 0
    df.attrs.update(
        method=method,
        hand=str(hand),
        k=k,
        wall_left=wall_left,
        unseen=int(pool.sum()),
        ready=ready_t,
        exact_to_wall_end=bool(k >= df["draws"].max() - 1),
    )
    if method == "simulate":
        df.attrs.update(n_sims=sim.n_sims, seed=sim.seed, confidence=sim.confidence, field=sim.names)
    return df


def _family_advise(hand, *, rules: RuleSet, k: int, method: str, n_sims, seed, n_jobs, field, confidence,
                   **args) -> pd.DataFrame:  # fmt: skip
    """:func:`advise` for Beijing and two-player hands (:mod:`daqing_sim.advisor.family_advise`)."""
    from daqing_sim.advisor.family_advise import advise_family

    k = check_int(k, "k", minimum=1)
    if k > MAX_K and method == "exact":
        raise ValueError(f"k={k} is too deep for the exact search: use 1 to {MAX_K} own draws")
    sim = None
    if method == "simulate":
        sim = _SimArgs(
            check_int(n_sims, "n_sims", minimum=1),
            check_int(seed, "seed"),
            check_int(n_jobs, "n_jobs", minimum=1),
            _confidence(confidence),
            *_field_names(field, 2 if rules.family == "two_player" else 4),
        )
    rows, pos = advise_family(hand, rules=rules, k=k, method=method, sim=sim, **args)
    df = AdviceFrame(rows)  # drawn with tiles in Jupyter (daqing_sim.render.frames)
    df["recommended"] = np.arange(len(df)) == 0
    df.attrs.update(
        method=method, hand=pos.attrs["hand"], k=k,
        wall_left=pos.wall_left, unseen=int(pos.pool.sum()), ready=tuple(pos.view.ready), family=rules.family,
        exact_to_wall_end=bool(k >= df["draws"].max() - 1),
    )  # fmt: skip
    if sim is not None:
        df.attrs.update(n_sims=sim.n_sims, seed=sim.seed, confidence=sim.confidence, field=sim.names)
    return df


def _exact_rows(ctx: _Context, hand: Hand, claim_t: int | None, claim_from: int | None) -> list[dict]:
    seat, wall_left = ctx.seat, ctx.wall_left
    if claim_t is not None:
        cf = (seat - 1) % 4 if claim_from is None else _seat(claim_from, "claim_from")
        if cf == seat:
            raise ValueError(f"claim_from={cf} is the advised seat: a claimed tile comes from another seat")
        return _claim_rows(ctx, hand, claim_t, cf)
    if hand.size == 14:
        return _discard_rows(
            ctx, hand.counts, *hand.meld_arrays(), ctx.draws(wall_left // 4), ctx.pay_table(), "discard"
        )
    mk, mt, nm = hand.meld_arrays()
    draws = ctx.draws((wall_left + 3) // 4)  # the seat draws next
    return [
        {
            "action": "draw",
            "discard": NO_DISCARD,
            **_single_row(ctx, hand.counts, mk, mt, nm, draws, ctx.pay_table()),
        }
    ]


@dataclass(frozen=True)
class _SimArgs:
    n_sims: int
    seed: int
    n_jobs: int
    confidence: float
    names: tuple[str, ...]
    codes: np.ndarray
    knobs: np.ndarray
    players: tuple[Any, ...]


def _confidence(value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 < float(value) < 1.0:
        raise ValueError(f"confidence={value!r} must be a level between 0 and 1, e.g. 0.95")
    return float(value)


def _field(field) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, tuple[Any, ...]]:
    """Names, codes, knobs and Python players (None for engine seats) of the simulated field."""
    from daqing_sim.players.interface import Player
    from daqing_sim.players.registry import encode_strategies

    seats = ("expert",) * 4 if field is None else field
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise ValueError(f"field must be four seat strategies, e.g. ('expert',) * 4, not {field!r}")
    names, codes, knobs = encode_strategies(list(seats))
    if (codes >= USER_BASE).any():
        raise ValueError(
            "field has a JittedPlayer: the simulated advisor plays stepped deals, which take built-in "
            "strategies and ds.Player objects only"
        )
    return names, codes, knobs, tuple(p if isinstance(p, Player) else None for p in seats)


def _field_names(field, n: int = 4) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, tuple[Any, ...]]:
    """The simulated field of a Beijing (``n`` 4) or two-player (2) position: one built-in
    strategy name per seat (the search evaluator's rollout field takes no Python player)."""
    seats = ("expert",) * n if field is None else (field,) * n if isinstance(field, str) else field
    if not isinstance(seats, Sequence) or len(seats) != n or not all(isinstance(s, str) for s in seats):
        words, family = ("four", "Beijing") if n == 4 else ("two", "two-player rules")
        raise ValueError(
            f"field must be {words} built-in strategy names under {family}, e.g. ('expert',) * {n}, "
            f"not {field!r:.60}"
        )
    return tuple(seats), np.zeros(0, dtype=np.int64), np.zeros(0), ()


def _simulate_rows(ctx: _Context, hand: Hand, sim: _SimArgs) -> list[dict]:
    """The rows of the simulated model (see :func:`advise`)."""
    # imported here: the exact method needs neither the engine nor scipy
    from daqing_sim.advisor import simulate as S
    from daqing_sim.advisor.world import PHASE_DISCARDED, PHASE_DRAW, WorldSpec, needed_tiles

    view, w = ctx.view, ctx.wall_left
    mk, mt, nm = hand.meld_arrays()
    visible = view.seen.copy()
    for m in hand.melds:
        if m.exposed:
            for t in m.tiles:
                visible[t] += 1
    meldable = view.seen - view.pond_counts() - view.meld_counts()
    need = needed_tiles(view.melds, ctx.seat, view.ready, ctx.rules.require_open, meldable)
    if w > int(ctx.pool.sum()) - need:
        raise ValueError(
            f"wall_left={w} is impossible with the others' hands: {int(ctx.pool.sum())} unseen tiles, "
            f"{need} of them in the others' concealed hands and the bao: at most {int(ctx.pool.sum()) - need}"
        )
    spec = WorldSpec(
        seat=ctx.seat, dealer=ctx.dealer, counts=hand.counts.astype(np.uint8), mk=mk, mt=mt, nm=nm,
        unseen=ctx.pool.copy(), meldable=meldable,
        visible=visible.astype(np.uint8), ponds=view.ponds, melds=view.melds, passed=view.passed,
        ready=view.ready, wall_left=w, rules=ctx.enc, require_open=ctx.rules.require_open,
    )  # fmt: skip
    if hand.size == 14:
        kinds = [d for d in range(N_KINDS) if hand.counts[d]]
        cands = [(PHASE_DISCARDED, d, True) for d in kinds]
        dangers = ctx.dangers(hand.counts, mk, mt, nm)
        base = []
        for d in kinds:
            c = hand.counts.astype(np.int64)
            c[d] -= 1
            base.append(
                {
                    "action": "discard",
                    "discard": tile_name(d),
                    **_shape_cols(ctx, c, mk, mt, nm, w // 4),
                    **D.combine(dangers, view.ready, d),
                }
            )
    else:
        cands = [(PHASE_DRAW, -1, False)]
        base = [
            {
                "action": "draw",
                "discard": NO_DISCARD,
                **_shape_cols(ctx, hand.counts, mk, mt, nm, (w + 3) // 4),
                **ctx.no_danger(),
            }
        ]
    res = S.run(spec, cands, sim.n_sims, sim.seed, sim.n_jobs, sim.codes, sim.knobs, sim.players)
    values = S.summarize(res, ctx.k, sim.confidence)
    return [_order_sim(b, v, ctx.k) for b, v in zip(base, values, strict=True)]


def _order_sim(base: dict, values: dict, k: int) -> dict:
    """Columns of a simulated row in the exact row's order, the intervals beside, danger last."""
    dcols = {c: base.pop(c) for c in list(base) if c.startswith("danger")}
    return {**base, **values, **dcols}
