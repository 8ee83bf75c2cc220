"""The Beijing steps of the deal loop (docs/RULES_BEIJING.md): the Beijing branches of
:func:`daqing_sim.game.engine._play_deal` and the family hooks of :mod:`daqing_sim.families.hooks`.
The steps of every draw and discard take the arrays they use (``fam`` is the state's ``bj``
row, :data:`~daqing_sim.layout.BEIJING_STATE`): handing them the whole
:class:`~daqing_sim.game.state.BeijingDealState` cost a copy and reference counts of its arrays
at each call, most of a random player's deal. The rare steps (a kong, the record) take the state.

No conditions (推倒和): a complete hand wins on any discard or self-draw (the engine takes every
win: a player is never asked), claims are free (peng before chi, chi only from the seat before),
an added kong may be robbed (and a concealed one by a hand with 一条龙), the wall ends with
``dead_wall_tiles`` undrawn (+2 for each kong after the first), the last tile drawn and not won
is thrown, 烧庄 with the wind obligation, 互包, and the settlement of ``families.beijing.settle``. Nothing
here is compiled for a Daqing run.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    CLAIM_KONG,
    CLAIM_PENG,
    DEAL_IN,
    NO_BAO,
    PENG,
    SELF_DRAW,
    WIN_DEAL_IN,
    WIN_SELF_DRAW,
    ZHONG,
)
from daqing_sim.families.beijing import players as pb
from daqing_sim.families.beijing.hand import (
    HOW_KONG_REPLACEMENT,
    HOW_LAST_DISCARD,
    HOW_LAST_TILE,
    HOW_ROBBED_KONG,
    HOW_SELF_DRAW,
    bj_dragon_split_k,
    bj_fans_k,
    bj_value_k,
)
from daqing_sim.families.beijing.settle import (
    DEAL_IN_WIN,
    ROBBED_KONG_WIN,
    SELF_DRAWN_WIN,
    bj_burn_k,
    bj_note_claim_k,
    bj_payments_k,
)
from daqing_sim.game.deal34 import UNKNOWN_SHANTEN, fill_kong_options, kong_count, record_hand
from daqing_sim.game.events import EV_BURN, EV_MUTUAL_BAO, EV_ROBBED_KONG, log_event
from daqing_sim.game.state import DealState
from daqing_sim.game.wall import LIVE_START_ALL
from daqing_sim.hand.kernels import is_open_k
from daqing_sim.hand.kinds34 import bj_complete_k, bj_shanten_k, bj_wait_set_k
from daqing_sim.layout import (
    B_BURN_COUNT,
    B_BURN_LIVE,
    B_BURN_ROUNDS,
    B_BURN_TILE,
    B_HOW,
    B_KONGS,
    B_N_BINDINGS,
    B_SHANTEN,
    C_LEGAL,
    C_SEAT,
    N_BEIJING_STATE,
    O_BAO_REPLACEMENTS,
    O_BURN_ROUNDS,
    O_CONCEALED,
    O_DEAL_KONGS,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_DRAWS,
    O_FAN_MASK,
    O_FAN_TOTAL,
    O_FANS,
    O_FINAL_BAO,
    O_HOW,
    O_MUTUAL_PAYER,
    O_N_BINDINGS,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
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
)
from daqing_sim.rules import (
    R_BURN_DEALER,
    R_BURN_POINTS,
    R_DEAD_WALL_TILES,
    R_LOCK_AFTER_READY,
    R_MUTUAL_BAO,
    R_ROB_ADDED_KONG,
    R_ROB_CONCEALED_KONG_WITH_DRAGON,
)

EAST, NORTH = 28, 31


@njit(cache=True)
def reset(st):
    """The family's state at the start of a deal."""
    st.claims_from[:] = 0
    st.bound[:] = -1
    st.tenpai[:] = -1
    st.bj[:] = 0
    st.bj[B_BURN_LIVE] = 1
    st.bj[B_BURN_TILE] = -1
    for s in range(4):
        st.bj[B_SHANTEN + s] = UNKNOWN_SHANTEN


