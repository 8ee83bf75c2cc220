"""The two-player steps of the deal loop (docs/RULES_TWO_PLAYER.md): the two-player branches of
:func:`daqing_sim.game.engine._play_deal` and the family hooks of :mod:`daqing_sim.families.hooks`.
As Beijing's (:mod:`daqing_sim.families.beijing.deal`), the steps of every draw and discard take the
arrays they use (``tpf`` is the state's ``tp`` row, :data:`~daqing_sim.layout.TWO_PLAYER_STATE`);
the rare steps (a kong, the extra draws, the record) take the state.

Two seats (0 and 1; the state's seats 2 and 3 stay empty), 71 of the 136 tiles (wall layout in
:mod:`daqing_sim.game.wall`), free claims on the opponent's discard, 报听 with the hand locked
(``ready`` is the declaration here), robbing an added kong, the flower tiles, and at the end of
the 71 tiles 海底捞月 for the seat that has waited longest. A complete hand wins on any self-draw
and on the opponent's discard (the engine takes it), except that a declared hand is asked
(:data:`~daqing_sim.codes.CLAIM_WIN` among its claim options) and may pass. Nothing here is
compiled for a Daqing or Beijing run.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CLAIM_WIN,
    DEAL_IN,
    NO_BAO,
    PENG,
    SELF_DRAW,
    WIN_DEAL_IN,
    WIN_SELF_DRAW,
    ZHONG,
)
from daqing_sim.families.two_player.hand import (
    CTX_CHIIHOU,
    CTX_DECLARED,
    CTX_DECLARED_FIRST,
    CTX_EXTRA_DRAW,
    CTX_KONG_REPLACEMENT,
    CTX_LAST_DISCARD,
    CTX_LAST_TILE,
    CTX_RENHOU,
    CTX_ROBBED_KONG,
    CTX_SELF_DRAW,
    CTX_TENHOU,
    F_FLOWER,
    FLOWER_SHIFT,
    tp_complete_k,
    tp_fans_wait_k,
    tp_kokushi_shanten_k,
    tp_value_k,
    tp_wait_set_k,
)
from daqing_sim.game.deal34 import UNKNOWN_SHANTEN, fill_kong_options, kong_count, record_hand
from daqing_sim.game.events import EV_EXTRA_DRAW, EV_FLOWER, EV_ROBBED_KONG, log_event
from daqing_sim.game.state import DealState
from daqing_sim.game.wall import TP_DEALT, TP_EXTRA_START, TP_FLOWER_START, TP_IN_PLAY
from daqing_sim.hand.kernels import is_open_k
from daqing_sim.hand.kinds34 import bj_shanten_k
from daqing_sim.jit import njit_no_refs
from daqing_sim.layout import (
    C_LEGAL,
    C_SEAT,
    FAN_MASK_LOW_BITS,
    LEGAL_DECLARE,
    LEGAL_DISCARD,
    N_TWO_PLAYER_STATE,
    O_BAO_REPLACEMENTS,
    O_BURN_ROUNDS,
    O_CONCEALED,
    O_DEAL_KONGS,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_DRAWS,
    O_EXTRA_DRAWS,
    O_FAN_MASK,
    O_FAN_MASK_HIGH,
    O_FAN_TOTAL,
    O_FANS,
    O_FINAL_BAO,
    O_FLOWER_FANS,
    O_FLOWERS,
    O_HOW,
    O_MUTUAL_PAYER,
    O_N_BINDINGS,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_READY_TURN,
    O_TENPAI_TURN,
    O_VALUE,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
    R_DISCARDER,
    R_METHOD,
    R_N_DRAWS,
    R_WIN_TILE,
    R_WINNER,
    T_CTX,
    T_DECLARED_FIRST,
    T_EXTRA_DRAWS,
    T_FLOWERS,
    T_KONGS,
    T_READY_SINCE,
    T_SHANTEN,
    T_TICKS,
    T_WAITS,
    T_WIN_OFFER,
    WAITS_KNOWN,
)
from daqing_sim.players.greedy34 import random_discard, random_kong
from daqing_sim.players.observation import I_SEAT
from daqing_sim.players.random import random_claim
from daqing_sim.rules import R_EXTRA_DRAWS, R_FLOWER_TILES

N_SEATS = 2


@njit(cache=True)
def start(st, wall, rules, log, log_on, n_log):
    """The family's state at the start of a game and the flower tiles turned face up; returns
    (first tile to draw, last tile in play, no bao, n_log)."""
    tpf = st.tp
    tpf[:] = 0
    st.tenpai[:] = -1
    for s in range(4):
        tpf[T_SHANTEN + s] = UNKNOWN_SHANTEN
        tpf[T_READY_SINCE + s] = -1
    packed = 0
    for i in range(rules[R_FLOWER_TILES]):
        k = np.int64(wall[TP_FLOWER_START + i])
        packed |= (k + 1) << (6 * i)
        st.visible[k] += 1  # RULES: 花牌 — turned face up, in sight of both
        if log_on:
            n_log = log_event(log, n_log, EV_FLOWER, -1, k, i, 0)
    tpf[T_FLOWERS] = packed
    return np.int64(TP_DEALT), np.int64(TP_IN_PLAY - 1), np.int64(-1), n_log


@njit(cache=True, inline="always")
def _declared_ctx(tpf, ready, s):
    if not ready[s]:
        return 0
    return CTX_DECLARED | (CTX_DECLARED_FIRST if tpf[T_DECLARED_FIRST + s] else 0)


@njit_no_refs
def _shanten(hand, nm_s, tabs):
    """Table shanten of the family's shapes (four melds and a pair, seven pairs, thirteen orphans)."""
    v = bj_shanten_k(hand, nm_s, tabs)
    if nm_s == 0:
        k = tp_kokushi_shanten_k(hand)
        if k < v:
            v = k
    return v


