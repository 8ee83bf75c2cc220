"""Daqing's kernels of the deal loop (docs/RULES.md): 手把一, chi options, 上听吃三家, the kongs a
ready hand may declare, 换宝 and 宝卡, a declaration's record, the paused discard's options, and the
2^N settlement of the deal's row. The loop itself (its Daqing branches are its own code) is
:func:`daqing_sim.game.engine._play_deal`; nothing here is compiled for another family.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    BAO_IN_BAO,
    CHI,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    KANCHAN,
    KONG,
    NO_BAO,
    OPT_ADDED_KONG,
    OPT_CONCEALED_KONG,
    PENG,
    SELF_DRAW,
    WIN_DEAL_IN,
    WIN_DEAL_IN_NOT_READY,
    WIN_SELF_DRAW,
    ZHONG,
)
from daqing_sim.families.daqing.scoring import settle_kernel
from daqing_sim.game.events import EV_BAO_REPLACED, log_event
from daqing_sim.game.state import DealState
from daqing_sim.hand.kernels import bao_win_k, is_open_k, may_declare_k, std_shanten_k, wait_set_k
from daqing_sim.layout import (
    C_LEGAL,
    C_MUST_DECLARE,
    C_SEAT,
    H_MK,
    H_MT,
    H_NM,
    LEGAL_DECLARE,
    LEGAL_DISCARD,
    O_BAO,
    O_BAO_REPLACEMENTS,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_DRAWS,
    O_FANS,
    O_FINAL_BAO,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_READY_OUTS,
    O_READY_TURN,
    O_READY_WAIT,
    O_READY_WAIT_MASK,
    O_READY_WAIT_TILES,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
    R_BAO,
    R_BAO_KIND,
    R_BIG,
    R_DISCARDER,
    R_DISCARDER_READY,
    R_METHOD,
    R_N_DRAWS,
    R_N_REPL,
    R_WIN_DRAWN,
    R_WIN_KIND,
    R_WIN_TILE,
    R_WINNER,
)
from daqing_sim.players import dispatch
from daqing_sim.players.common import maybe_ready, unseen_counts
from daqing_sim.rules import (
    R_BAO_KAN_INSTANT,
    R_BAO_REPLACEMENT,
    R_CHI_ANY_SEAT_FOR_READY,
    R_LAST_TILES_NO_CLAIM,
    R_LOCK_AFTER_READY,
    R_MIN_CONCEALED_AT_READY,
    R_REQUIRE_OPEN,
)


@njit(cache=True, inline="always")
def _meld_ok(n_melds, rules):
    # RULES: 手把一 — a new meld must leave min_concealed_at_ready concealed tiles
    return 13 - 3 * (n_melds + 1) >= rules[R_MIN_CONCEALED_AT_READY]


@njit(cache=True, inline="always")
def _chi_options(hand, t):
    if t >= ZHONG:  # 中 and every honor: no sequence
        return 0
    r = t % 9
    opts = 0
    if r <= 6 and hand[t + 1] > 0 and hand[t + 2] > 0:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and hand[t - 1] > 0 and hand[t + 1] > 0:
        opts |= 1 << CHI_MID
    if r >= 2 and hand[t - 2] > 0 and hand[t - 1] > 0:
        opts |= 1 << CHI_HIGH
    return opts


@njit(cache=True, inline="always")
def _chi_options_seat(conc, s, t):
    # _chi_options on conc[s] without making a view (views cost reference counting)
    if t >= ZHONG:  # 中 and every honor: no sequence
        return 0
    r = t % 9
    opts = 0
    if r <= 6 and conc[s, t + 1] > 0 and conc[s, t + 2] > 0:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and conc[s, t - 1] > 0 and conc[s, t + 1] > 0:
        opts |= 1 << CHI_MID
    if r >= 2 and conc[s, t - 2] > 0 and conc[s, t - 1] > 0:
        opts |= 1 << CHI_HIGH
    return opts


@njit(cache=True)
def _chi_makes_ready(hand, mk, mt, nm, t, action, rules, tabs, tk, tb):
    """Does this chi leave a hand that can declare ready with some discard? (restores)"""
    low = t - (action - CHI_LOW)
    for x in range(low, low + 3):
        if x != t:
            hand[x] -= 1
    old_k = mk[nm]
    old_t = mt[nm]
    mk[nm] = CHI
    mt[nm] = low
    found = False
    for d in range(28):
        if hand[d] == 0:
            continue
        hand[d] -= 1
        if may_declare_k(hand, mk, mt, nm + 1, rules):
            found = wait_set_k(hand, mk, mt, nm + 1, rules, tabs, tk, tb) > 0
        hand[d] += 1
        if found:
            break
    mk[nm] = old_k
    mt[nm] = old_t
    for x in range(low, low + 3):
        if x != t:
            hand[x] += 1
    return found


@njit(cache=True)
def _keep_ready_kongs(hand, mk, mt, nm, kong_opts, rules, tabs, tk, tb):
    """An unlocked ready hand may only declare kongs that keep it ready (the 13 tiles
    after the kong, before the replacement draw, still wait)."""
    n_opt = 0
    for t in range(28):
        if kong_opts[t] == OPT_CONCEALED_KONG:
            old_k = mk[nm]
            old_t = mt[nm]
            hand[t] -= 4
            mk[nm] = CONCEALED_KONG
            mt[nm] = t
            ok = wait_set_k(hand, mk, mt, nm + 1, rules, tabs, tk, tb) > 0
            hand[t] += 4
            mk[nm] = old_k
            mt[nm] = old_t
        elif kong_opts[t] == OPT_ADDED_KONG:
            j = 0
            while not (mk[j] == PENG and mt[j] == t):
                j += 1
            hand[t] -= 1
            mk[j] = ADDED_KONG
            ok = wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb) > 0
            mk[j] = PENG
            hand[t] += 1
        else:
            continue
        if ok:
            n_opt += 1
        else:
            kong_opts[t] = 0
    return n_opt


@njit(cache=True)
def legal_discards(st, ctl, rules, tabs, tk, tb):
    """``ctl[C_LEGAL + t]``: may the paused seat discard ``t``, and declare ready with it?"""
    s = ctl[C_SEAT]
    hand = st.conc[s]
    ready_unlocked = st.ready[s] != 0
    must = ctl[C_MUST_DECLARE] != 0
    may_open = st.nm[s] > 0 or not rules[R_REQUIRE_OPEN]
    for t in range(28):
        flags = 0
        if hand[t] > 0:
            hand[t] -= 1
            if not ready_unlocked and may_open and maybe_ready(hand) and std_shanten_k(hand, tabs) == 0:
                if may_declare_k(hand, st.mk[s], st.mt[s], st.nm[s], rules):
                    if wait_set_k(hand, st.mk[s], st.mt[s], st.nm[s], rules, tabs, tk, tb) > 0:
                        flags = LEGAL_DECLARE
            hand[t] += 1
            if not must:
                flags |= LEGAL_DISCARD
        ctl[C_LEGAL + t] = flags


@njit(cache=True)
def _record_declaration(conc, mk, mt, nm, visible, wk, own_draws, unseen, cur, n_w, orow):
    """The declared wait of ``cur`` as its row records it (whole wait, lowest kind, live outs)."""
    unseen_counts(conc[cur], mk[cur], mt[cur], nm[cur], visible, unseen)
    outs = 0
    kind = 99
    mask = 0
    for w in range(28):
        if wk[cur, w] >= 0:
            outs += unseen[w]
            mask |= 1 << wk[cur, w]
            if wk[cur, w] < kind:
                kind = wk[cur, w]
    orow[O_READY_WAIT_TILES + cur] = n_w
    orow[O_READY_WAIT_MASK + cur] = mask
    orow[O_READY_TURN + cur] = own_draws[cur]
    orow[O_READY_WAIT + cur] = kind
    orow[O_READY_OUTS + cur] = outs


@njit(cache=True)
def record(rules, dealer, st, orow, hrow, rec_hand):
    """Settle the deal left in ``st`` and write its row (and the winner's hand when ``rec_hand``)."""
    res = st.result
    mk = st.mk
    mt = st.mt
    nm = st.nm
    conc = st.conc
    concealed = st.concealed
    for s in range(4):
        concealed[s] = 0 if is_open_k(mk[s], nm[s]) else 1
        orow[O_CONCEALED + s] = concealed[s]
        orow[O_OWN_DRAWS + s] = st.own_draws[s]
    orow[O_DRAWS] = res[R_N_DRAWS]
    orow[O_BAO_REPLACEMENTS] = res[R_N_REPL]
    orow[O_FINAL_BAO] = res[R_BAO]
    orow[O_WINNER_KONGS] = 0
    winner = res[R_WINNER]
    if winner < 0:
        return
    kongs = np.int64(0)  # not the literal 0: numba would compile settle_kernel for it too
    for j in range(nm[winner]):
        if mk[winner, j] == KONG or mk[winner, j] == CONCEALED_KONG or mk[winner, j] == ADDED_KONG:
            kongs += 1
    method = res[R_METHOD]
    ready_in = res[R_DISCARDER_READY] != 0
    pay = st.pay
    fans = st.fans
    settle_kernel(
        winner,
        dealer,
        method,
        res[R_DISCARDER],
        ready_in,
        res[R_BIG] != 0,
        res[R_BAO_KIND],
        concealed,
        kongs,
        rules,
        pay,
        fans,
    )
    if method == SELF_DRAW:
        orow[O_OUTCOME] = WIN_SELF_DRAW
    else:
        orow[O_OUTCOME] = WIN_DEAL_IN if ready_in else WIN_DEAL_IN_NOT_READY
    orow[O_WINNER] = winner
    orow[O_DISCARDER] = res[R_DISCARDER]
    orow[O_DISCARDER_READY] = 1 if ready_in else 0
    orow[O_BIG] = res[R_BIG]
    orow[O_BAO] = res[R_BAO_KIND]
    orow[O_WAIT] = res[R_WIN_KIND]
    orow[O_WIN_TILE] = res[R_WIN_TILE]
    orow[O_WINNER_KONGS] = kongs
    for s in range(4):
        orow[O_PAY + s] = pay[s]
        orow[O_FANS + s] = fans[s]
    if rec_hand:
        for t in range(28):
            hrow[t] = conc[winner, t]
        if res[R_WIN_DRAWN] >= 0:
            hrow[res[R_WIN_DRAWN]] -= 1  # the 13-tile hand before the win
        for j in range(4):
            hrow[H_MK + j] = mk[winner, j]
            hrow[H_MT + j] = mt[winner, j]
        hrow[H_NM] = nm[winner]


@njit(cache=True)
def _check_bao(wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log):
    """换宝: while three copies of the bao's kind are visible, the last live tile becomes the
    bao. Returns (bao, back, n_repl, n_log, bao_kan_winner)."""
    kan = -1
    if rules[R_BAO_REPLACEMENT] == 0:
        return bao, back, n_repl, n_log, kan
    first = n_repl
    while visible[bao] >= 3 and front <= back:
        dead[bao] += 1
        old = bao
        bao = np.int64(wall[back])
        back -= 1
        n_repl += 1
        if log_on:
            n_log = log_event(log, n_log, EV_BAO_REPLACED, -1, bao, old, back - front + 1)
    # RULES: 宝卡 on a new bao (DECISIONS #10), once it stands: a new bao with three copies
    # visible is replaced again at once, before anyone can win on it
    if rules[R_BAO_KAN_INSTANT] and n_repl > first and visible[bao] < 3:
        for k in range(4):
            s = (cur + k) % 4
            if ready[s] and wk[s, bao] == KANCHAN:
                return bao, back, n_repl, n_log, s
    return bao, back, n_repl, n_log, kan


# ---- the steps of the deal loop (the protocol of daqing_sim.families.hooks)
# Plain functions, inlined into the loop (game.engine._play_deal) when it is compiled for a
# DealState: each is the Daqing code the loop's body held before the protocol, moved unchanged.

STATE = DealState


def new_state(arrays: dict) -> DealState:
    """A Daqing deal's state: the shared ``arrays`` (``game.state.new_deal_state``)."""
    return DealState(**arrays)


def step_seats(st):
    return 4


def step_lock(st, rules):
    return rules[R_LOCK_AFTER_READY] != 0


def step_start(st, wall, rules, log, log_on, n_log, front, back, bao):
    return front, back, bao, n_log


def step_wall_end(st, wall, rules, tabs, log, log_on, n_log, front, back):
    return front > back, -1, -1, n_log  # RULES: 荒庄 (also when no kong replacement tile is left)


def step_self_draw_win(st, wall, rules, tabs, cur, drawn, dealer, bao, replacement, front, back):
    if st.ready[cur] and drawn >= 0:
        wk = st.wk
        if drawn == bao:  # RULES: bao wild only when self-drawn after ready
            wt, kd, bg, bk = bao_win_k(wk[cur], st.wb[cur], drawn, rules)
            if wt >= 0:
                return cur, wt, kd, bg, bk, drawn
        elif wk[cur, drawn] >= 0:
            return cur, drawn, np.int64(wk[cur, drawn]), st.wb[cur, drawn] != 0, NO_BAO, drawn
    return -1, -1, -1, False, NO_BAO, -1


def step_kong_options(st, obs, rules, tabs, cur, lock, front, back):
    n_opt = 0
    conc, mk, mt, nm, kong_opts = st.conc, st.mk, st.mt, st.nm, st.kong_opts
    if not (st.ready[cur] and lock) and front <= back:  # RULES: a locked hand declares no kong
        for t in range(28):
            kong_opts[t] = 0
            if conc[cur, t] == 4 and _meld_ok(nm[cur], rules):
                kong_opts[t] = OPT_CONCEALED_KONG
                n_opt += 1
        for j in range(nm[cur]):
            if mk[cur, j] == PENG and conc[cur, mt[cur, j]] >= 1:
                kong_opts[mt[cur, j]] = OPT_ADDED_KONG
                n_opt += 1
        if st.ready[cur] and n_opt > 0:
            n_opt = _keep_ready_kongs(
                conc[cur], mk[cur], mt[cur], nm[cur], kong_opts, rules, tabs, obs.tk, obs.tb
            )
    return n_opt


def step_simple_kong(st, code, kn, kong_opts, rng, seat):
    return dispatch.simple_kong(code, kn, kong_opts, rng, seat)


def step_kong(st, code, kn, obs, rules, tabs, kong_opts):
    return dispatch.kong(code, kn, obs, rules, tabs, kong_opts)


def step_after_kong(st, wall, rules, tabs, cur, kt, concealed, log, log_on, n_log, bao, front, back, n_repl):
    if st.ready[cur]:
        wait_set_k(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], rules, tabs, st.wk[cur], st.wb[cur])
    # new names, not the parameters': numba's inliner wants a step's parameters left unassigned
    bao2, back2, n_repl2, n_log2, kan = _check_bao(
        wall, rules, st.visible, bao, front, back, n_repl, st.dead, st.ready, st.wk, cur, log, log_on, n_log
    )
    if kan >= 0:
        return bao2, back2, n_repl2, n_log2, kan, bao2, KANCHAN, True, BAO_IN_BAO, SELF_DRAW, True
    return bao2, back2, n_repl2, n_log2, -1, -1, -1, False, NO_BAO, SELF_DRAW, True


