"""Jitted kernels of the exact advisor for the 34-kind families (Beijing, two-player): a
single-player search over the seat's own draws, as :mod:`daqing_sim.advisor.exact` does for
Daqing, with the family's shapes, wait sets and scoring.

The model (stated in full in :func:`daqing_sim.advisor.family_api.family_rows`): the seat's next
own draws are a uniform random sequence without replacement from its unseen tiles (``pool``,
34 kinds; there is no bao); nobody else wins or claims. A 13-tile state is *ready* when the
family's wait set is not empty; a ready hand is kept and wins on its first own draw of a winning
tile, worth the family's value of that self-drawn win to the seat (Beijing: three losers pay
base x F, half for an open hand; two-player: the opponent pays F x multiplier), with the
last-tile fan when the seat's last own draw is the wall's last tile (``last_own``). Two-player's
ready seat draws ``extra`` more tiles after the wall's end (海底捞月, with its fan).

Values of a state are vectors ``v`` of length ``k + 2`` as Daqing's: ``v[i]`` (``i < k``) the
probability of being ready by own draw ``i + 1``, ``v[k]`` of winning, ``v[k + 1]`` the expected
payment; each component is the best any play achieves for it.

The search mirrors :func:`daqing_sim.advisor.exact._search` (iterative: numba cannot cache a
recursive function), on 34 kinds; its transposition key is in base 35.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from daqing_sim.codes import CONCEALED_KONG, N_KINDS_ALL
from daqing_sim.families.beijing.hand import HOW_LAST_TILE, HOW_SELF_DRAW, bj_fans_k, bj_value_k
from daqing_sim.families.two_player.hand import (
    CTX_EXTRA_DRAW,
    CTX_LAST_TILE,
    tp_fans_k,
    tp_hand_shanten_k,
    tp_kokushi_shanten_k,
    tp_value_k,
    tp_wait_set_k,
)
from daqing_sim.hand.kinds34 import bj_hand_shanten_k, bj_shanten_changes_k, bj_shanten_k, bj_wait_set_k
from daqing_sim.rules import R_FAMILY

BEIJING, TWO_PLAYER = 1, 2  # codes.FAMILIES indices, as rules[R_FAMILY]
MEMO_ROWS = 1 << 18
NO_ROOT = np.int64(-1)
_BASE = N_KINDS_ALL + 1


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
def lower_bound_k(s, nm, tabs, fam):
    """The table shanten (copies not counted): a lower bound of the family's shanten."""
    v = bj_shanten_k(s, nm, tabs)
    if fam == TWO_PLAYER and nm == 0:
        n = 0
        for t in range(N_KINDS_ALL):
            n += s[t]
        if n >= 13:
            v = min(v, tp_kokushi_shanten_k(s))
    return v


@njit(cache=True)
def _changes(s, nm, tabs, fam, delta, out):
    """``out[t]``: :func:`lower_bound_k` of ``s`` with one tile of kind ``t`` added (``delta``
    1) or removed (-1), all 34 at about the cost of one (99: impossible); ``s`` holds 13 or 14
    tiles, so the changed hand has 13 or more."""
    bj_shanten_changes_k(s, nm, tabs, delta, out)
    if fam == TWO_PLAYER and nm == 0:
        for t in range(N_KINDS_ALL):
            if out[t] == 99:
                continue
            s[t] += delta
            v = tp_kokushi_shanten_k(s)
            s[t] -= delta
            if v < out[t]:
                out[t] = v


@njit(cache=True)
def waits_k(s, mk, mt, nm, tabs, fam, wk):
    """The family's wait set of the 13-tile ``s`` into ``wk`` (-1: no win); number of waits."""
    if fam == TWO_PLAYER:
        return tp_wait_set_k(s, mk, mt, nm, tabs, wk)
    return bj_wait_set_k(s, mk, mt, nm, tabs, wk)