@njit(cache=True, inline="always")
def _may_win_on(waits, t):
    """Can ``t`` complete 13 tiles whose wait set is ``waits`` (``T_WAITS``; 0: not known)?"""
    return waits == 0 or (waits >> t) & 1 != 0


@njit(cache=True, inline="always")
def _wait_bits(wait_out):
    """``T_WAITS`` of a wait set (``wait_out[t] >= 0``: ``t`` wins)."""
    bits = WAITS_KNOWN
    for t in range(wait_out.shape[0]):
        if wait_out[t] >= 0:
            bits |= np.int64(1) << t
    return bits


@njit(cache=True, inline="always")
def self_draw_win(
    hand, nm_s, tpf, ready, cur, drawn, dealer, own_draws_cur, first_tile, tabs, replacement, at_end
):
    """A complete hand after a draw (or the dealer's 14 dealt tiles, 天和) wins: (winner, win
    tile) or (-1, -1); the win's context goes to ``tpf[T_CTX]``."""
    # inlined into the engine: most draws come to 13 tiles known not to wait, and a call that
    # passes the hand tables costs more than this test (numba passes every array by value)
    if drawn >= 0:
        if tpf[T_SHANTEN + cur] > 0 or not _may_win_on(tpf[T_WAITS + cur], drawn):
            return -1, -1
    return _self_draw_win(
        hand, nm_s, tpf, ready, cur, drawn, dealer, own_draws_cur, first_tile, tabs, replacement, at_end
    )


@njit_no_refs
def _self_draw_win(
    hand, nm_s, tpf, ready, cur, drawn, dealer, own_draws_cur, first_tile, tabs, replacement, at_end
):
    if drawn < 0:
        if cur != dealer or own_draws_cur != 0 or not tp_complete_k(hand, nm_s, tabs):
            return -1, -1
        tpf[T_CTX] = CTX_SELF_DRAW | CTX_TENHOU  # RULES: 天和
        return cur, first_tile
    v = tpf[T_SHANTEN + cur]  # the 13 tiles before the draw, when known
    if v > 0 or not tp_complete_k(hand, nm_s, tabs):
        return -1, -1
    ctx = CTX_SELF_DRAW | _declared_ctx(tpf, ready, cur)
    if replacement:
        ctx |= CTX_KONG_REPLACEMENT
    if at_end:
        ctx |= CTX_LAST_TILE  # RULES: 河底捞月 — the last of the 71 tiles
    if cur != dealer and own_draws_cur == 1 and nm_s == 0 and not replacement:
        ctx = CTX_SELF_DRAW | CTX_RENHOU  # RULES: 人和 — the first draw of the other seat
    tpf[T_CTX] = ctx
    return cur, drawn


