"""The simple players of the Beijing family: ``random`` and ``greedy`` on 34 kinds (see
:mod:`daqing_sim.families.beijing.players`, which dispatches to them, for what they do). Their building
blocks (unseen counts, the greedy discard of a hand) are shared with the Beijing expert."""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import (
    CHI_HIGH,
    CHI_LOW,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    OPT_ADDED_KONG,
    OPT_CONCEALED_KONG,
    PASS,
    ZHONG,
)
from daqing_sim.hand.kinds34 import (
    bj_discard_context_k,
    bj_honor_discard_ukeire_k,
    bj_plus_ids_k,
    bj_shanten_changes_k,
    bj_shanten_k,
    bj_suit_discard_ukeire_k,
)
from daqing_sim.jit import njit_no_refs
from daqing_sim.players.common import rand_below
from daqing_sim.players.observation import I_N_MELDS

_NONE = 99  # no shanten yet


@njit(cache=True, inline="always")
def random_discard(hand, rng, seat):
    """A uniformly random kind among those in ``hand`` (34 kinds)."""
    kinds = 0
    for t in range(hand.shape[0]):
        if hand[t] > 0:
            kinds += 1
    k = rand_below(rng, seat, kinds)
    for t in range(hand.shape[0]):
        if hand[t] > 0:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True, inline="always")
def random_kong(kong_opts, rng, seat):
    """No kong or one of the legal kongs, uniformly."""
    n = 0
    for t in range(kong_opts.shape[0]):
        if kong_opts[t]:
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, seat, n + 1)
    for t in range(kong_opts.shape[0]):
        if kong_opts[t]:
            k -= 1
            if k < 0:
                return t
    return -1


@njit(cache=True, inline="always")
def unseen_kinds(obs, out):
    """Copies of each kind this seat cannot see (not in hand, a pond, an exposed meld or its own
    concealed kongs)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    for t in range(hand.shape[0]):
        out[t] = 4 - hand[t] - obs.visible[t]
    for j in range(nm):
        if obs.mk[j] == CONCEALED_KONG:
            out[obs.mt[j]] -= 4
    for t in range(hand.shape[0]):
        if out[t] < 0:
            out[t] = 0


@njit_no_refs
def _best_discard(hand, nm, tabs, unseen, after, up, memo):
    """The greedy discard of a 3k+2 ``hand`` with ``nm`` melds: the kind whose removal leaves
    the lowest table shanten, ties broken by ukeire, then by the lowest kind. ``after``, ``up``
    (the plus ids) and ``memo`` are (34,) scratch rows (the ukeire of tied discards share parts,
    kept in ``memo``)."""
    bj_shanten_changes_k(hand, nm, tabs, -1, after)
    best = _NONE
    n_tied = 0
    best_t = -1
    for t in range(hand.shape[0]):
        if after[t] < best:
            best = after[t]
            n_tied = 1
            best_t = t
        elif after[t] == best:
            n_tied += 1
    if n_tied == 1:
        return best_t
    best_uk = -1
    bj_plus_ids_k(hand, tabs, up)
    ctx = bj_discard_context_k(hand, tabs)
    n_memo = np.int64(0)  # (a literal 0 would compile the ukeire kernels twice)
    for t in range(hand.shape[0]):
        if after[t] != best:
            continue
        if t < ZHONG:
            uk, n_memo = bj_suit_discard_ukeire_k(
                hand, nm, tabs, unseen, np.int64(best), t, up, memo, n_memo, ctx
            )
        else:
            uk, n_memo = bj_honor_discard_ukeire_k(
                hand, nm, tabs, unseen, np.int64(best), t, up, memo, n_memo, ctx
            )
        if uk > best_uk:
            best_uk = uk
            best_t = t
    return best_t


@njit_no_refs
def _lowest_after_discard(hand, nm, tabs, after):
    """The lowest table shanten a discard from the 3k+2 ``hand`` leaves."""
    bj_shanten_changes_k(hand, nm, tabs, -1, after)
    best = _NONE
    for t in range(hand.shape[0]):
        if after[t] < best:
            best = after[t]
    return best


@njit(cache=True, inline="always")
def greedy_discard(obs, tabs):
    """The greedy discard of the observation's 3k+2 hand. (This and :func:`unseen_kinds` are inlined
    into the seat functions: numba passes every array of ``obs`` and ``tabs`` to a call by value,
    which cost two-player greedy a tenth of its time.)"""
    unseen = obs.sc[0]
    unseen_kinds(obs, unseen)
    return _best_discard(obs.hand, obs.info[I_N_MELDS], tabs, unseen, obs.sc[1], obs.sc[2], obs.sc[3])


@njit_no_refs
def greedy_claim(obs, tabs, d, options):
    """Claim ``d`` when the best discard after the meld lowers the hand's table shanten (a kong:
    when the hand left does not raise it)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    if nm >= 4:
        return PASS
    now = bj_shanten_k(hand, nm, tabs)
    after = obs.sc[1]
    best = PASS
    best_v = now
    if options & (1 << CLAIM_KONG):
        hand[d] -= 3
        v = bj_shanten_k(hand, nm + 1, tabs)
        hand[d] += 3
        if v <= now:
            return CLAIM_KONG
    if options & (1 << CLAIM_PENG):
        hand[d] -= 2
        v = _lowest_after_discard(hand, nm + 1, tabs, after)
        hand[d] += 2
        if v < best_v:
            best_v = v
            best = CLAIM_PENG
    for a in range(CHI_LOW, CHI_HIGH + 1):
        if not options & (1 << a):
            continue
        low = d - (a - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                hand[x] -= 1
        v = _lowest_after_discard(hand, nm + 1, tabs, after)
        for x in range(low, low + 3):
            if x != d:
                hand[x] += 1
        if v < best_v:
            best_v = v
            best = a
    return best


@njit_no_refs
def greedy_kong(obs, tabs, kong_opts):
    """A kong that does not raise the shanten (the first such kind), or -1."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    now = bj_shanten_k(hand, nm, tabs)
    for t in range(kong_opts.shape[0]):
        if kong_opts[t] == OPT_CONCEALED_KONG:
            hand[t] -= 4
            v = bj_shanten_k(hand, nm + 1, tabs)
            hand[t] += 4
            if v <= now:
                return t
        elif kong_opts[t] == OPT_ADDED_KONG:
            hand[t] -= 1
            v = bj_shanten_k(hand, nm, tabs)
            hand[t] += 1
            if v <= now:
                return t
    return -1
