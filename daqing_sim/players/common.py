"""Jitted building blocks the built-in players share: randomness, unseen counts, shanten of
every discard, ukeire, wait outs, and claim bookkeeping. They read only an observation's fields.

The small blocks that call the hand kernels (``ready_shape``, ``wait_outs``, ``current_shanten``,
...) are inlined (``inline="always"``) into the players: compiled as functions of their own, each
was a compile that re-optimised the hand kernels linked into it, about a second apiece
(``tools/compile_timings.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CHI_LOW, CLAIM_KONG, CLAIM_PENG, CONCEALED_KONG, ZHONG
from daqing_sim.hand.kernels import daqing_shanten_k, may_declare_k, std_shanten_k, wait_set_k
from daqing_sim.players.observation import I_N_MELDS, UNKNOWN  # noqa: F401 (UNKNOWN re-exported)
from daqing_sim.rules import R_REQUIRE_OPEN

# Beyond this standard shanten the Daqing value is only a table bound: the greedy players compare
# the standard shanten there, which is ten times cheaper.
EXACT_DEPTH = 2
# ``prefer_jia`` arguments as numpy booleans: a Python ``True``/``False`` constant would compile
# the building blocks that take it a second time, for numba's literal type of that constant
NO_JIA = np.bool_(False)
JIA = np.bool_(True)


# ---------------------------------------------------------------------------- randomness
@njit(cache=True)
def splitmix64(x):
    """One splitmix64 output of the state ``x`` (uint64)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def rand_below(rng, seat, n):
    """Uniform integer in ``0 .. n-1`` from seat ``seat``'s stream (advances ``rng[seat]``)."""
    rng[seat] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[seat]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


# ---------------------------------------------------------------------------- counting
@njit(cache=True)
def unseen_counts(hand, mk, mt, nm, visible, out):
    """Copies of each kind this seat cannot see (its hand, concealed kongs, visible tiles)."""
    for t in range(28):
        out[t] = 4 - np.int32(hand[t]) - np.int32(visible[t])
    for i in range(nm):
        if mk[i] == CONCEALED_KONG:
            out[mt[i]] -= 4
    for t in range(28):
        if out[t] < 0:
            out[t] = 0


@njit(cache=True, inline="always")
def _near(hand, u):
    if hand[u] > 0:
        return True
    if u == ZHONG:
        return False
    r = u % 9
    for d in range(-2, 3):
        if 0 <= r + d <= 8 and hand[u + d] > 0:
            return True
    return False


_POW5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)


@njit(cache=True, inline="always")
def _suit_key(hand, base):
    key = 0
    for i in range(8, -1, -1):
        key = 5 * key + np.int64(hand[base + i])
    return key


# Standard shanten of one-tile changes by the merge tables of daqing_sim.hand.tables: a suit is
# named by its base-5 key, so a change is ``key ± 5**i`` and one lookup in ``key_std_id``,
# and the two untouched suits are merged once (``ab_id``) for all changes in the third (the
# greedy inner loop: every discard, then every tile it could draw).
@njit(cache=True)
def _suit_split(hand, tabs):
    """Per-suit keys, the row id of each suit, the 中 count, the meld target, and the merged
    row of each pair of suits (``ab12`` leaves out suit 0, ``ab02`` suit 1, ``ab01`` suit 2)."""
    kid = tabs.key_std_id
    ab_id = tabs.ab_id
    n = 0
    for t in range(28):
        n += np.int64(hand[t])
    k0 = _suit_key(hand, 0)
    k1 = _suit_key(hand, 9)
    k2 = _suit_key(hand, 18)
    i0 = kid[k0]
    i1 = kid[k1]
    i2 = kid[k2]
    return k0, k1, k2, i2, np.int64(hand[ZHONG]), n, ab_id[i1, i2], ab_id[i0, i2], ab_id[i0, i1]