@njit(cache=True)
def start(st, wall):
    """The first live tile (right after the hands) and no bao."""
    reset(st)
    return np.int64(LIVE_START_ALL), np.int64(-1)


@njit(cache=True)
def legal_discards(st, ctl):
    """``ctl[C_LEGAL + t]`` at a paused discard: every kind held may be thrown (nobody declares)."""
    s = ctl[C_SEAT]
    for t in range(st.conc.shape[1]):
        ctl[C_LEGAL + t] = 1 if st.conc[s, t] > 0 else 0


@njit(cache=True, inline="always")
def draw_limit(fam, rules):
    """Tiles left undrawn when play stops: RULES: 荒牌 — 14, plus 2 for each kong after the first."""
    return rules[R_DEAD_WALL_TILES] + 2 * max(0, fam[B_KONGS] - 1)


@njit(cache=True, inline="always")
def kong_drawable(fam, rules, undrawn):
    """Is a replacement tile left for one more kong (the wall end moves with it)?"""
    return undrawn > rules[R_DEAD_WALL_TILES] + 2 * fam[B_KONGS]


@njit(cache=True)
def _may_win(fam, s, hand, nm_s, tabs):
    """Can one tile complete seat ``s``'s 13 tiles? Not when their table shanten (a lower bound,
    kept in ``fam`` from the seat's last discard until its hand changes) is above 0."""
    v = fam[B_SHANTEN + s]
    if v == UNKNOWN_SHANTEN:
        v = bj_shanten_k(hand, nm_s, tabs)
        fam[B_SHANTEN + s] = v
    return v <= 0


@njit(cache=True)
def self_draw_win(hand, nm_s, fam, cur, drawn, tabs, replacement, at_end):
    """A complete hand after a draw wins (RULES: 推倒和): (winner, win tile, -1, False, NO_BAO);
    the win's context bits go to ``fam[B_HOW]``. ``hand`` is the seat's, with the draw."""
    if drawn < 0:
        return -1, -1, -1, False, NO_BAO
    v = fam[B_SHANTEN + cur]  # the 13 tiles before the draw, when known
    if v > 0 or not bj_complete_k(hand, nm_s, tabs):
        return -1, -1, -1, False, NO_BAO
    how = HOW_SELF_DRAW
    if replacement:
        how |= HOW_KONG_REPLACEMENT
    if at_end:
        how |= HOW_LAST_TILE
    fam[B_HOW] = how
    return cur, drawn, -1, False, NO_BAO


@njit(cache=True)
def kong_options(hand, mk_s, mt_s, nm_s, fam, rules, undrawn, kong_opts):
    """Fill ``kong_opts`` with the seat's concealed and added kongs; returns how many."""
    return fill_kong_options(hand, mk_s, mt_s, nm_s, kong_drawable(fam, rules, undrawn), kong_opts)


@njit(cache=True)
def _robber(st, cur, kt, concealed, rules, tabs):
    """The first seat after ``cur`` whose hand wins on the kong tile ``kt`` and may rob it."""
    if concealed and not rules[R_ROB_CONCEALED_KONG_WITH_DRAGON]:
        return -1
    if not concealed and not rules[R_ROB_ADDED_KONG]:
        return -1
    conc = st.conc
    for k in range(1, 4):
        s = (cur + k) % 4
        if not _may_win(st.bj, s, conc[s], st.nm[s], tabs):
            continue
        conc[s, kt] += 1
        win = bj_complete_k(conc[s], st.nm[s], tabs)
        if win and concealed:  # RULES: 一条龙 may rob a concealed kong
            win = bj_dragon_split_k(conc[s], st.mk[s], st.mt[s], st.nm[s])
        conc[s, kt] -= 1
        if win:
            return s
    return -1