@njit(cache=True, inline="always")
def kong_options(hand, mk_s, mt_s, nm_s, declared, drawable, kong_opts):
    """Fill ``kong_opts`` with the seat's concealed and added kongs; returns how many (none for a
    declared hand, RULES: 报听 locks it, nor without a tile left for the replacement)."""
    return fill_kong_options(hand, mk_s, mt_s, nm_s, not declared and drawable, kong_opts)


@njit_no_refs
def after_kong(st, tabs, cur, kt, concealed, log, log_on, n_log):
    """Count the kong, or let the opponent rob an added one (RULES: 抢杠, scored as a self-draw):
    the kong is undone and its tile lies with the discards. Returns (n_log, robber or -1)."""
    tpf = st.tp
    tpf[T_SHANTEN + cur] = UNKNOWN_SHANTEN
    tpf[T_WAITS + cur] = 0
    o = (cur + 1) % N_SEATS
    robbed = False
    if not concealed and tpf[T_SHANTEN + o] <= 0:
        st.conc[o, kt] += 1
        robbed = tp_complete_k(st.conc[o], st.nm[o], tabs)
        st.conc[o, kt] -= 1
    if not robbed:
        tpf[T_KONGS] += 1
        return n_log, -1
    for j in range(st.nm[cur]):
        if st.mk[cur, j] == ADDED_KONG and st.mt[cur, j] == kt:
            st.mk[cur, j] = PENG
    st.pool[kt] += 1
    tpf[T_CTX] = CTX_ROBBED_KONG | _declared_ctx(tpf, st.ready, o)
    if log_on:
        n_log = log_event(log, n_log, EV_ROBBED_KONG, o, kt, cur, 0)
    return n_log, o


@njit_no_refs
def _shanten_and_waits(hand, mk_s, mt_s, nm_s, tabs, wait_out):
    """The table shanten of the 13 tiles, and whether they wait (their wait set in ``wait_out``)."""
    v = _shanten(hand, nm_s, tabs)
    waits = False
    if v == 0:
        waits = tp_wait_set_k(hand, mk_s, mt_s, nm_s, tabs, wait_out) > 0
    return v, waits


@njit(cache=True, inline="always")
def after_discard(
    hand,
    mk_s,
    mt_s,
    nm_s,
    tpf,
    ready,
    ready_draw,
    tenpai,
    own_draws,
    n_pond_cur,
    wait_out,
    cur,
    declare,
    thrown_drawn,
    tabs,
):
    """After ``cur``'s discard: its table shanten or a lower bound of it (kept for the wins it may
    make: a hand whose bound is above 0 cannot win), whether its hand waits (听牌: the tick it
    began, for 海底捞月, and its first own draw count, for the row), and 报听 when asked and the
    hand waits. Returns True for a new declaration. A seat that
    threw the tile it drew keeps the 13 tiles it had, and what was known of them. (Inlined into
    the engine: only the shanten and the wait set are a call.)"""
    prev = tpf[T_SHANTEN + cur]
    if thrown_drawn and prev != UNKNOWN_SHANTEN:
        waits = tpf[T_READY_SINCE + cur] >= 0
    elif prev >= 2:  # (UNKNOWN_SHANTEN is below 0)
        # one tile drawn, one thrown: the table shanten falls by at most one, so the hand does
        # not wait yet; what is kept is then a lower bound (every reader asks only "> 0?")
        tpf[T_SHANTEN + cur] = prev - 1
        tpf[T_WAITS + cur] = 0
        waits = False
    else:
        v, waits = _shanten_and_waits(hand, mk_s, mt_s, nm_s, tabs, wait_out)
        tpf[T_SHANTEN + cur] = v
        # kept while these 13 tiles stay: a draw or discard wins only on one of them
        tpf[T_WAITS + cur] = _wait_bits(wait_out) if v == 0 else 0
    if waits:
        if tpf[T_READY_SINCE + cur] < 0:
            tpf[T_READY_SINCE + cur] = tpf[T_TICKS]
        if tenpai[cur] < 0:
            tenpai[cur] = own_draws[cur]
    else:
        tpf[T_READY_SINCE + cur] = -1
    tpf[T_TICKS] += 1
    if not (declare and waits and not ready[cur]):
        return False
    ready[cur] = 1  # RULES: 报听 — locked from now on
    ready_draw[cur] = own_draws[cur]
    if n_pond_cur == 1 and not is_open_k(mk_s, nm_s):
        tpf[T_DECLARED_FIRST + cur] = 1  # RULES: 天听 — with the seat's first discard
    return True