@njit(cache=True)
def discard_shanten(hand, tabs, out):
    """``out[t]`` = standard shanten of the ``3k+2`` ``hand`` without one ``t`` (99 where
    ``hand[t] == 0``); ``hand`` is not modified."""
    kid = tabs.key_std_id
    fin = tabs.fin
    k0, k1, k2, i2, z, n, ab12, ab02, ab01 = _suit_split(hand, tabs)
    melds = n // 3
    for t in range(28):
        if hand[t] == 0:
            out[t] = 99
        elif t == ZHONG:
            out[t] = np.int64(fin[ab01, i2, z - 1, melds]) - 1
        elif t < 9:
            out[t] = np.int64(fin[ab12, kid[k0 - _POW5[t]], z, melds]) - 1
        elif t < 18:
            out[t] = np.int64(fin[ab02, kid[k1 - _POW5[t - 9]], z, melds]) - 1
        else:
            out[t] = np.int64(fin[ab01, kid[k2 - _POW5[t - 18]], z, melds]) - 1


@njit(cache=True)
def ukeire_after(hand, d, level, unseen, tabs):
    """Unseen tiles that lower the standard shanten of the ``3k+2`` ``hand`` without one ``d``
    below ``level`` (that hand's shanten): the greedy tie-break. Only tiles near the hand
    (:func:`_near`) are tried: an isolated tile never helps. ``hand`` is restored."""
    kid = tabs.key_std_id
    fin = tabs.fin
    hand[d] -= 1
    k0, k1, k2, i2, z, n, ab12, ab02, ab01 = _suit_split(hand, tabs)
    melds = (n + 1) // 3
    total = 0
    for u in range(28):
        if unseen[u] == 0 or not _near(hand, u):
            continue
        if u == ZHONG:
            v = fin[ab01, i2, z + 1, melds]
        elif u < 9:
            v = fin[ab12, kid[k0 + _POW5[u]], z, melds]
        elif u < 18:
            v = fin[ab02, kid[k1 + _POW5[u - 9]], z, melds]
        else:
            v = fin[ab01, kid[k2 + _POW5[u - 18]], z, melds]
        if np.int64(v) - 1 < level:
            total += unseen[u]
    hand[d] += 1
    return total


@njit(cache=True, inline="always")
def wait_outs(hand, mk, mt, nm, rules, tabs, unseen, tk, tb):
    """``(n_waits, live_outs, big_outs)`` of a 13-tile hand; fills ``tk``/``tb``."""
    n = wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb)
    outs = 0
    big = 0
    if n > 0:
        for w in range(28):
            if tk[w] >= 0:
                outs += unseen[w]
                if tb[w]:
                    big += unseen[w]
    return n, outs, big


@njit(cache=True, inline="always")
def maybe_ready(hand):
    """Cheap necessary condition for a 13-tile hand to be ready: at most one isolated tile
    (a single copy with no tile of its suit within two ranks)."""
    isolated = 0
    for t in range(28):
        if hand[t] != 1:
            continue
        alone = True
        if t != ZHONG:
            r = t % 9
            for d in (-2, -1, 1, 2):
                if 0 <= r + d <= 8 and hand[t + d] > 0:
                    alone = False
                    break
        if alone:
            isolated += 1
            if isolated > 1:
                return False
    return True


@njit(cache=True, inline="always")
def ready_shape(hand, mk, mt, nm, rules, tabs, tk, tb):
    """Is the 13-tile ``hand`` ready (non-empty wait set)? Open door is not checked."""
    return std_shanten_k(hand, tabs) == 0 and wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb) > 0


# ---------------------------------------------------------------------------- claims
@njit(cache=True)
def claim_take(hand, t, action):
    """Remove from ``hand`` the tiles a claim of ``t`` uses; return the meld's lowest tile."""
    if action == CLAIM_PENG:
        hand[t] -= 2
        return t
    if action == CLAIM_KONG:
        hand[t] -= 3
        return t
    low = t - (action - CHI_LOW)
    # a chi option the engine never offers (honors, CHI_LOW on an 8 or 9, ...) would write
    # outside the hand or across suits
    assert 0 <= low < ZHONG and low % 9 <= 6, "impossible chi option"
    for x in range(low, low + 3):
        if x != t:
            hand[x] -= 1
    return low