@njit(cache=True)
def shanten_k(s, mk, mt, nm, tabs, fam, wk):
    """The family's shanten of a hand (exact for -1, 0, 1; the table's lower bound deeper)."""
    if fam == TWO_PLAYER:
        return tp_hand_shanten_k(s, mk, mt, nm, tabs, wk)
    return bj_hand_shanten_k(s, mk, mt, nm, tabs, wk)


@njit(cache=True)
def win_pay_k(s, mk, mt, nm, t, only, fam, rules, ctx, phase, fans):
    """The seat's income from a self-drawn win on ``t`` by the 13-tile ``s``: Beijing three
    losers x the value (``ctx`` 1 for an open hand), two-player the value (``ctx``: the
    two-player win context bits and flowers, self-draw included). ``phase``: 0 a draw of the
    wall, 1 its last tile (Beijing 海底捞月, two-player 河底捞月), 2 an extra draw after it
    (two-player 海底捞月)."""
    s[t] += 1
    if fam == TWO_PLAYER:
        c = ctx | (CTX_LAST_TILE if phase == 1 else CTX_EXTRA_DRAW if phase == 2 else 0)
        f = tp_fans_k(s, mk, mt, nm, t, c, rules, fans)
        v = float(tp_value_k(f, 0, rules)) if f > 0 else 0.0
    else:
        how = HOW_SELF_DRAW | (HOW_LAST_TILE if phase == 1 else 0)
        f = bj_fans_k(s, mk, mt, nm, t, only, how, rules, fans)
        v = 3.0 * bj_value_k(f, ctx != 0, rules) if f > 0 else 0.0
    s[t] -= 1
    return v


@njit(cache=True)
def win_phase_k(s, mk, mt, nm, wk, pool, n_pool, r, last_own, extra, fam, rules, ctx, fans):
    """(p_win, ev) of the kept ready 13-tile ``s`` (wait set ``wk``) with ``r`` own draws, the
    last of them the wall's last tile when ``last_own`` (and ``r > 0``), then ``extra`` draws
    after the wall's end (two-player): every unseen copy of a winning kind is equally likely to
    be the first one drawn; each draw's win is worth its phase's value (:func:`win_pay_k`)."""
    n_waits = 0
    for t in range(N_KINDS_ALL):
        if wk[t] >= 0:
            n_waits += 1
    last = 1 if last_own and r > 0 else 0
    hits = 0
    avg = np.zeros(3)
    for t in range(N_KINDS_ALL):
        if wk[t] < 0 or pool[t] == 0:
            continue
        hits += pool[t]
        for phase in range(3):
            if phase == 0 or (phase == 1 and last) or (phase == 2 and extra > 0):
                avg[phase] += pool[t] * win_pay_k(
                    s, mk, mt, nm, t, n_waits == 1, fam, rules, ctx, phase, fans
                )
    if hits == 0 or n_pool <= 0:
        return 0.0, 0.0
    p1 = 1.0 - _miss(n_pool, hits, r - last)
    p2 = 1.0 - _miss(n_pool, hits, r)
    p3 = 1.0 - _miss(n_pool, hits, r + extra)
    return p3, (p1 * avg[0] + (p2 - p1) * avg[1] + (p3 - p2) * avg[2]) / hits


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
def _key(xs, dd, j, d, d0, scratch):
    """Key of the state after draws ``xs[:j + 1]`` and discards ``dd[:j]``, ``d`` (and ``d0``
    if >= 0): the depth, then both multisets sorted, in base 35 (at most 8 digits)."""
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
        key = key * _BASE + scratch[i] + 1
    return key