@njit(cache=True, inline="always")
def win_on_discard(conc, nm, tpf, ready, cur, d, dealer, n_pond, own_draws, tabs, at_end):
    """Does ``d`` complete the opponent's hand? An undeclared hand wins (returns its seat); a
    declared one is offered the win among its claim options (``tpf[T_WIN_OFFER]``, returns -1)."""
    tpf[T_WIN_OFFER] = 0
    o = (cur + 1) % N_SEATS
    if tpf[T_SHANTEN + o] > 0 or not _may_win_on(tpf[T_WAITS + o], d):  # as self_draw_win's test
        return -1
    return _win_on_discard(conc, nm, tpf, ready, cur, d, dealer, n_pond, own_draws, tabs, at_end)


@njit_no_refs
def _win_on_discard(conc, nm, tpf, ready, cur, d, dealer, n_pond, own_draws, tabs, at_end):
    o = (cur + 1) % N_SEATS
    conc[o, d] += 1
    win = tp_complete_k(conc[o], nm[o], tabs)
    conc[o, d] -= 1
    if not win:
        return -1
    ctx = _declared_ctx(tpf, ready, o)
    if at_end:
        ctx |= CTX_LAST_DISCARD  # RULES: 河底捞鱼 — the opponent's last discard
    if cur == dealer and n_pond[cur] == 1 and own_draws[o] == 0 and nm[o] == 0:
        ctx = CTX_CHIIHOU  # RULES: 地和 — on the dealer's first discard
    tpf[T_CTX] = ctx
    if ready[o]:
        tpf[T_WIN_OFFER] = ctx + 1  # RULES: 报听 — the declared player may win or pass
        return -1
    return o


@njit(cache=True, inline="always")
def claim_options(conc, ready, tpf, cur, d, at_end, drawable):
    """The opponent's options on ``d`` (a bit mask of claim actions, 0 none): the offered win of
    a declared hand, else peng, kong (with a replacement tile left) and chi, free (chi is always
    from the seat before), none on the last discard but a win."""
    o = (cur + 1) % N_SEATS
    opts = 0
    if tpf[T_WIN_OFFER]:
        opts |= 1 << CLAIM_WIN
    if ready[o] or at_end:
        return o, opts
    if conc[o, d] >= 2:
        opts |= 1 << CLAIM_PENG
        if conc[o, d] == 3 and drawable:
            opts |= 1 << CLAIM_KONG
    if d < ZHONG:
        r = d % 9
        if r <= 6 and conc[o, d + 1] > 0 and conc[o, d + 2] > 0:
            opts |= 1 << CHI_LOW
        if 1 <= r <= 7 and conc[o, d - 1] > 0 and conc[o, d + 1] > 0:
            opts |= 1 << CHI_MID
        if r >= 2 and conc[o, d - 2] > 0 and conc[o, d - 1] > 0:
            opts |= 1 << CHI_HIGH
    return o, opts


@njit_no_refs
def note_claim(tpf, claimer, kong):
    """A claimed discard: the claimer's hand changed, and a kong is counted."""
    tpf[T_SHANTEN + claimer] = UNKNOWN_SHANTEN
    tpf[T_WAITS + claimer] = 0
    if kong:
        tpf[T_KONGS] += 1


@njit_no_refs
def passed_win(tpf):
    """A declared hand passed the win on a discard: it stays declared (RULES: 报听)."""
    tpf[T_WIN_OFFER] = 0
    tpf[T_CTX] = 0


