"""Two-player worlds for the search evaluator (:func:`daqing_sim.search.evaluator.evaluate_k`).

A two-player game is played with 71 of the 136 tiles (docs/RULES_TWO_PLAYER.md; the wall layout
in :mod:`daqing_sim.game.wall`): the tiles the deciding seat cannot see are the opponent's
concealed tiles, the live wall, the three extra draws of 海底捞月 and the tiles never put in play.
:func:`sample_world_tp` deals them all again from their multiset, which it computes from what the
seat sees (four of each kind less its own tiles, the visible tiles and the concealed kongs), so
where the hidden tiles lie never enters. A declared (报听) opponent's hand is *constructed* to
wait (sets weighted by their tile combinations and a pair, less one tile) on no tile it let pass
(``st.safe``); an undeclared opponent's tiles are uniform. The family state's knowledge of the
opponent's real hand (its table shanten, its wait set, the tick from which it has waited) is
replaced by what follows from the world: unknown shanten and waits (the engine recomputes them),
and a declared hand waiting since its declaration (estimated from the ponds: two discards a
turn), an undeclared one since it is next seen waiting.

Known simplifications: a declared hand is built of sets and a pair only (no seven pairs or
thirteen orphans); an undeclared opponent's uniform tiles may wait on a tile it did not win on;
the kind of the opponent's concealed kong is not resampled (as in the other families).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CONCEALED_KONG
from daqing_sim.families.two_player.hand import tp_wait_set_k
from daqing_sim.game.deal34 import UNKNOWN_SHANTEN
from daqing_sim.game.engine import C_BACK, C_FRONT
from daqing_sim.game.wall import TP_EXTRA_START, TP_FLOWER_START, TP_WIDTH
from daqing_sim.layout import T_READY_SINCE, T_SHANTEN, T_TICKS, T_WAITS
from daqing_sim.players.observation import DECLARED, UNKNOWN
from daqing_sim.rules import R_FLOWER_TILES
from daqing_sim.search.progress import deal_opponent
from daqing_sim.search.shapes import draw_ready_shape, seat_streams, take_tile, waits_on

#: tries to construct a declared opponent's hand before dealing it uniform tiles (counted)
MAX_DECLARED_TRIES = 4000


@njit(cache=True)
def declared_hand(u, n_tiles, mk, mt, nm, passed, tabs, rng, v, c, out, wait_out):
    """Construct the ``n_tiles`` concealed tiles of a declared (报听) seat from ``u`` (taken from
    it) into ``out``: they wait (``tp_wait_set_k``) and on no tile in ``passed``. False after
    :data:`MAX_DECLARED_TRIES` tries (``u`` untouched)."""
    for _ in range(MAX_DECLARED_TRIES):
        if not draw_ready_shape(u, n_tiles, rng, v, c, out):
            continue
        if tp_wait_set_k(out, mk, mt, nm, tabs, wait_out) == 0 or waits_on(wait_out, passed):
            continue
        u[:] = v[: u.shape[0]]
        return True
    return False


@njit(cache=True)
def unseen_tp(st, seat, u):
    """``u[t]``: copies of kind ``t`` the two-player ``seat`` cannot see (four less its own
    tiles, the visible ones, the tiles put aside and every concealed kong); returns their number."""
    nk = u.shape[0]
    for t in range(nk):
        u[t] = 4 - np.int64(st.conc[seat, t]) - np.int64(st.visible[t]) - np.int64(st.dead[t])
    for s in range(2):
        for j in range(st.nm[s]):
            if st.mk[s, j] == CONCEALED_KONG:
                u[st.mt[s, j]] -= 4  # the opponent's kind is not resampled (module docstring)
    total = 0
    for t in range(nk):
        if u[t] < 0:
            u[t] = 0
        total += u[t]
    return total


@njit(cache=True)
def _declaration_tick(st, tpf, opp):
    """The tick of ``opp``'s declaring discard, from the ponds (each later discard of ``opp``
    taken as two ticks: one of each seat)."""
    k = -1
    for i in range(st.n_pond[opp]):
        if i < st.pond_flag.shape[1] and st.pond_flag[opp, i] & DECLARED:
            k = i
    if k < 0:
        return tpf[T_TICKS] - 1
    return max(tpf[T_TICKS] - 1 - 2 * (st.n_pond[opp] - 1 - k), 0)


@njit(cache=True)
def sample_world_tp(wall, st, ctl, seat, rules, tabs, rng, u, v, c, wall_w, st_w, obs_w, prog):
    """Write into ``wall_w``, ``st_w``, ``obs_w`` one two-player world consistent with what
    ``seat`` sees of the game paused in ``wall``, ``st``, ``ctl`` (``st_w``, ``wall_w`` and
    ``obs_w`` already hold copies of the paused ones); an undeclared opponent as far along as
    real ones with a non-empty ``prog`` (:mod:`daqing_sim.search.progress`). Returns 1 when a
    declared opponent was dealt uniform tiles after :data:`MAX_DECLARED_TRIES` failed
    constructions, else 0."""
    opp = 1 - seat
    front = ctl[C_FRONT]
    back = ctl[C_BACK]
    total = unseen_tp(st, seat, u)
    n = 0
    for t in range(u.shape[0]):
        n += st.conc[opp, t]
    tpw = st_w.tp
    fallbacks = 0
    built = False
    if st.ready[opp]:
        built = declared_hand(
            u,
            n,
            st.mk[opp],
            st.mt[opp],
            st.nm[opp],
            st.safe[opp],
            tabs,
            rng,
            v,
            c,
            st_w.conc[opp],
            st_w.wait_out,
        )
        if built:
            total -= n
        else:
            fallbacks = 1
    if not built:  # undeclared (or the construction failed): as far along as real ones, or uniform
        total = deal_opponent(
            u, total, n, prog, not st.ready[opp], st.n_pond[opp], st.nm[opp], rng, v, c, st_w.conc[opp]
        )
    tpw[T_SHANTEN + opp] = UNKNOWN_SHANTEN
    tpw[T_WAITS + opp] = 0
    tpw[T_READY_SINCE + opp] = _declaration_tick(st, st.tp, opp) if st.ready[opp] else -1
    st_w.tenpai[opp] = -1
    obs_w.memo[opp, 0] = UNKNOWN
    for k in range(1, obs_w.memo.shape[1]):
        obs_w.memo[opp, k] = 0
    for p in range(front, back + 1):
        wall_w[p] = take_tile(u, total, rng)
        total -= 1
    # the extra draws, and the flower places not turned up (never read; dealt for completeness)
    for p in range(TP_EXTRA_START, TP_WIDTH):
        if p >= TP_FLOWER_START and p < TP_FLOWER_START + rules[R_FLOWER_TILES]:
            continue
        wall_w[p] = take_tile(u, total, rng)
        total -= 1
    seat_streams(rng[0], obs_w.rng)
    return fallbacks


__all__ = ["sample_world_tp", "declared_hand", "unseen_tp", "MAX_DECLARED_TRIES"]