@njit(cache=True)
def after_kong(st, rules, tabs, cur, kt, concealed, log, log_on, n_log):
    """Count the kong, or let a seat rob it (RULES: 抢杠): the kong is undone, its tile lies
    with the discards. Returns (n_log, robber or -1)."""
    robber = _robber(st, cur, kt, concealed, rules, tabs)
    st.bj[B_SHANTEN + cur] = UNKNOWN_SHANTEN
    if robber < 0:
        st.bj[B_KONGS] += 1
        return n_log, -1
    if concealed:
        st.nm[cur] -= 1
        st.conc[cur, kt] += 3
        st.visible[kt] += 1
    else:
        for j in range(st.nm[cur]):
            if st.mk[cur, j] == ADDED_KONG and st.mt[cur, j] == kt:
                st.mk[cur, j] = PENG
    st.pool[kt] += 1
    st.bj[B_HOW] = HOW_ROBBED_KONG
    if log_on:
        n_log = log_event(log, n_log, EV_ROBBED_KONG, robber, kt, cur, 1 if concealed else 0)
    return n_log, robber


@njit(cache=True)
def forced_discard(hand, n_pond, pond, cur, drawn, dealer, rules, at_end):
    """The discard the rules make, or -1: the last tile drawn and not won (RULES: 海底), or the
    wind the dealer threw first, held at one's own first discard (RULES: 烧庄 obligation)."""
    if at_end and drawn >= 0:
        return drawn
    if rules[R_BURN_DEALER] and cur != dealer and n_pond[cur] == 0 and n_pond[dealer] > 0:
        w = pond[dealer, 0]
        if EAST <= w <= NORTH and hand[w] > 0:
            return np.int64(w)
    return -1


@njit(cache=True)
def declare_after_discard(hand, mk_s, mt_s, nm_s, fam, tenpai, own_draws, wait_out, cur, tabs):
    """Nobody declares under Beijing; the seat's first wait (听牌) is noted for the row, and its
    table shanten kept for the wins it may make on the next discards and draw."""
    v = bj_shanten_k(hand, nm_s, tabs)
    fam[B_SHANTEN + cur] = v
    if tenpai[cur] < 0 and v == 0:
        if bj_wait_set_k(hand, mk_s, mt_s, nm_s, tabs, wait_out) > 0:
            tenpai[cur] = own_draws[cur]
    return False


@njit(cache=True)
def note_discard(fam, cur, d, dealer, rules, log, log_on, n_log):
    """The 烧庄 count after a discard; returns n_log."""
    bj = fam
    if bj[B_BURN_LIVE] and rules[R_BURN_DEALER]:
        if cur == dealer:
            bj[B_BURN_TILE] = d
            bj[B_BURN_COUNT] = 0
        elif d == bj[B_BURN_TILE]:
            bj[B_BURN_COUNT] += 1
            if bj[B_BURN_COUNT] == 3:  # RULES: 烧庄 — all three followed the dealer's discard
                bj[B_BURN_ROUNDS] += 1
                if log_on:
                    n_log = log_event(log, n_log, EV_BURN, dealer, d, bj[B_BURN_ROUNDS], 0)
        else:
            bj[B_BURN_LIVE] = 0
    return n_log


@njit(cache=True)
def win_on_discard(conc, nm, fam, cur, d, tabs, at_end):
    """The first seat after ``cur`` whose hand ``d`` completes (截和): (seat, -1, False)."""
    for k in range(1, 4):
        s = (cur + k) % 4
        if not _may_win(fam, s, conc[s], nm[s], tabs):
            continue
        conc[s, d] += 1
        win = bj_complete_k(conc[s], nm[s], tabs)
        conc[s, d] -= 1
        if win:
            fam[B_HOW] = HOW_LAST_DISCARD if at_end else 0
            return s, -1, False
    return -1, -1, False


