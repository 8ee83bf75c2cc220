"""``greedy``: minimise the Daqing shanten, claim what opens the door or brings the hand closer.

Discards to minimise the Daqing shanten (``daqing_shanten_k``), breaking ties by ukeire (unseen
tiles near the hand, a held 中 or within two ranks of a held tile of its suit, that lower the
standard shanten below the discard's; a standard-ready hand that is not ready counts as one
away, so there every near unseen tile counts), then by the lower standard shanten, then by the
lowest tile kind. A discard more than ``EXACT_DEPTH`` from ready is rated by its standard
shanten (the kernel only gives a table bound there). Claims chi/peng/kong when that opens the
door without raising its shanten, or lowers it; declares a kong that does not raise it;
declares ready at once, on the wait with the most live outs.

The building blocks take the two variations of :mod:`jia_hunter` (``prefer_jia``) and
:mod:`defensive` (``fold_shanten``) as arguments, so those players are this one with a knob.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    CHI,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    KONG,
    OPT_ADDED_KONG,
    OPT_CONCEALED_KONG,
    PASS,
    PENG,
)
from daqing_sim.hand.kernels import daqing_shanten_k, is_open_k, std_shanten_k
from daqing_sim.players.common import (
    EXACT_DEPTH,
    JIA,  # noqa: F401 (re-exported for the variations of greedy)
    NO_JIA,
    UNKNOWN,
    can_declare_after,
    claim_give,
    claim_take,
    current_shanten,
    discard_shanten,
    discard_shanten_below,
    pick_ready_discard,
    ready_discard_candidates,
    ready_shape,
    ukeire_after,
    unseen_counts,
)
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_KEEP_READY, I_MUST_DECLARE, I_N_MELDS, I_SEAT

KNOBS: dict[str, Knob] = {}
NEVER_FOLD = np.inf


@njit(cache=True, inline="always")
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: the greedy discard of the observation's ``3k+2`` hand."""
    return discard_with(obs, rules, tabs, NO_JIA, 0.0, NEVER_FOLD)


@njit(cache=True, inline="always")
def claim(kn, obs, rules, tabs, t, options):
    """The claim action on discard ``t`` (``options`` a bit mask of legal actions)."""
    return claim_with(obs, rules, tabs, t, options, NEVER_FOLD)


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """A kong that does not raise the Daqing shanten (the first such kind), or -1."""
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    cur = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
    for t in range(28):
        if kong_opts[t] == OPT_CONCEALED_KONG and nm < 4:
            old_k = mk[nm]
            old_t = mt[nm]
            hand[t] -= 4
            mk[nm] = CONCEALED_KONG
            mt[nm] = t
            v = daqing_shanten_k(hand, mk, mt, nm + 1, rules, tabs)
            hand[t] += 4
            mk[nm] = old_k
            mt[nm] = old_t
            if v <= cur:
                return t
        elif kong_opts[t] == OPT_ADDED_KONG:
            i = 0
            while i < nm and not (mk[i] == PENG and mt[i] == t):
                i += 1
            hand[t] -= 1
            mk[i] = ADDED_KONG
            v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
            mk[i] = PENG
            hand[t] += 1
            if v <= cur:
                return t
    return -1


@njit(cache=True, inline="always")
def _opponent_ready(ready, seat):
    for r in range(4):
        if r != seat and ready[r]:
            return True
    return False


@njit(cache=True)
def discard_with(obs, rules, tabs, prefer_jia, min_outs_fraction, fold_shanten):
    """The greedy discard, preferring a 夹 wait (``prefer_jia``) and folding to the safest tile
    when an opponent is ready and the hand is ``fold_shanten`` or more from ready. Records the
    Daqing shanten of the hand left in ``memo[seat, 0]``."""
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    unseen = obs.sc[0]
    cand = obs.sc[1]
    unseen_counts(hand, mk, mt, nm, obs.visible, unseen)
    if obs.info[I_KEEP_READY] or obs.info[I_MUST_DECLARE]:
        ready_discard_candidates(hand, cand)
        t = pick_ready_discard(
            hand, mk, mt, nm, rules, tabs, unseen, cand, obs.tk, obs.tb, prefer_jia, min_outs_fraction
        )
        obs.memo[seat, 0] = 0
        return t, obs.info[I_MUST_DECLARE] != 0
    folding = fold_shanten < NEVER_FOLD and _opponent_ready(obs.ready, seat)
    t, declare, sh = _best_discard(
        obs, rules, tabs, unseen, prefer_jia, min_outs_fraction, folding, fold_shanten
    )
    obs.memo[seat, 0] = sh
    return t, declare