def step_forced_discard(st, rules, cur, drawn, dealer, front, back):
    return -1


def step_simple_discard(st, obs, rules, tabs, code, kn, cur, drawn):
    return _simple_discard(
        st.conc, st.mk, st.mt, st.nm, obs.memo, obs.rng, obs.tk, obs.tb, rules, tabs, code, kn, cur, drawn
    )


@njit(cache=True)
def _simple_discard(conc, mk, mt, nm, memo, rng, tk, tb, rules, tabs, code, kn, cur, drawn):
    """A table-free player's discard and whether it declares ready: ``step_simple_discard``'s work,
    a call of its own (inlined whole, numba's inliner miscompiled its chain of ``declare``)."""
    d = dispatch.simple_discard(code, kn, conc[cur], drawn, memo[cur], rng, cur)
    conc[cur, d] -= 1
    # cheap necessary conditions first (a meld for the open door, a tenpai-like shape)
    declare = (nm[cur] > 0 or not rules[R_REQUIRE_OPEN]) and maybe_ready(conc[cur])
    if declare:
        declare = std_shanten_k(conc[cur], tabs) == 0
    if declare:
        declare = may_declare_k(conc[cur], mk[cur], mt[cur], nm[cur], rules)
    if declare:
        declare = wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, tk, tb) > 0
    conc[cur, d] += 1
    return d, declare