@njit(cache=True)
def chi_options(conc, cur, stage, d):
    """Chi options of the next seat on ``d`` (RULES: chi only from the seat before), -1 after."""
    if stage != 1 or d >= ZHONG:
        return -1
    s = (cur + 1) % 4
    t = d
    r = t % 9
    opts = 0
    if r <= 6 and conc[s, t + 1] > 0 and conc[s, t + 2] > 0:
        opts |= 1 << 3
    if 1 <= r <= 7 and conc[s, t - 1] > 0 and conc[s, t + 1] > 0:
        opts |= 1 << 4
    if r >= 2 and conc[s, t - 2] > 0 and conc[s, t - 1] > 0:
        opts |= 1 << 5
    return opts


@njit(cache=True)
def note_claim(fam, claims_from, bound, claimer, cur, kong, rules, log, log_on, n_log):
    """A claimed discard: 互包 counting (only under ``mutual_bao``: without it no pair is ever
    bound, so neither the log nor the row shows one), the kong count, and the end of 烧庄 (the
    order breaks)."""
    fam[B_BURN_LIVE] = 0
    fam[B_SHANTEN + claimer] = UNKNOWN_SHANTEN
    if kong:
        fam[B_KONGS] += 1
    if rules[R_MUTUAL_BAO] and bj_note_claim_k(claims_from, bound, claimer, cur):
        fam[B_N_BINDINGS] += 1
        if log_on:
            n_log = log_event(log, n_log, EV_MUTUAL_BAO, claimer, -1, cur, 0)
    return n_log


@njit(cache=True)
def record(rules, dealer, st, orow, hrow, rec_hand, tabs):
    """Settle the Beijing deal left in ``st`` and write its row (and the winner's hand)."""
    res = st.result
    bj = st.bj
    mk = st.mk
    mt = st.mt
    nm = st.nm
    conc = st.conc
    for s in range(4):
        st.concealed[s] = 0 if is_open_k(mk[s], nm[s]) else 1
        orow[O_CONCEALED + s] = st.concealed[s]
        orow[O_OWN_DRAWS + s] = st.own_draws[s]
        orow[O_TENPAI_TURN + s] = st.tenpai[s]
    orow[O_DRAWS] = res[R_N_DRAWS]
    orow[O_BAO_REPLACEMENTS] = 0
    orow[O_FINAL_BAO] = -1
    orow[O_WINNER_KONGS] = 0
    orow[O_BURN_ROUNDS] = bj[B_BURN_ROUNDS]
    orow[O_DEAL_KONGS] = bj[B_KONGS]
    orow[O_N_BINDINGS] = bj[B_N_BINDINGS]
    orow[O_MUTUAL_PAYER] = -1
    winner = res[R_WINNER]
    if winner < 0:
        return
    wt = res[R_WIN_TILE]
    self_drawn = res[R_METHOD] == SELF_DRAW
    hand = conc[winner]
    if self_drawn:
        hand[wt] -= 1  # the 13 tiles before the win
    n_w = bj_wait_set_k(hand, mk[winner], mt[winner], nm[winner], tabs, st.wait_out)
    kind = st.wait_out[wt]
    if rec_hand:
        record_hand(hand, mk[winner], mt[winner], nm[winner], hrow)
    hand[wt] += 1
    how = bj[B_HOW]
    fans = st.fan_out
    total = bj_fans_k(hand, mk[winner], mt[winner], nm[winner], wt, n_w == 1, how, rules, fans)
    if not self_drawn:
        hand[wt] -= 1
    value = bj_value_k(total, st.concealed[winner] == 0, rules)
    if self_drawn:
        pay_how = SELF_DRAWN_WIN
    elif how & HOW_ROBBED_KONG:
        pay_how = ROBBED_KONG_WIN
    else:
        pay_how = DEAL_IN_WIN
    partner = st.bound[winner]  # -1 without mutual_bao: note_claim binds nobody then
    pay = st.pay
    bj_payments_k(value, winner, pay_how, res[R_DISCARDER], partner, pay)
    if rules[R_BURN_DEALER]:
        bj_burn_k(bj[B_BURN_ROUNDS], dealer, rules[R_BURN_POINTS], pay)
    kongs = kong_count(mk[winner], nm[winner])
    mask = 0
    for i in range(fans.shape[0]):
        if fans[i]:
            mask |= 1 << i
    orow[O_OUTCOME] = WIN_SELF_DRAW if self_drawn else WIN_DEAL_IN
    orow[O_WINNER] = winner
    orow[O_DISCARDER] = res[R_DISCARDER]
    orow[O_DISCARDER_READY] = 0
    orow[O_WAIT] = kind
    orow[O_WIN_TILE] = wt
    orow[O_WINNER_KONGS] = kongs
    orow[O_FAN_TOTAL] = total
    orow[O_VALUE] = value
    orow[O_FAN_MASK] = mask
    orow[O_HOW] = how
    orow[O_MUTUAL_PAYER] = partner
    for s in range(4):
        orow[O_PAY + s] = pay[s]
        orow[O_FANS + s] = total if s == winner else 0