@njit(cache=True)
def claim_give(hand, t, action, low):
    """Undo :func:`claim_take`."""
    if action == CLAIM_PENG:
        hand[t] += 2
    elif action == CLAIM_KONG:
        hand[t] += 3
    else:
        for x in range(low, low + 3):
            if x != t:
                hand[x] += 1


@njit(cache=True, inline="always")
def discard_shanten_below(hand, mk, mt, nm, rules, tabs, limit, out):
    """Least Daqing shanten over the discards of the ``3k+2`` ``hand`` when below ``limit``,
    else ``limit``: discards visited by rising standard shanten (a lower bound), stopping at
    the first that reaches its bound. Same value as ``daqing_shanten_k`` on the hand, capped,
    with the standard shanten standing in beyond ``EXACT_DEPTH``."""
    discard_shanten(hand, tabs, out)
    best = limit
    level = 0
    while level < best:
        for t in range(28):
            if out[t] == level:
                if level > EXACT_DEPTH:
                    return level
                hand[t] -= 1
                v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
                hand[t] += 1
                if v < best:
                    best = v
                if v == level:
                    return level
        level += 1
    return best


@njit(cache=True, inline="always")
def current_shanten(hand, mk, mt, nm, rules, tabs, memo):
    """Daqing shanten of the seat's 13-tile hand, cached in ``memo[0]``."""
    if memo[0] == UNKNOWN:
        v = std_shanten_k(hand, tabs)
        if v <= EXACT_DEPTH:  # as in discards: beyond, the standard shanten stands in
            v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
        memo[0] = v
    return memo[0]


@njit(cache=True)
def pick_ready_discard(hand, mk, mt, nm, rules, tabs, unseen, cand, tk, tb, prefer_jia, min_outs_fraction):
    """Among discards ``t`` with ``cand[t]`` that leave a ready hand, the one with the most live
    outs (lowest kind on ties); with ``prefer_jia``, the best 夹 (big) wait instead when its outs
    reach ``min_outs_fraction`` of the best. -1 when no discard leaves a ready hand."""
    best_t = -1
    best_outs = -1
    jia_t = -1
    jia_outs = -1
    for t in range(28):
        if not cand[t] or hand[t] == 0:
            continue
        hand[t] -= 1
        n, outs, big = wait_outs(hand, mk, mt, nm, rules, tabs, unseen, tk, tb)
        hand[t] += 1
        if n == 0:
            continue
        if outs > best_outs:
            best_outs = outs
            best_t = t
        if big > 0 and outs > jia_outs:
            jia_outs = outs
            jia_t = t
    if prefer_jia and jia_t >= 0 and jia_outs >= min_outs_fraction * best_outs:
        return jia_t
    return best_t


@njit(cache=True)
def can_declare_after(hand, mk, mt, nm, rules):
    """May this seat declare after discarding any one tile (open door, 手把一)? Those
    conditions do not depend on which concealed tile goes."""
    for t in range(28):
        if hand[t] > 0:
            hand[t] -= 1
            ok = may_declare_k(hand, mk, mt, nm, rules)
            hand[t] += 1
            return ok
    return False


@njit(cache=True, inline="always")
def ready_discard_candidates(hand, cand):
    """Every kind in hand is a candidate (a ready hand that must stay or become ready)."""
    for t in range(28):
        cand[t] = 1 if hand[t] > 0 else 0


@njit(cache=True, inline="always")
def declares_after(obs, rules, tabs, d):
    """Would discarding ``d`` leave a hand this seat may declare ready on? (cheap necessary
    conditions first: a meld for the open door, at most one isolated tile)."""
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    hand[d] -= 1
    declare = (nm > 0 or not rules[R_REQUIRE_OPEN]) and maybe_ready(hand)
    if declare:
        declare = std_shanten_k(hand, tabs) == 0
    if declare:
        declare = may_declare_k(hand, mk, mt, nm, rules)
    if declare:
        declare = wait_set_k(hand, mk, mt, nm, rules, tabs, obs.tk, obs.tb) > 0
    hand[d] += 1
    return declare