@njit_no_refs
def extra_draws(wall, st, rules, tabs, log, log_on, n_log):
    """RULES: 海底捞月 — the 71 tiles are used up: the seat whose hand has waited longest (a
    non-empty wait set, unbroken since) draws up to ``extra_draws`` more tiles from the unused
    ones and wins on the first that completes it; a tile that does not is put aside. Returns
    (winner or -1, win tile, n_log); nobody waiting is 流局."""
    tpf = st.tp
    s = -1
    for k in range(N_SEATS):
        since = tpf[T_READY_SINCE + k]
        if since >= 0 and (s < 0 or since < tpf[T_READY_SINCE + s]):
            s = k
    if s < 0:
        return -1, -1, n_log
    for j in range(rules[R_EXTRA_DRAWS]):
        t = np.int64(wall[TP_EXTRA_START + j])
        tpf[T_EXTRA_DRAWS] += 1
        st.conc[s, t] += 1
        won = tp_complete_k(st.conc[s], st.nm[s], tabs)
        if log_on:
            n_log = log_event(log, n_log, EV_EXTRA_DRAW, s, t, 1 if won else 0, j)
        if won:
            tpf[T_CTX] = CTX_SELF_DRAW | CTX_EXTRA_DRAW | _declared_ctx(tpf, st.ready, s)
            return s, t, n_log
        st.conc[s, t] -= 1
        st.dead[t] += 1
    return -1, -1, n_log


@njit(cache=True)
def legal_discards(st, ctl, tabs):
    """``ctl[C_LEGAL + t]`` at a paused discard: every kind held; 报听 with it when the hand left
    waits and the seat has not declared."""
    s = ctl[C_SEAT]
    hand = st.conc[s]
    for t in range(hand.shape[0]):
        flags = 0
        if hand[t] > 0:
            flags = LEGAL_DISCARD
            if not st.ready[s]:
                hand[t] -= 1
                if _shanten(hand, st.nm[s], tabs) == 0:
                    if tp_wait_set_k(hand, st.mk[s], st.mt[s], st.nm[s], tabs, st.wait_out) > 0:
                        flags |= LEGAL_DECLARE
                hand[t] += 1
        ctl[C_LEGAL + t] = flags


@njit(cache=True)
def record(rules, dealer, st, orow, hrow, rec_hand, tabs):
    """Settle the two-player game left in ``st`` and write its row (and the winner's hand): the
    opponent pays the win's value (F x multiplier x points per fan, the first game of a match)."""
    res = st.result
    tpf = st.tp
    mk = st.mk
    mt = st.mt
    nm = st.nm
    conc = st.conc
    pay = st.pay
    for s in range(4):
        pay[s] = 0
        st.concealed[s] = 0 if is_open_k(mk[s], nm[s]) else 1
        orow[O_CONCEALED + s] = st.concealed[s]
        orow[O_OWN_DRAWS + s] = st.own_draws[s]
        orow[O_TENPAI_TURN + s] = st.tenpai[s]
        orow[O_READY_TURN + s] = st.ready_draw[s] if st.ready[s] else -1
        orow[O_PAY + s] = 0
        orow[O_FANS + s] = 0
    orow[O_DRAWS] = res[R_N_DRAWS]
    orow[O_EXTRA_DRAWS] = tpf[T_EXTRA_DRAWS]
    orow[O_FLOWERS] = tpf[T_FLOWERS]
    orow[O_DEAL_KONGS] = tpf[T_KONGS]
    orow[O_BAO_REPLACEMENTS] = 0
    orow[O_FINAL_BAO] = -1
    orow[O_WINNER_KONGS] = 0
    orow[O_BURN_ROUNDS] = 0
    orow[O_N_BINDINGS] = 0
    orow[O_MUTUAL_PAYER] = -1
    orow[O_FAN_MASK] = 0
    orow[O_FAN_MASK_HIGH] = 0
    orow[O_FLOWER_FANS] = 0
    orow[O_HOW] = 0
    winner = res[R_WINNER]
    if winner < 0:
        return
    wt = res[R_WIN_TILE]
    self_drawn = res[R_METHOD] == SELF_DRAW
    hand = conc[winner]
    if self_drawn:
        hand[wt] -= 1  # the 13 tiles before the win
    if rec_hand:
        record_hand(hand, mk[winner], mt[winner], nm[winner], hrow)
    hand[wt] += 1
    ctx = tpf[T_CTX]
    fans = st.fan_out
    # the wait of the split the fans were scored on (平和 is two-sided), not of the 13 tiles
    total, kind = tp_fans_wait_k(
        hand, mk[winner], mt[winner], nm[winner], wt, ctx | (tpf[T_FLOWERS] << FLOWER_SHIFT), rules, fans
    )
    if not self_drawn:
        hand[wt] -= 1
    value = tp_value_k(total, 0, rules)
    loser = (winner + 1) % N_SEATS
    pay[winner] = value
    pay[loser] = -value
    kongs = kong_count(mk[winner], nm[winner])
    low = 0
    high = 0
    for i in range(fans.shape[0]):
        if fans[i]:
            if i < FAN_MASK_LOW_BITS:
                low |= 1 << i
            else:
                high |= 1 << (i - FAN_MASK_LOW_BITS)
    orow[O_OUTCOME] = WIN_SELF_DRAW if self_drawn else WIN_DEAL_IN
    orow[O_WINNER] = winner
    orow[O_DISCARDER] = res[R_DISCARDER]
    orow[O_DISCARDER_READY] = np.int64(st.ready[loser]) if not self_drawn else 0
    orow[O_WAIT] = kind
    orow[O_WIN_TILE] = wt
    orow[O_WINNER_KONGS] = kongs
    orow[O_FAN_TOTAL] = total
    orow[O_VALUE] = value
    orow[O_FAN_MASK] = low
    orow[O_FAN_MASK_HIGH] = high
    orow[O_FLOWER_FANS] = fans[F_FLOWER]
    orow[O_HOW] = ctx
    orow[O_PAY + winner] = value
    orow[O_PAY + loser] = -value
    orow[O_FANS + winner] = total