@njit(cache=True)
def _search(
    s, mk, mt, nm, pool, n_pool, kmax, k, d_left, last_own, extra, fam, rules, tabs, ctx, fans, acc, best, wk,
    d0, index, vals,
):  # fmt: skip
    """Value of the non-ready 13-tile state ``s`` into ``acc[0]``: a depth-first search over
    ``kmax`` own draws (the arrays as in :func:`daqing_sim.advisor.exact._search`); ``s`` and
    ``pool`` are restored on return. A draw or a discard is skipped when the table shanten (a
    lower bound) shows no ready shape within the draws left."""
    xs = np.full(kmax, -1, dtype=np.int64)
    dd = np.full(kmax, N_KINDS_ALL, dtype=np.int64)
    px = np.zeros(kmax)
    keys = np.zeros(kmax + 1, dtype=np.int64)
    scratch = np.empty(2 * kmax + 2, dtype=np.int64)
    lbx = np.zeros((kmax, N_KINDS_ALL), dtype=np.int64)  # per depth: the bound after each draw
    lbd = np.zeros((kmax, N_KINDS_ALL), dtype=np.int64)  # ... and after each discard
    acc[0, :] = 0.0
    j = np.int64(0)
    while j >= 0:
        left = kmax - j - 1
        if dd[j] == N_KINDS_ALL:  # close the current draw, open the next one
            x = xs[j]
            if x >= 0:
                for i in range(k + 2):
                    acc[j, i] += px[j] * best[j, i]
                s[x] -= 1
                pool[x] += 1
                n_pool += 1
            else:
                _changes(s, nm, tabs, fam, 1, lbx[j])
            x += 1
            while x < N_KINDS_ALL:
                if pool[x] > 0 and lbx[j, x] <= left:
                    s[x] += 1
                    pool[x] -= 1
                    break
                x += 1
            xs[j] = x
            if x == N_KINDS_ALL:  # node done: back to the parent's discard loop
                j -= 1
                if j >= 0 and len(index) < vals.shape[0]:
                    row = len(index)
                    for i in range(k + 2):
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
            _changes(s, nm, tabs, fam, -1, lbd[j])
        descended = False
        d = dd[j]
        while d < N_KINDS_ALL:
            if s[d] > 0:
                s[d] -= 1
                sh = lbd[j, d]
                if sh == 0 or max(sh, 1) <= left:
                    # ready leaves are kept in the table too: other orders of the same draws and
                    # discards reach them again, and their wins are costly to score
                    key = _key(xs, dd, j, d, d0, scratch)
                    if key in index:
                        row = index[key]
                        for i in range(k + 2):
                            if vals[row, i] > best[j, i]:
                                best[j, i] = vals[row, i]
                        s[d] += 1
                        d += 1
                        continue
                    if sh == 0 and waits_k(s, mk, mt, nm, tabs, fam, wk) > 0:
                        p, e = win_phase_k(
                            s,
                            mk,
                            mt,
                            nm,
                            wk,
                            pool,
                            n_pool,
                            d_left - j - 1,
                            last_own,
                            extra,
                            fam,
                            rules,
                            ctx,
                            fans,
                        )
                        for i in range(j, k):
                            best[j, i] = 1.0
                        if p > best[j, k]:
                            best[j, k] = p
                        if e > best[j, k + 1]:
                            best[j, k + 1] = e
                        if len(index) < vals.shape[0]:
                            row = len(index)
                            for i in range(k):
                                vals[row, i] = 1.0 if i >= j else 0.0
                            vals[row, k] = p
                            vals[row, k + 1] = e
                            index[key] = row
                    elif max(sh, 1) <= left:
                        keys[j + 1] = key
                        dd[j] = d
                        j += 1
                        xs[j] = -1
                        dd[j] = N_KINDS_ALL
                        acc[j, :] = 0.0
                        descended = True
                        break
                s[d] += 1
            d += 1
        if not descended:
            dd[j] = N_KINDS_ALL