def step_discard(st, code, kn, obs, rules, tabs):
    return dispatch.discard(code, kn, obs, rules, tabs)


def step_after_discard(st, obs, rules, tabs, orow, cur, declare, keep_ready, thrown_drawn):
    conc, mk, mt, nm, wk, wb, ready = st.conc, st.mk, st.mt, st.nm, st.wk, st.wb, st.ready
    if keep_ready:
        if wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, wk[cur], wb[cur]) == 0:
            ready[cur] = 0
    elif declare and not ready[cur]:
        n_w = wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, wk[cur], wb[cur])
        if n_w > 0 and may_declare_k(conc[cur], mk[cur], mt[cur], nm[cur], rules):
            ready[cur] = 1
            st.ready_draw[cur] = st.own_draws[cur]
            _record_declaration(conc, mk, mt, nm, st.visible, wk, st.own_draws, obs.sc[0], cur, n_w, orow)
            return True
        wk[cur, :] = -1
    return False


def step_discard_win(st, rules, tabs, log, log_on, n_log, cur, d, dealer, last_live, front, back):
    claimable = last_live > rules[R_LAST_TILES_NO_CLAIM]  # RULES: 荒庄前最后四张
    if claimable:
        ready, wk = st.ready, st.wk
        for k in range(1, 4):  # RULES: 截和 — first ready seat in turn order wins
            s = (cur + k) % 4
            if ready[s] and wk[s, d] >= 0:
                return claimable, False, n_log, s, np.int64(wk[s, d]), st.wb[s, d] != 0, ready[cur] != 0
    return claimable, False, n_log, -1, -1, False, True