# ---- the steps of the deal loop (the protocol of daqing_sim.families.hooks), inlined into
# game.engine._play_deal when it is compiled for a BeijingDealState

# A Beijing deal's state: Daqing's arrays (34 kinds wide) and the family's own; its own type,
# which the hooks resolve to the steps below.
BeijingDealState = namedtuple(
    "BeijingDealState",
    (
        *DealState._fields,
        "claims_from",  # (4, 4) int64 discards seat a claimed from seat b (互包)
        "bound",  # (4,) int64 the 互包 partner who pays for the seat's win, -1 none
        "tenpai",  # (4,) int64 own draws when the seat's hand first waited, -1 not yet
        "fan_out",  # (11,) int64 the win's fans (families.beijing.hand.FAN_NAMES)
        "wait_out",  # (34,) int8 wait-set scratch of the engine
        "bj",  # (N_BEIJING_STATE,) int64 the family's loop scalars (layout.BEIJING_STATE)
    ),
)


STATE = BeijingDealState


def new_state(arrays: dict) -> BeijingDealState:
    """A Beijing deal's state: the shared ``arrays`` (``game.state.new_deal_state``) and its own."""
    nk = arrays["conc"].shape[1]
    return BeijingDealState(
        **arrays,
        claims_from=np.zeros((4, 4), dtype=np.int64),
        bound=np.full(4, -1, dtype=np.int64),
        tenpai=np.full(4, -1, dtype=np.int64),
        fan_out=np.zeros(11, dtype=np.int64),
        wait_out=np.full(nk, -1, dtype=np.int8),
        bj=np.zeros(N_BEIJING_STATE, dtype=np.int64),
    )


def step_seats(st):
    return 4


def step_lock(st, rules):
    return rules[R_LOCK_AFTER_READY] != 0


def step_start(st, wall, rules, log, log_on, n_log, front, back, bao):
    front2, bao2 = start(st, wall)
    return front2, back, bao2, n_log


def step_wall_end(st, wall, rules, tabs, log, log_on, n_log, front, back):
    # RULES: 荒牌 — 14 left undrawn, +2 per kong after the first
    return back - front + 1 <= draw_limit(st.bj, rules), -1, -1, n_log


def step_self_draw_win(st, wall, rules, tabs, cur, drawn, dealer, bao, replacement, front, back):
    fam = st.bj
    at_end = back - front + 1 <= draw_limit(fam, rules)
    w, wt, kd, bg, bk = self_draw_win(st.conc[cur], st.nm[cur], fam, cur, drawn, tabs, replacement, at_end)
    return w, wt, kd, bg, bk, drawn  # RULES: 推倒和 — a complete hand wins


def step_kong_options(st, obs, rules, tabs, cur, lock, front, back):
    return kong_options(
        st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], st.bj, rules, back - front + 1, st.kong_opts
    )