@njit(cache=True)
def _state_value(
    s, mk, mt, nm, pool, k, d_left, last_own, extra, fam, rules, tabs, ctx_now, ctx, out, d0, index, vals
):  # fmt: skip
    """Fill ``out`` (``k + 2``) with the value of the 13-tile ``s``: ``ctx_now`` scores it when it
    is ready already (two-player: declared or not), ``ctx`` a state made ready later."""
    pl = pool.astype(np.int64)
    n_pool = np.int64(0)
    for t in range(N_KINDS_ALL):
        n_pool += pl[t]
    wk = np.empty(N_KINDS_ALL, dtype=np.int8)
    fans = np.zeros(64, dtype=np.int64)
    out[:] = 0.0
    if waits_k(s, mk, mt, nm, tabs, fam, wk) > 0:
        out[:k] = 1.0
        p, e = win_phase_k(s, mk, mt, nm, wk, pl, n_pool, d_left, last_own, extra, fam, rules, ctx_now, fans)
        out[k] = p
        out[k + 1] = e
        return
    kmax = min(k, d_left, n_pool)
    if kmax <= 0 or max(lower_bound_k(s, nm, tabs, fam), 1) > kmax:
        return
    acc = np.zeros((kmax, k + 2))
    best = np.zeros((kmax, k + 2))
    _search(
        s,
        mk,
        mt,
        nm,
        pl,
        n_pool,
        kmax,
        k,
        d_left,
        last_own,
        extra,
        fam,
        rules,
        tabs,
        ctx,
        fans,
        acc,
        best,
        wk,
        d0,
        index,
        vals,
    )
    for i in range(k + 2):
        out[i] = acc[0, i]


@njit(cache=True)
def state_value_k(counts, mk, mt, nm, pool, k, d_left, last_own, extra, rules, tabs, ctx_now, ctx, out):
    """Fill ``out`` (``k + 2``) with the value of the 13-tile state ``counts``."""
    fam = rules[R_FAMILY]
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    vals = np.empty((MEMO_ROWS, k + 2))
    s = counts.astype(np.uint8)
    _state_value(
        s,
        mk,
        mt,
        nm,
        pool,
        k,
        d_left,
        last_own,
        extra,
        fam,
        rules,
        tabs,
        ctx_now,
        ctx,
        out,
        NO_ROOT,
        index,
        vals,
    )


@njit(cache=True)
def discard_values_k(counts, mk, mt, nm, pool, k, d_left, last_own, extra, rules, tabs, ctx_now, ctx, out):
    """``out[d]`` (``(34, k + 2)``): the value after discarding ``d`` from the 14-tile
    ``counts``, for every kind held (rows of kinds not held are left 0)."""
    fam = rules[R_FAMILY]
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    vals = np.empty((MEMO_ROWS, k + 2))
    s = counts.astype(np.uint8)
    out[:, :] = 0.0
    for d in range(N_KINDS_ALL):
        if s[d] == 0:
            continue
        s[d] -= 1
        _state_value(
            s,
            mk,
            mt,
            nm,
            pool,
            k,
            d_left,
            last_own,
            extra,
            fam,
            rules,
            tabs,
            ctx_now,
            ctx,
            out[d],
            d,
            index,
            vals,
        )
        s[d] += 1


@njit(cache=True)
def outs_k(counts, mk, mt, nm, pool, rules, tabs, out_lower):
    """The family's shanten of the 13-tile ``counts``; ``out_lower[x] = 1`` for the unseen kinds
    ``x`` whose draw lowers it (for a ready hand, the winning tiles)."""
    fam = rules[R_FAMILY]
    s = counts.astype(np.uint8)
    wk = np.empty(N_KINDS_ALL, dtype=np.int8)
    sh = shanten_k(s, mk, mt, nm, tabs, fam, wk)
    for x in range(N_KINDS_ALL):
        out_lower[x] = 0
        if pool[x] == 0:
            continue
        s[x] += 1
        if shanten_k(s, mk, mt, nm, tabs, fam, wk) < sh:
            out_lower[x] = 1
        s[x] -= 1
    return sh


def is_open(mk: np.ndarray, nm: int) -> bool:
    """Has the hand a chi, peng or exposed kong (a concealed kong keeps it concealed)?"""
    return any(int(mk[j]) != CONCEALED_KONG for j in range(nm))


__all__ = ["discard_values_k", "state_value_k", "outs_k", "win_pay_k", "is_open", "BEIJING", "TWO_PLAYER"]