# ---- the steps of the deal loop (the protocol of daqing_sim.families.hooks), inlined into
# game.engine._play_deal when it is compiled for a TwoPlayerDealState. The table-free player
# (random) answers inline; greedy and expert through the engine's function table.

# A two-player game's state: Daqing's arrays (34 kinds wide, seats 2 and 3 never used) and the
# family's own; its own type, which the hooks resolve to the steps below.
TwoPlayerDealState = namedtuple(
    "TwoPlayerDealState",
    (
        *DealState._fields,
        "tenpai",  # (4,) int64 own draws when the seat's hand first waited, -1 not yet
        "fan_out",  # (46,) int64 the win's fans (families.two_player.hand.FAN_NAMES)
        "wait_out",  # (34,) int8 wait-set scratch of the engine
        "tp",  # (N_TWO_PLAYER_STATE,) int64 the family's loop scalars (layout.TWO_PLAYER_STATE)
    ),
)


STATE = TwoPlayerDealState


def new_state(arrays: dict) -> TwoPlayerDealState:
    """A two-player game's state: the shared ``arrays`` (``game.state.new_deal_state``) and its own."""
    nk = arrays["conc"].shape[1]
    return TwoPlayerDealState(
        **arrays,
        tenpai=np.full(4, -1, dtype=np.int64),
        fan_out=np.zeros(46, dtype=np.int64),
        wait_out=np.full(nk, -1, dtype=np.int8),
        tp=np.zeros(N_TWO_PLAYER_STATE, dtype=np.int64),
    )


def step_seats(st):
    return N_SEATS


def step_lock(st, rules):
    return True  # RULES: 报听 locks the hand


def step_start(st, wall, rules, log, log_on, n_log, front, back, bao):
    return start(st, wall, rules, log, log_on, n_log)


def step_wall_end(st, wall, rules, tabs, log, log_on, n_log, front, back):
    if front > back:  # RULES: the 71 tiles are used up — 海底捞月, else 流局
        w, wt, n_log2 = extra_draws(wall, st, rules, tabs, log, log_on, n_log)
        return True, w, wt, n_log2
    return False, -1, -1, n_log


