"""Jitted kernels of the exact advisor: a single-player search over the seat's own draws.

The model (stated in full in :func:`daqing_sim.advisor.api.advise`): the seat's next own draws
are a uniform random sequence without replacement from its unseen tiles (``pool``); the bao is
one more unseen tile, uniform over what is still unseen; nobody else wins or claims. A 13-tile
state is *ready* when its Daqing wait set is not empty; a ready hand is kept (locked) and wins
on the first own draw of a winning tile or of the bao's kind.

Values of a state are vectors ``v`` of length ``k + 2``: ``v[i]`` (``i < k``) the probability of
being ready by own draw ``i + 1``, ``v[k]`` the probability of winning before the wall runs out
and ``v[k + 1]`` the expected payment to the seat. At a decision each component takes its own
maximum over the discards, so every component is the best any play achieves for it.

Payments come from ``pay``, indexed ``2 * bao_kind + big`` (bao codes of
:mod:`daqing_sim.families.daqing.scoring`), filled by the caller from
:func:`daqing_sim.families.daqing.scoring.settle`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from daqing_sim.advisor.hand_calls import dq_shanten, std_shanten, wait_set
from daqing_sim.codes import BAO, BAO_EDGE, BAO_IN_BAO, KANCHAN, N_KINDS, NO_BAO
from daqing_sim.rules import R_BAO_KAN_INSTANT

MEMO_ROWS = 1 << 18  # states kept by the transposition table of one call
NO_ROOT = np.int64(-1)  # ``d0`` of a 13-tile root (an int64, not the literal -1: one compile)


@njit(cache=True, inline="always")
def _miss(drawable, hits, r):
    """Probability that ``r`` draws from ``drawable`` tiles miss all ``hits`` of them."""
    miss = 1.0
    for i in range(min(r, drawable)):
        miss *= (drawable - hits - i) / (drawable - i)
        if miss <= 0.0:
            return 0.0
    return miss


@njit(cache=True)
def win_phase_k(wk, wb, pool, n_pool, r, bao_kan, pay):
    """(p_win, ev) of a locked ready hand with wait set ``wk`` / ``wb`` and ``r`` own draws.

    The bao kind ``b`` is that of a uniform unseen tile (probability ``pool[b] / n_pool``); the
    draws come from the other ``n_pool - 1`` tiles. The first draw of a winning kind or of
    kind ``b`` wins: at face value when it is in the wait set (宝边 / 宝中宝 if it is ``b``),
    else as the wild 摸宝 for the best-scoring wait (big first, then the wait-kind order).
    """
    wild_key = -1
    wild_big = 0
    hits0 = 0  # live copies of the winning kinds
    total0 = 0.0  # and their payments at face value
    for t in range(N_KINDS):
        if wk[t] >= 0:
            key = (8 if wb[t] else 0) + 4 - wk[t]
            if key > wild_key:
                wild_key = key
                wild_big = 1 if wb[t] else 0
            hits0 += pool[t]
            total0 += pool[t] * pay[2 * NO_BAO + (1 if wb[t] else 0)]
    if wild_key < 0 or n_pool <= 0:
        return 0.0, 0.0
    drawable = n_pool - 1  # the bao tile itself is never drawn
    wild = pay[2 * BAO + wild_big]
    miss = np.empty(5)  # miss[i]: with hits0 - 1 + i winning draws
    for i in range(5):
        miss[i] = _miss(drawable, hits0 - 1 + i, r) if hits0 - 1 + i >= 0 else 1.0
    p_win = 0.0
    ev = 0.0
    for b in range(N_KINDS):
        if pool[b] == 0:
            continue
        pb = pool[b] / n_pool
        if wk[b] >= 0:
            big = 1 if wb[b] else 0
            if bao_kan and wk[b] == KANCHAN:  # RULES: 宝卡, a self-drawn 宝中宝 at sight
                p_win += pb
                ev += pb * pay[2 * BAO_IN_BAO + 1]
                continue
            hits = hits0 - 1
            total = (
                total0
                - pay[2 * NO_BAO + big]
                + (pool[b] - 1) * (pay[2 * (BAO_IN_BAO if big else BAO_EDGE) + big] - pay[2 * NO_BAO + big])
            )
            m = miss[0]
        else:
            hits = hits0 + pool[b] - 1
            total = total0 + (pool[b] - 1) * wild
            m = miss[pool[b]]
        if hits > 0:
            p_win += pb * (1.0 - m)
            ev += pb * (1.0 - m) * total / hits
    return p_win, ev


@njit(cache=True)
def _key(xs, dd, j, d, d0, scratch):
    """Exact key of the state after draws ``xs[:j + 1]`` and discards ``dd[:j]``, ``d`` (and
    ``d0`` if >= 0): the depth, then both multisets sorted, in base 29 (< 29**11 < 2**63)."""
    n = 0
    for i in range(j + 1):
        scratch[n] = xs[i]
        n += 1
    _insertion_sort(scratch, 0, n)
    m = n
    for i in range(j):
        scratch[m] = dd[i]
        m += 1
    scratch[m] = d
    m += 1
    if d0 >= 0:
        scratch[m] = d0
        m += 1
    _insertion_sort(scratch, n, m)
    key = np.int64(j + 1)
    for i in range(m):
        key = key * 29 + scratch[i] + 1
    return key


@njit(cache=True, inline="always")
def _insertion_sort(a, lo, hi):
    for i in range(lo + 1, hi):
        v = a[i]
        p = i - 1
        while p >= lo and a[p] > v:
            a[p + 1] = a[p]
            p -= 1
        a[p + 1] = v


@njit(cache=True)
def _search(
    s, mk, mt, nm, pool, n_pool, kmax, k, d_left, rules, tabs, pay, acc, best, wk, wb, d0, index, vals
):
    """Value of the non-ready 13-tile state ``s`` into ``acc[0]``: a depth-first search over
    ``kmax`` own draws, iterative (numba cannot cache recursive functions).

    At depth ``j`` (``j`` draws made) ``xs[j]`` is the draw being tried, ``dd[j]`` the discard
    (28: choose the next draw), ``acc[j]`` the node's value so far and ``best[j]`` the best over
    the discards after draw ``xs[j]``. ``s`` and ``pool`` are restored on return. A draw or a
    discard is skipped when the standard shanten (a lower bound) shows no ready shape within
    the draws left.

    A transposition table: a state below the root is fixed by its depth, the multiset of
    draws and the multiset of discards (with ``d0``, the root discard of a 14-tile hand, or -1),
    in whatever order they came, so its value is stored once (``index``: :func:`_key` -> row of
    ``vals``, while rows are free) and reused by every other order and every other root.
    """
    bao_kan = rules[R_BAO_KAN_INSTANT] != 0
    xs = np.full(kmax, -1, dtype=np.int64)
    dd = np.full(kmax, N_KINDS, dtype=np.int64)
    px = np.zeros(kmax)
    keys = np.zeros(kmax + 1, dtype=np.int64)
    scratch = np.empty(2 * kmax + 2, dtype=np.int64)
    acc[0, :] = 0.0
    j = np.int64(0)  # not the literal 0: numba would compile _key for Literal[int](0) too
    while j >= 0:
        left = kmax - j - 1  # search draws after the one at this depth
        if dd[j] == N_KINDS:  # close the current draw, open the next one
            x = xs[j]
            if x >= 0:
                for i in range(k + 2):
                    acc[j, i] += px[j] * best[j, i]
                s[x] -= 1
                pool[x] += 1
                n_pool += 1
            x += 1
            while x < N_KINDS:
                if pool[x] > 0:
                    s[x] += 1
                    pool[x] -= 1
                    if std_shanten(s, tabs) <= left:  # else no discard is ready in time
                        break
                    s[x] -= 1
                    pool[x] += 1
                x += 1
            xs[j] = x
            if x == N_KINDS:  # node done: back to the parent's discard loop
                j -= 1
                if j >= 0 and len(index) < vals.shape[0]:
                    row = len(index)
                    for i in range(k + 2):  # a loop: an array slice assignment compiles its error text
                        vals[row, i] = acc[j + 1, i]
                    index[keys[j + 1]] = row
                if j >= 0:
                    for i in range(k + 2):
                        if acc[j + 1, i] > best[j, i]:
                            best[j, i] = acc[j + 1, i]
                    s[dd[j]] += 1
                    dd[j] += 1
                continue
            px[j] = (pool[x] + 1) / n_pool
            n_pool -= 1
            best[j, :] = 0.0
            dd[j] = 0
        descended = False
        d = dd[j]
        while d < N_KINDS:
            if s[d] > 0:
                s[d] -= 1
                sh = std_shanten(s, tabs)
                if sh == 0 and wait_set(s, mk, mt, nm, rules, tabs, wk, wb) > 0:
                    p, e = win_phase_k(wk, wb, pool, n_pool, d_left - j - 1, bao_kan, pay)
                    for i in range(j, k):
                        best[j, i] = 1.0
                    if p > best[j, k]:
                        best[j, k] = p
                    if e > best[j, k + 1]:
                        best[j, k + 1] = e
                elif max(sh, 1) <= left:
                    key = _key(xs, dd, j, d, d0, scratch)
                    if key in index:
                        row = index[key]
                        for i in range(k + 2):
                            if vals[row, i] > best[j, i]:
                                best[j, i] = vals[row, i]
                        s[d] += 1
                        d += 1
                        continue
                    keys[j + 1] = key
                    dd[j] = d
                    j += 1
                    xs[j] = -1
                    dd[j] = N_KINDS
                    acc[j, :] = 0.0
                    descended = True
                    break
                s[d] += 1
            d += 1
        if not descended:
            dd[j] = N_KINDS


@njit(cache=True)
def state_value_k(counts, mk, mt, nm, pool, k, d_left, rules, tabs, pay, out):
    """Fill ``out`` (``k + 2``) with the value of the 13-tile state ``counts`` (see module doc)."""
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    vals = np.empty((MEMO_ROWS, k + 2))
    # the types discard_values_k passes: one compile of _state_value and _search
    _state_value(
        counts.astype(np.uint8), mk, mt, nm, pool, k, d_left, rules, tabs, pay, out, NO_ROOT, index, vals
    )


@njit(cache=True)
def discard_values_k(counts, mk, mt, nm, pool, k, d_left, rules, tabs, pay, out):
    """``out[d]`` (``(28, k + 2)``): the value after discarding ``d`` from the 14-tile
    ``counts``, for every kind held (rows of kinds not held are left 0)."""
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    vals = np.empty((MEMO_ROWS, k + 2))
    c = counts.astype(np.uint8)
    out[:, :] = 0.0
    for d in range(N_KINDS):
        if c[d] == 0:
            continue
        c[d] -= 1
        _state_value(c, mk, mt, nm, pool, k, d_left, rules, tabs, pay, out[d], d, index, vals)
        c[d] += 1


@njit(cache=True, inline="always")
def _state_value(counts, mk, mt, nm, pool, k, d_left, rules, tabs, pay, out, d0, index, vals):
    """Fill ``out`` (``k + 2``) with the value of the 13-tile state ``counts`` (see module doc).

    ``k`` own draws are searched (at most ``d_left``, the own draws before the wall runs out);
    a state not ready within them counts as no win.
    """
    # uint8 counts as everywhere: the hand kernels are compiled for one signature
    s = counts.astype(np.uint8)
    pl = pool.astype(np.int64)
    n_pool = np.int64(0)  # not the literal 0: numba would type _search for Literal[int](0) too
    for t in range(N_KINDS):
        n_pool += pl[t]
    wk = np.empty(N_KINDS, dtype=np.int8)
    wb = np.empty(N_KINDS, dtype=np.uint8)
    out[:] = 0.0
    if wait_set(s, mk, mt, nm, rules, tabs, wk, wb) > 0:
        out[:k] = 1.0
        p, e = win_phase_k(wk, wb, pl, n_pool, d_left, rules[R_BAO_KAN_INSTANT] != 0, pay)
        out[k] = p
        out[k + 1] = e
        return
    kmax = min(k, d_left, n_pool - 1)
    if kmax <= 0 or max(std_shanten(s, tabs), 1) > kmax:
        return
    acc = np.zeros((kmax, k + 2))
    best = np.zeros((kmax, k + 2))
    _search(s, mk, mt, nm, pl, n_pool, kmax, k, d_left, rules, tabs, pay, acc, best, wk, wb, d0, index, vals)
    for i in range(k + 2):
        out[i] = acc[0, i]


def wait_set_stand_ins(mk, mt, nm, enc, tabs) -> tuple:
    """Arguments of the types :func:`_state_value` and :func:`_search` pass the wait set's kernel
    (uint8 counts, int8 kinds, uint8 big flags), to compile it ahead of them
    (:func:`daqing_sim.advisor.api.warm_outs`)."""
    c = np.zeros(N_KINDS, dtype=np.uint8)
    return c, mk, mt, nm, enc, tabs, np.empty(N_KINDS, dtype=np.int8), np.empty(N_KINDS, dtype=np.uint8)


@njit(cache=True)
def outs_k(counts, mk, mt, nm, pool, rules, tabs, out_lower):
    """Daqing shanten of the 13-tile ``counts``; ``out_lower[x] = 1`` for the unseen kinds ``x``
    whose draw lowers it (some discard of the 14 tiles has a lower shanten; for a ready hand,
    the winning tiles)."""
    s = counts.astype(np.uint8)
    sh = dq_shanten(s, mk, mt, nm, rules, tabs)
    for x in range(N_KINDS):
        out_lower[x] = 0
        if pool[x] == 0:
            continue
        s[x] += 1
        if dq_shanten(s, mk, mt, nm, rules, tabs) < sh:
            out_lower[x] = 1
        s[x] -= 1
    return sh