def step_simple_kong(st, code, kn, kong_opts, rng, seat):
    return pb.simple_kong(code, kn, kong_opts, rng, seat)


def step_kong(st, code, kn, obs, rules, tabs, kong_opts):
    return pb.kong(code, kn, obs, rules, tabs, kong_opts)


def step_after_kong(st, wall, rules, tabs, cur, kt, concealed, log, log_on, n_log, bao, front, back, n_repl):
    n_log2, robber = after_kong(st, rules, tabs, cur, kt, concealed, log, log_on, n_log)
    if robber >= 0:  # RULES: 抢杠 — a deal-in by the kong's declarer
        return bao, back, n_repl, n_log2, robber, kt, -1, False, NO_BAO, DEAL_IN, True
    return bao, back, n_repl, n_log2, -1, -1, -1, False, NO_BAO, SELF_DRAW, True


def step_forced_discard(st, rules, cur, drawn, dealer, front, back):
    at_end = back - front + 1 <= draw_limit(st.bj, rules)
    return forced_discard(st.conc[cur], st.n_pond, st.pond, cur, drawn, dealer, rules, at_end)


def step_simple_discard(st, obs, rules, tabs, code, kn, cur, drawn):
    return pb.simple_discard(code, kn, st.conc[cur], drawn, obs.memo[cur], obs.rng, cur), False


def step_discard(st, code, kn, obs, rules, tabs):
    return pb.discard(code, kn, obs, rules, tabs)


def step_after_discard(st, obs, rules, tabs, orow, cur, declare, keep_ready, thrown_drawn):
    declare_after_discard(
        st.conc[cur],
        st.mk[cur],
        st.mt[cur],
        st.nm[cur],
        st.bj,
        st.tenpai,
        st.own_draws,
        st.wait_out,
        cur,
        tabs,
    )
    return False


def step_discard_win(st, rules, tabs, log, log_on, n_log, cur, d, dealer, last_live, front, back):
    fam = st.bj
    n_log2 = note_discard(fam, cur, d, dealer, rules, log, log_on, n_log)
    at_end = back - front + 1 <= draw_limit(fam, rules)
    w, kd, bg = win_on_discard(st.conc, st.nm, fam, cur, d, tabs, at_end)  # RULES: 截和
    return True, at_end, n_log2, w, kd, bg, False


def step_bao_check(st, wall, rules, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl):
    return bao, back, n_repl, n_log, -1, -1, False, NO_BAO


def step_before_claims(st, cur, d, claimable, at_end, lock):
    return not at_end  # RULES: only a win may claim the last discard


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    conc = st.conc
    if stage == 0:
        for k in range(1, 4):
            s = (cur + k) % 4
            if conc[s, d] < 2:
                continue
            opts = 1 << CLAIM_PENG  # at most one other seat holds two copies
            if conc[s, d] == 3 and kong_drawable(st.bj, rules, back - front + 1):
                opts |= 1 << CLAIM_KONG
            return s, opts, False
        return -1, 0, False
    opts = chi_options(conc, cur, stage, d)
    if opts < 0:
        return -1, 0, True
    if opts != 0:
        return (cur + 1) % 4, opts, False
    return -1, 0, False


def step_claim(st, code, kn, obs, rules, tabs, t, options):
    return pb.claim(code, kn, obs, rules, tabs, t, options)


def step_after_claims(st, claimer, action):
    return False


def step_note_claim(st, rules, claimer, cur, action, log, log_on, n_log):
    return note_claim(
        st.bj, st.claims_from, st.bound, claimer, cur, action == CLAIM_KONG, rules, log, log_on, n_log
    )


def step_record(st, rules, dealer, orow, hrow, rec_hand, tabs):
    return record(rules, dealer, st, orow, hrow, rec_hand, tabs)


def step_legal_discards(st, ctl, rules, tabs, tk, tb):
    return legal_discards(st, ctl)