def step_bao_check(st, wall, rules, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl):
    if newly_ready or (rules[R_BAO_REPLACEMENT] and st.visible[bao] >= 3):
        return _bao_check(
            wall,
            rules,
            st.visible,
            st.dead,
            st.ready,
            st.wk,
            cur,
            newly_ready,
            log,
            log_on,
            n_log,
            bao,
            front,
            back,
            n_repl,
        )
    return bao, back, n_repl, n_log, -1, -1, False, NO_BAO


@njit(cache=True)
def _bao_check(
    wall, rules, visible, dead, ready, wk, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl
):
    """换宝 at a discard (before claims) or after a claim, then 宝卡 for a seat that just
    declared: ``step_bao_check``'s work, a call of its own (numba's inliner lost variables of
    this branching step when it was inlined whole)."""
    if rules[R_BAO_REPLACEMENT] and visible[bao] >= 3:  # RULES: 换宝 at the discard, before claims
        bao, back, n_repl, n_log, kan = _check_bao(
            wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log
        )
        if kan >= 0:  # RULES: a win (宝卡 included) beats a peng or chi
            return bao, back, n_repl, n_log, kan, KANCHAN, True, BAO_IN_BAO
    if newly_ready and rules[R_BAO_KAN_INSTANT] and wk[cur, bao] == KANCHAN:  # RULES: 宝卡
        return bao, back, n_repl, n_log, cur, KANCHAN, True, BAO_IN_BAO
    return bao, back, n_repl, n_log, -1, -1, False, NO_BAO