@njit(cache=True, inline="always")
def _best_discard(obs, rules, tabs, unseen, prefer_jia, min_outs_fraction, folding, fold_shanten):
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    tk = obs.tk
    tb = obs.tb
    std = obs.sc[1]
    dq = obs.sc[2]
    discard_shanten(hand, tabs, std)
    lo = 99
    for t in range(28):
        dq[t] = 99
        if std[t] < lo:
            lo = std[t]
    if folding and lo >= fold_shanten:  # daqing >= standard: already far enough to fold
        return safest_discard(obs, std, unseen), False, UNKNOWN
    cand = obs.sc[3]
    if lo == 0:
        n_ready = 0
        for t in range(28):
            cand[t] = 0
            if std[t] == 0:
                hand[t] -= 1
                if ready_shape(hand, mk, mt, nm, rules, tabs, tk, tb):
                    cand[t] = 1
                    n_ready += 1
                hand[t] += 1
        if n_ready > 0:
            t = pick_ready_discard(
                hand, mk, mt, nm, rules, tabs, unseen, cand, tk, tb, prefer_jia, min_outs_fraction
            )
            return t, can_declare_after(hand, mk, mt, nm, rules), 0
        for t in range(28):
            if std[t] == 0:
                std[t] = 1  # not ready: at least one exchange away
        lo = 1
    if lo > EXACT_DEPTH:
        return far_discard(hand, std, lo, unseen, tabs), False, lo
    best_t, best = _branch_and_bound(hand, mk, mt, nm, rules, tabs, std, dq, obs.sc[3], lo, unseen)
    if folding and best >= fold_shanten:
        return safest_discard(obs, std, unseen), False, UNKNOWN
    return best_t, False, best


@njit(cache=True, inline="always")
def _branch_and_bound(hand, mk, mt, nm, rules, tabs, std, dq, uk, lo, unseen):
    """Branch and bound on (Daqing shanten, -ukeire): the standard shanten is a lower bound of
    the Daqing one, so discards are visited level by level, best ukeire first, and a level
    stops at the first discard that reaches its bound. Returns (tile, Daqing shanten)."""
    for t in range(28):
        uk[t] = -1
    best = 99
    best_t = -1
    best_u = -1
    level = lo
    while level <= best and level <= 13:
        for t in range(28):
            if std[t] == level:
                uk[t] = ukeire_after(hand, t, level, unseen, tabs)
        while True:
            t = -1
            for x in range(28):
                if std[x] == level and dq[x] == 99 and (t < 0 or uk[x] > uk[t]):
                    t = x
            if t < 0 or (level == best and uk[t] <= best_u):
                break
            if level > EXACT_DEPTH:
                v = level  # far from ready the table bound is all the kernel would give
            else:
                hand[t] -= 1
                v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
                hand[t] += 1
            dq[t] = v
            if v < best or (v == best and uk[t] > best_u):
                best = v
                best_t = t
                best_u = uk[t]
            if v == level:
                break
        level += 1
    return best_t, best


@njit(cache=True)
def far_discard(hand, std, lo, unseen, tabs):
    """Far from ready: the discard with standard shanten ``lo`` and the most ukeire (lowest
    kind on ties)."""
    best_t = -1
    best_u = -1
    for t in range(28):
        if std[t] == lo:
            u = ukeire_after(hand, t, lo, unseen, tabs)
            if u > best_u:
                best_u = u
                best_t = t
    return best_t


@njit(cache=True)
def safest_discard(obs, sh, unseen):
    """Fewest ready opponents it can hit (a tile a locked ready seat let pass is safe against
    it); then fewest unseen copies; then lowest shanten (``sh``, after each discard)."""
    hand = obs.hand
    seat = obs.info[I_SEAT]
    best_t = -1
    best_key = 1 << 30
    for t in range(28):
        if hand[t] == 0:
            continue
        danger = 0
        for r in range(4):
            if r == seat or not obs.ready[r] or obs.safe[r, t]:
                continue
            danger += 2 if obs.visible[t] + hand[t] < 4 else 1
        key = (danger * 8 + unseen[t]) * 128 + min(sh[t], 99)
        if key < best_key:
            best_key = key
            best_t = t
    return best_t


@njit(cache=True)
def claim_with(obs, rules, tabs, t, options, fold_shanten):
    """Claim when it opens the door without raising the shanten, or lowers it; pass while
    folding (``fold_shanten`` or more away with an opponent ready)."""
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    if options == 0:
        return PASS
    cur = current_shanten(hand, mk, mt, nm, rules, tabs, obs.memo[seat])
    if cur >= fold_shanten and _opponent_ready(obs.ready, seat):
        return PASS
    best_a = PASS
    best_v = cur if is_open_k(mk, nm) else cur + 1  # opening the door is worth one step
    old_k = mk[min(nm, 3)]
    old_t = mt[min(nm, 3)]
    out = obs.sc[2]
    for a in (CLAIM_KONG, CLAIM_PENG, CHI_LOW, CHI_MID, CHI_HIGH):
        if not options & (1 << a):
            continue
        low = claim_take(hand, t, a)
        mk[nm] = KONG if a == CLAIM_KONG else (PENG if a == CLAIM_PENG else CHI)
        mt[nm] = low
        if a == CLAIM_KONG:  # 13 tiles before the replacement draw
            v = std_shanten_k(hand, tabs)
            if v < best_v and v <= EXACT_DEPTH:
                v = daqing_shanten_k(hand, mk, mt, nm + 1, rules, tabs)
        else:  # 14 tiles: the best discard after the claim
            v = discard_shanten_below(hand, mk, mt, nm + 1, rules, tabs, best_v, out)
        if v < best_v:
            best_v = v
            best_a = a
        claim_give(hand, t, a, low)
    if nm < 4:
        mk[nm] = old_k
        mt[nm] = old_t
    return best_a
