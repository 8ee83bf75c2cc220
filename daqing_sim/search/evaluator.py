"""The decision evaluator by simulation: a paused decision's candidates played to the end of the
deal in worlds consistent with what the deciding seat sees (docs/DESIGN.md, "Search").

:func:`evaluate_k` takes a deal paused at one seat's decision (a
:class:`~daqing_sim.game.external.SteppedDeal`'s arrays) and, for each of ``n_worlds`` worlds:

* deals the tiles the seat cannot see again, from their multiset (everything the seat does not
  see: the others' concealed tiles, the live wall, the bao unless the seat is ready, the
  replaced baos unless it is ready). A ready opponent's concealed tiles are *constructed* as the
  advisor's worlds are (:mod:`daqing_sim.advisor.world`): sets weighted by their tile
  combinations and a pair, less one tile, kept when the hand may declare (开门, 手把一), waits on
  something and on no tile it let pass; the other opponents' tiles are uniform; the live wall is
  the uniform rest in uniform order. The seats' in-game random streams are drawn too;
* plays every candidate answer from there to the deal's end with the rollout field (the seat
  itself included, after its answer), on the one deal loop (``game.engine._play_deal``), each
  candidate on the same world and the same random streams (common random numbers),

and writes the seat's payment per world and candidate. Only the multiset of the hidden tiles and
the public state are read, so the hidden tiles' places (who holds what, the wall order, an unseen
bao) never change the numbers for the same world seeds (tests/test_search.py checks it).
Public state read as it is: melds, ponds, ready flags, passed tiles, draw counts, the wall's
ends. Not resampled (a known peek, rare): the kind of another seat's concealed kong.

Daqing and Beijing (nobody declares: every opponent's tiles are uniform; the Beijing state's
cached table shanten and first-wait turn of each opponent are forgotten); two-player worlds are
:mod:`daqing_sim.families.two_player.world`'s (the tiles out of play dealt too, a declared 报听
hand constructed to wait). With ``opponents="progress"`` (every family) an opponent that has not
declared is dealt a hand as far along as real ones (:mod:`daqing_sim.search.progress`) instead
of uniform tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

from daqing_sim.families import hooks as fh
from daqing_sim.families.hooks import beijing_state, family_state, two_player_state
from daqing_sim.families.two_player.world import sample_world_tp
from daqing_sim.game.borrow import borrowed
from daqing_sim.game.deal34 import UNKNOWN_SHANTEN
from daqing_sim.game.engine import (
    C_ANSWER,
    C_BACK,
    C_BAO,
    C_DECLARE,
    C_FRONT,
    C_SEAT,
    C_STATUS,
    O_PAY,
    ST_DONE,
    ST_PAUSED,
    _play_deal,
)
from daqing_sim.hand.kernels import may_declare_k, wait_set_k
from daqing_sim.layout import B_SHANTEN
from daqing_sim.players.observation import UNKNOWN
from daqing_sim.search.progress import N_MELD_ROWS, N_SHANTEN, deal_opponent, progress_table
from daqing_sim.search.shapes import draw_ready_shape, seat_streams, take_tile, waits_on

#: tries to construct one ready opponent's hand before dealing it uniform tiles (counted)
MAX_READY_TRIES = 4000


def copy_state(a, b):
    """Copy every array of the deal state ``a`` into ``b`` (same family): jitted only."""
    raise NotImplementedError("copy_state runs inside jitted code only")


@overload(copy_state, inline="always")
def _copy_state(a, b):
    if not isinstance(a, types.BaseNamedTuple):
        return None
    lines = [f"    b.{f}.reshape(-1)[:] = a.{f}.reshape(-1)" for f in a.instance_class._fields]
    ns: dict[str, Any] = {}
    exec("def impl(a, b):\n" + "\n".join(lines) + "\n", ns)  # one line per field of this state type
    return ns["impl"]


@njit(cache=True)
def _ready_hand(u, n_tiles, mk, mt, nm, passed, rules, tabs, rng, v, c, out, wk, wb):
    """Construct the ``n_tiles`` concealed tiles of a ready seat from ``u`` (taken from it) into
    ``out`` with its wait set in ``wk``, ``wb``; False after :data:`MAX_READY_TRIES`."""
    for _ in range(MAX_READY_TRIES):
        if not draw_ready_shape(u, n_tiles, rng, v, c, out):
            continue
        if not may_declare_k(out, mk, mt, nm, rules):
            continue
        if wait_set_k(out, mk, mt, nm, rules, tabs, wk, wb) == 0 or waits_on(wk, passed):
            continue
        u[:] = v[: u.shape[0]]
        return True
    return False


@njit(cache=True, inline="always")
def _forget(memo, s):
    """Seat ``s``'s player memos as at a deal's start (they were of its real tiles)."""
    memo[s, 0] = UNKNOWN
    for k in range(1, memo.shape[1]):
        memo[s, k] = 0


@njit(cache=True)
def sample_world(wall, st, ctl, seat, rules, tabs, rng, u, v, c, wall_w, st_w, ctl_w, obs_w, bj, bo, prog):
    """Write into ``wall_w``, ``st_w``, ``ctl_w``, ``obs_w`` one world consistent with what
    ``seat`` sees of the deal paused in ``wall``, ``st``, ``ctl`` (``st_w`` and ``obs_w`` already
    hold copies of ``st`` and the paused observation's memo). ``prog``: an opponent that has not
    declared gets a hand as far along as real ones (:mod:`daqing_sim.search.progress`; an empty
    table: uniform tiles). Returns the number of ready opponents dealt uniform tiles after
    :data:`MAX_READY_TRIES` failed constructions (0 normally)."""
    nk = st.conc.shape[1]
    front = ctl[C_FRONT]
    back = ctl[C_BACK]
    sees_bao = st.ready[seat] != 0  # RULES: only a ready player sees the bao
    # the multiset of the tiles the seat cannot see
    for t in range(nk):
        u[t] = 0
    for s in range(4):
        if s != seat:
            for t in range(nk):
                u[t] += st.conc[s, t]
    for p in range(front, back + 1):
        u[wall[p]] += 1
    if not sees_bao:
        if ctl[C_BAO] >= 0:
            u[ctl[C_BAO]] += 1
        for t in range(nk):
            u[t] += st.dead[t]
    total = 0
    for t in range(nk):
        total += u[t]
    fallbacks = 0
    # ready opponents first (their hands are constructed), then the others, the bao, the wall
    for k in range(1, 4):
        s = (seat + k) % 4
        n = 0
        for t in range(nk):
            n += st.conc[s, t]
        if bj is None:
            if st.ready[s]:
                ok = _ready_hand(
                    u,
                    n,
                    st.mk[s],
                    st.mt[s],
                    st.nm[s],
                    st.safe[s],
                    rules,
                    tabs,
                    rng,
                    v,
                    c,
                    st_w.conc[s],
                    st_w.wk[s],
                    st_w.wb[s],
                )
                if ok:
                    total -= n
                    _forget(obs_w.memo, s)
                    continue
                fallbacks += 1
        # not ready (or its construction failed): as far along as real opponents, or uniform
        total = deal_opponent(
            u, total, n, prog, not st.ready[s], st.n_pond[s], st.nm[s], rng, v, c, st_w.conc[s]
        )
        _forget(obs_w.memo, s)
        if bj is None:
            pass
        elif bo is not None:  # the seat's cached table shanten and first wait were of its real tiles
            st_w.bj[B_SHANTEN + s] = UNKNOWN_SHANTEN
            st_w.tenpai[s] = -1
    if not sees_bao:
        if ctl[C_BAO] >= 0:
            ctl_w[C_BAO] = take_tile(u, total, rng)
            total -= 1
        for t in range(nk):
            n = st.dead[t]
            st_w.dead[t] = 0
            for _ in range(n):
                st_w.dead[take_tile(u, total, rng)] += 1
                total -= 1
    for p in range(front, back + 1):
        wall_w[p] = take_tile(u, total, rng)
        total -= 1
    seat_streams(rng[0], obs_w.rng)
    return fallbacks


@njit(cache=True)
def reshuffle_live_wall(wall, ctl, rng, u, wall_w, obs_w):
    """Write into ``wall_w`` the live wall of ``wall`` (positions ``C_FRONT`` to ``C_BACK``) in a
    new random order, every other tile where it is: the world of :meth:`Evaluator.evaluate_actual`
    (for measuring; a player never sees it)."""
    front = ctl[C_FRONT]
    back = ctl[C_BACK]
    for t in range(u.shape[0]):
        u[t] = 0
    for p in range(front, back + 1):
        u[wall[p]] += 1
    total = back - front + 1
    for p in range(front, back + 1):
        wall_w[p] = take_tile(u, total, rng)
        total -= 1
    seat_streams(rng[0], obs_w.rng)


@njit(cache=True)
def _sample_any(tpw, wall, st, ctl, seat, rules, tabs, rng, u, v, c, wall_w, st_w, ctl_w, obs_w, prog):
    """The family's world sampler (``tpw``: the world's two-player state or ``None``, an argument
    so that numba prunes the other family's branch)."""
    if tpw is None:
        return sample_world(
            wall,
            st,
            ctl,
            seat,
            rules,
            tabs,
            rng,
            u,
            v,
            c,
            wall_w,
            st_w,
            ctl_w,
            obs_w,
            family_state(st_w),
            beijing_state(st_w),
            prog,
        )
    return sample_world_tp(wall, st, ctl, seat, rules, tabs, rng, u, v, c, wall_w, st_w, obs_w, prog)


@njit(cache=True)
def evaluate_k(
    wall,
    dealer,
    rules,
    tabs,
    st,
    ctl,
    memo,
    answers,
    declares,
    world_seeds,
    codes,
    knobs,
    simple,
    wall_w,
    st_w,
    obs_w,
    ctl_w,
    st_r,
    obs_r,
    ctl_r,
    orow0,
    orow,
    hrow,
    log,
    out,
    prog,
    actual,
    ufns,
):
    """Play each candidate (``answers[c]``, ``declares[c]``) of the decision paused in ``wall``,
    ``st``, ``ctl``, ``orow0`` (``memo``: the paused observation's player memos) to the deal's
    end in ``world_seeds.size`` worlds, with the field ``codes``, ``knobs``, ``ufns`` (engine codes:
    :func:`daqing_sim.players.seats.engine_seats`); ``prog`` the opponents' progress table
    (:func:`sample_world`); ``actual``: every hidden tile where it is but the live wall, whose
    order is drawn again (:func:`reshuffle_live_wall`). ``out[w, c]`` gets the paused seat's
    payment.
    ``*_w`` hold a world, ``*_r`` a rollout (scratch of the paused state's shapes). Returns the
    number of ready opponents dealt uniform tiles (their construction failed; 0 normally)."""
    # every array below is held by the Python caller (Evaluator.evaluate) for the whole call
    wall, rules, tabs, st, ctl, memo, codes, knobs, simple, wall_w, st_w, obs_w, ctl_w, st_r, obs_r, ctl_r = (
        borrowed(
            (
                wall,
                rules,
                tabs,
                st,
                ctl,
                memo,
                codes,
                knobs,
                simple,
                wall_w,
                st_w,
                obs_w,
                ctl_w,
                st_r,
                obs_r,
                ctl_r,
            )
        )
    )
    seat = ctl[C_SEAT]
    nk = st.conc.shape[1]
    u = np.zeros(nk, dtype=np.int64)
    v = np.zeros(nk, dtype=np.int64)
    c = np.zeros(nk, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    fallbacks = 0
    for w in range(world_seeds.shape[0]):
        rng[0] = world_seeds[w]
        copy_state(st, st_w)
        obs_w.memo[:, :] = memo
        obs_w.memo[seat, 0] = UNKNOWN  # its cached shanten is of whatever it was about to throw
        ctl_w[:] = ctl
        wall_w[:] = wall
        if actual:
            reshuffle_live_wall(wall, ctl, rng, u, wall_w, obs_w)  # every hand and memo the real one
        else:
            fallbacks += _sample_any(
                two_player_state(st_w),
                wall,
                st,
                ctl,
                seat,
                rules,
                tabs,
                rng,
                u,
                v,
                c,
                wall_w,
                st_w,
                ctl_w,
                obs_w,
                prog,
            )
        for k in range(answers.shape[0]):
            copy_state(st_w, st_r)
            obs_r.memo[:, :] = obs_w.memo
            obs_r.rng[:] = obs_w.rng
            ctl_r[:] = ctl_w
            ctl_r[C_STATUS] = ST_PAUSED
            ctl_r[C_ANSWER] = answers[k]
            ctl_r[C_DECLARE] = declares[k]
            orow[:] = orow0
            _play_deal(
                wall_w,
                np.uint64(0),
                dealer,
                rules,
                codes,
                knobs,
                simple,
                tabs,
                st_r,
                obs_r,
                orow,
                log,
                ctl_r,
                ufns,
            )
            if ctl_r[C_STATUS] != ST_DONE:
                return -1  # a field seat is EXTERNAL: refused by the Python side before
            fh.record(st_r, rules, dealer, orow, hrow, np.bool_(True), tabs)
            out[w, k] = orow[O_PAY + seat]
    return fallbacks


@dataclass(frozen=True)
class Evaluation:
    """The evaluator's answer: per world and candidate the seat's payment, and per candidate its
    mean with a t interval, and its paired difference to the first candidate with its interval.

    Attributes
    ----------
    pays : numpy.ndarray
        ``(n_worlds, n_candidates)`` payments of the deciding seat (the family's units).
    mean, lo, hi : numpy.ndarray
        Per candidate: mean payment and its t interval over worlds.
    diff, diff_lo, diff_hi : numpy.ndarray
        Per candidate: mean of (its payment - the first candidate's) per world, with its t
        interval (common random numbers: much tighter than the means' intervals).
    fallbacks : int
        Ready opponents dealt uniform tiles because no ready hand could be constructed.
    """

    pays: np.ndarray
    mean: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    diff: np.ndarray
    diff_lo: np.ndarray
    diff_hi: np.ndarray
    fallbacks: int


def t_interval(x: np.ndarray, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column means of ``x`` (rows: worlds) and their t intervals (a zero-width one where the
    column is constant or has one row)."""
    from scipy import stats

    x = np.asarray(x, dtype=np.float64)
    n = x.shape[0]
    m = x.mean(axis=0)
    if n < 2:
        return m, m.copy(), m.copy()
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * x.std(axis=0, ddof=1) / np.sqrt(n)
    return m, m - half, m + half


class Evaluator:
    """Evaluates paused decisions of one rule family with one rollout field (scratch arrays and
    the compiled entry point kept between decisions).

    Parameters
    ----------
    rules_enc : numpy.ndarray
        ``RuleSet.encode()`` of the deals evaluated.
    field : str or sequence of str
        The rollout field: one built-in player for every seat, or one per seat (table-free or
        table players; no Python players).
    family : str
        The rule family (``"daqing"``, ``"beijing"`` or ``"two_player"``).
    opponents : str
        ``"uniform"``: an opponent that has not declared is dealt uniform unseen tiles;
        ``"progress"``: a hand as far along as real opponents' at the same point
        (:mod:`daqing_sim.search.progress`).
    share : float, optional
        With ``"progress"``: the chance an opponent is built to a target (default: the family's
        fitted share).
    """

    def __init__(
        self,
        rules_enc: np.ndarray,
        field: str | Sequence[str] = "expert",
        family: str = "daqing",
        opponents: str = "uniform",
        share: float | None = None,
    ) -> None:
        from daqing_sim.codes import FAMILY_SEATS
        from daqing_sim.game.state import new_deal_state
        from daqing_sim.hand.tables import get_tables
        from daqing_sim.players.dispatch import table_free_flags
        from daqing_sim.players.registry import encode_strategies
        from daqing_sim.players.seats import engine_seats

        if family not in ("daqing", "beijing", "two_player"):
            raise ValueError(
                f"unknown rule family {family!r} for the search evaluator: use 'daqing', 'beijing' "
                "or 'two_player'"
            )
        n_seats = FAMILY_SEATS.get(family, 4)
        seats = (field,) * n_seats if isinstance(field, str) else tuple(field)
        if len(seats) != n_seats or not all(isinstance(s, str) for s in seats):
            raise ValueError(
                f"field must be a built-in player name or {n_seats} of them (one per seat), not {field!r}"
            )
        if "search" in seats:
            raise ValueError("field cannot seat 'search' (a rollout inside a rollout): use e.g. 'expert'")
        self.field_names, codes, knobs = encode_strategies(seats, None, family)
        self.codes, self.ufns = engine_seats(codes, None, family)
        self.knobs = np.ascontiguousarray(knobs)
        self.rules = np.ascontiguousarray(rules_enc, dtype=np.int64)
        self.simple = table_free_flags()
        self.tabs = get_tables()
        self.st_w, self.obs_w = new_deal_state(family)
        self.st_r, self.obs_r = new_deal_state(family)
        self._entry: Any = None
        self.family = family
        self.prog = np.zeros((0, N_MELD_ROWS, N_SHANTEN))
        if opponents == "progress":
            self.prog = progress_table(family, share)
        elif opponents != "uniform":
            raise ValueError(f"opponents={opponents!r} is not allowed: use 'uniform' or 'progress'")

    def evaluate(
        self,
        deal: Any,
        candidates: Sequence[tuple[int, bool]],
        n_worlds: int,
        seed: int | np.random.SeedSequence,
        confidence: float = 0.95,
    ) -> Evaluation:
        """Evaluate ``candidates`` (``(answer, declare)``: a discard's tile and declaration, a
        claim's action, a kong's tile or -1) of the decision ``deal`` (a paused
        :class:`~daqing_sim.game.external.SteppedDeal`) is paused at, in ``n_worlds`` worlds drawn
        from ``seed`` (the same seed gives the same worlds and the same numbers)."""
        return self._run(deal, candidates, n_worlds, seed, confidence, False)

    def evaluate_actual(
        self,
        deal: Any,
        candidates: Sequence[tuple[int, bool]],
        n_worlds: int,
        seed: int | np.random.SeedSequence,
        confidence: float = 0.95,
    ) -> Evaluation:
        """As :meth:`evaluate`, but in worlds that keep every tile where it really is (the other
        seats' hands, the bao, the dead wall) and draw only the live wall's order again: the
        value of each candidate in the real position, for *measuring* a player (the
        ``search`` player never calls it; tools/search_advantage.py does). Given everything that
        was seen so far the live wall's order is uniform, so these worlds are draws of the real
        position's future."""
        return self._run(deal, candidates, n_worlds, seed, confidence, True)

    def _run(
        self,
        deal: Any,
        candidates: Sequence[tuple[int, bool]],
        n_worlds: int,
        seed: int | np.random.SeedSequence,
        confidence: float,
        actual: bool,
    ) -> Evaluation:
        from daqing_sim.compile_notice import announce
        from daqing_sim.players.user import entry_with_ufns

        if not deal.paused:
            raise ValueError("the deal is not paused at a decision: evaluate a paused SteppedDeal")
        if not candidates:
            raise ValueError("no candidates to evaluate: give at least one (answer, declare)")
        n_worlds = int(n_worlds)
        if n_worlds < 1:
            raise ValueError(f"n_worlds={n_worlds}: use at least 1 world")
        ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))
        world_seeds = ss.generate_state(n_worlds, dtype=np.uint64)
        answers = np.array([int(a) for a, _ in candidates], dtype=np.int64)
        declares = np.array([1 if d else 0 for _, d in candidates], dtype=np.int64)
        out = np.zeros((n_worlds, len(candidates)), dtype=np.float64)
        args = (
            deal.wall,
            deal.dealer,
            self.rules,
            self.tabs,
            deal.st,
            deal.ctl,
            deal.obs.memo,
            answers,
            declares,
            world_seeds,
            self.codes,
            self.knobs,
            self.simple,
            deal.wall.copy(),
            self.st_w,
            self.obs_w,
            deal.ctl.copy(),
            self.st_r,
            self.obs_r,
            deal.ctl.copy(),
            deal.orow,
            deal.orow.copy(),
            deal.hrow.copy(),
            np.zeros((1, deal.log.shape[1]), dtype=deal.log.dtype),
            out,
            self.prog,
            np.bool_(actual),
            self.ufns,  # last: entry_with_ufns types it
        )
        if self._entry is None:
            announce(f"search_{self.family}", family=self.family)
            self._entry = entry_with_ufns(evaluate_k, args)
        fallbacks = int(self._entry(*args))
        if fallbacks < 0:
            raise RuntimeError("a rollout paused at an outside seat: the field must be built-in players")
        mean, lo, hi = t_interval(out, confidence)
        diff, dlo, dhi = t_interval(out - out[:, :1], confidence)
        return Evaluation(out, mean, lo, hi, diff, dlo, dhi, fallbacks)


__all__ = ["Evaluator", "Evaluation", "evaluate_k", "reshuffle_live_wall", "sample_world", "t_interval"]