def step_before_claims(st, cur, d, claimable, at_end, lock):
    return claimable


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    conc, ready, nm = st.conc, st.ready, st.nm
    if stage == 0:
        for k in range(1, 4):
            s2 = (cur + k) % 4
            if conc[s2, d] < 2:
                continue
            if ready[s2] or not _meld_ok(nm[s2], rules):
                continue
            opts = 1 << CLAIM_PENG  # at most one other seat holds two copies
            if conc[s2, d] == 3 and front <= back:
                opts |= 1 << CLAIM_KONG
            return s2, opts, False
        return -1, 0, False
    if d == ZHONG:
        return -1, 0, True
    if stage != 1 and not rules[R_CHI_ANY_SEAT_FOR_READY]:
        return -1, 0, True  # RULES: chi only from the previous seat (上家)
    s2 = (cur + stage) % 4
    if not ready[s2] and _meld_ok(nm[s2], rules):
        opts = _chi_options_seat(conc, s2, d)
        if stage != 1:  # RULES: 上听吃三家 — only a chi that makes the hand ready
            for a in (CHI_LOW, CHI_MID, CHI_HIGH):
                if opts & (1 << a) and not _chi_makes_ready(
                    conc[s2], st.mk[s2], st.mt[s2], nm[s2], d, a, rules, tabs, obs.tk, obs.tb
                ):
                    opts &= ~(1 << a)
        if opts != 0:
            return s2, opts, False
    return -1, 0, False


def step_claim(st, code, kn, obs, rules, tabs, t, options):
    return dispatch.claim(code, kn, obs, rules, tabs, t, options)


def step_after_claims(st, claimer, action):
    return False


def step_note_claim(st, rules, claimer, cur, action, log, log_on, n_log):
    return n_log


def step_record(st, rules, dealer, orow, hrow, rec_hand, tabs):
    return record(rules, dealer, st, orow, hrow, rec_hand)


def step_legal_discards(st, ctl, rules, tabs, tk, tb):
    return legal_discards(st, ctl, rules, tabs, tk, tb)