def step_self_draw_win(st, wall, rules, tabs, cur, drawn, dealer, bao, replacement, front, back):
    w, wt = self_draw_win(
        st.conc[cur],
        st.nm[cur],
        st.tp,
        st.ready,
        cur,
        drawn,
        dealer,
        st.own_draws[cur],
        np.int64(wall[13]),
        tabs,
        replacement,
        front > back,
    )
    return w, wt, -1, False, NO_BAO, wt  # RULES: a complete hand wins on a self-draw (天和 on the deal)


def step_kong_options(st, obs, rules, tabs, cur, lock, front, back):
    return kong_options(
        st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], st.ready[cur] != 0, front <= back, st.kong_opts
    )


def step_simple_kong(st, code, kn, kong_opts, rng, seat):
    return random_kong(kong_opts, rng, seat)


def step_kong(st, code, kn, obs, rules, tabs, kong_opts):
    return random_kong(kong_opts, obs.rng, obs.info[I_SEAT])


def step_after_kong(st, wall, rules, tabs, cur, kt, concealed, log, log_on, n_log, bao, front, back, n_repl):
    n_log2, robber = after_kong(st, tabs, cur, kt, concealed, log, log_on, n_log)
    if robber >= 0:  # RULES: 抢杠 — the opponent robs an added kong
        return bao, back, n_repl, n_log2, robber, kt, -1, False, NO_BAO, DEAL_IN, st.ready[cur] != 0
    return bao, back, n_repl, n_log2, -1, -1, -1, False, NO_BAO, SELF_DRAW, True


def step_forced_discard(st, rules, cur, drawn, dealer, front, back):
    return -1


def step_simple_discard(st, obs, rules, tabs, code, kn, cur, drawn):
    return random_discard(st.conc[cur], obs.rng, cur), False


def step_discard(st, code, kn, obs, rules, tabs):
    return random_discard(obs.hand, obs.rng, obs.info[I_SEAT]), False


def step_after_discard(st, obs, rules, tabs, orow, cur, declare, keep_ready, thrown_drawn):
    return after_discard(
        st.conc[cur],
        st.mk[cur],
        st.mt[cur],
        st.nm[cur],
        st.tp,
        st.ready,
        st.ready_draw,
        st.tenpai,
        st.own_draws,
        st.n_pond[cur],
        st.wait_out,
        cur,
        declare,
        thrown_drawn,
        tabs,
    )


def step_discard_win(st, rules, tabs, log, log_on, n_log, cur, d, dealer, last_live, front, back):
    at_end = front > back
    # a declared hand's win may be offered on the last discard: claims stay open
    w = win_on_discard(st.conc, st.nm, st.tp, st.ready, cur, d, dealer, st.n_pond, st.own_draws, tabs, at_end)
    return True, at_end, n_log, w, -1, False, st.ready[cur] != 0


def step_bao_check(st, wall, rules, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl):
    return bao, back, n_repl, n_log, -1, -1, False, NO_BAO


def step_before_claims(st, cur, d, claimable, at_end, lock):
    if claimable and lock and st.tp[T_WIN_OFFER] != 0:  # RULES: 报听 — a win it may pass is not a safe tile
        st.safe[(cur + 1) % 2, d] = 0
    return claimable


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    if stage > 0:
        return -1, 0, True  # one decision: the opponent is the only claimer
    s, opts = claim_options(st.conc, st.ready, st.tp, cur, d, at_end, front <= back)
    if opts == 0:
        return -1, opts, False
    return s, opts, False


def step_claim(st, code, kn, obs, rules, tabs, t, options):
    return random_claim(options, obs.rng, obs.info[I_SEAT])


def step_after_claims(st, claimer, action):
    if claimer >= 0 and action == CLAIM_WIN:  # RULES: 报听 — the declared hand takes the win
        return True
    if st.tp[T_WIN_OFFER] != 0:
        passed_win(st.tp)
    return False


def step_note_claim(st, rules, claimer, cur, action, log, log_on, n_log):
    note_claim(st.tp, claimer, action == CLAIM_KONG)
    return n_log


def step_record(st, rules, dealer, orow, hrow, rec_hand, tabs):
    return record(rules, dealer, st, orow, hrow, rec_hand, tabs)


def step_legal_discards(st, ctl, rules, tabs, tk, tb):
    return legal_discards(st, ctl, tabs)
