"""Jitted hand kernels of 34-kind hands with no conditions, shared by the Beijing and two-player
families: shanten, waits, completeness and ukeire. Private: the public API is
:func:`daqing_sim.hand.evaluator.analyze_hand` and :func:`daqing_sim.game.score_win.score_win`.

Such hands win in three shapes (docs/RULES_BEIJING.md): four melds and a pair, seven
pairs (七对) and luxury seven pairs (豪华七对: four identical concealed tiles count as two
pairs). Counts are ``(34,)`` arrays (kinds 27-33 are the honors
中 东 南 西 北 白 发, which only form triplets, kongs and pairs). The suits are read from the
same per-suit tables as Daqing's kernels (``tabs``); nothing here is compiled for a Daqing run.
A family's fans live in its package (:mod:`daqing_sim.families.beijing.hand`,
:mod:`daqing_sim.families.two_player.hand`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import DUAL_PAIR, N_KINDS_ALL, SINGLE, ZHONG
from daqing_sim.hand.kernels import meld_copies, suit_rank
from daqing_sim.jit import njit_no_refs


@njit(cache=True, inline="always")
def _short(v, size):
    """Tiles a kind holding ``v`` must gain to hold ``size``."""
    return size - v if v < size else 0


@njit(cache=True, inline="always")
def _nth_most(g4, g3, g2, g1, i):
    """Tiles of the honor kind holding the ``i``-th most (0: the most), from ``g_v``, the kinds
    holding at least ``v``."""
    if i < g4:
        return 4
    if i < g3:
        return 3
    if i < g2:
        return 2
    return 1 if i < g1 else 0


@njit_no_refs
def _honor_costs(h):
    """Tiles the honors must gain for ``mh`` triplets and ``ph`` (0/1) pairs on distinct kinds,
    for mh 0-4 and ph 0-1, at index ``2 * mh + ph`` (a tuple: no allocation); ``h[v]`` is the
    number of honor kinds holding ``v`` tiles. The groups take the kinds with the most tiles,
    the pair the one with the fewest of those: so with the kinds' counts ``c0 >= c1 >= ...``,
    mh triplets cost the shortfalls of ``c0 .. c(mh-1)`` to three, and a pair adds ``c(mh)``'s
    to two."""
    g4 = h[4]
    g3 = g4 + h[3]
    g2 = g3 + h[2]
    g1 = g2 + h[1]
    c0 = _nth_most(g4, g3, g2, g1, 0)
    c1 = _nth_most(g4, g3, g2, g1, 1)
    c2 = _nth_most(g4, g3, g2, g1, 2)
    c3 = _nth_most(g4, g3, g2, g1, 3)
    c4 = _nth_most(g4, g3, g2, g1, 4)
    t1 = _short(c0, 3)
    t2 = t1 + _short(c1, 3)
    t3 = t2 + _short(c2, 3)
    t4 = t3 + _short(c3, 3)
    return (
        np.int64(0),  # (a literal 0 would type the tuple apart: one more compile of each caller)
        _short(c0, 2),
        t1,
        t1 + _short(c1, 2),
        t2,
        t2 + _short(c2, 2),
        t3,
        t3 + _short(c3, 2),
        t4,
        t4 + _short(c4, 2),
    )


@njit(cache=True, inline="always")
def _best_with(fs, ab, ic, hc, melds):
    """The lowest cost of ``melds`` (<= 4) melds and a pair over the splits between the three
    suits (their merged row ``fs[ab, ic]``, indexed in place: a row view would cost a reference
    count) and the honors (``hc[2 * mh + ph]``: mh triplets, ph pairs)."""
    # written out, mh by mh: a loop indexes the tuple ``hc`` at run time, which numba compiles
    # to a jump table per element, the greedy players' hottest branch
    m = melds
    best = _split(fs, ab, ic, m, hc[0], hc[1])
    if m >= 1:
        best = _lower(best, _split(fs, ab, ic, m - 1, hc[2], hc[3]))
    if m >= 2:
        best = _lower(best, _split(fs, ab, ic, m - 2, hc[4], hc[5]))
    if m >= 3:
        best = _lower(best, _split(fs, ab, ic, m - 3, hc[6], hc[7]))
    if m >= 4:
        best = _lower(best, _split(fs, ab, ic, 0, hc[8], hc[9]))
    return best


@njit(cache=True, inline="always")
def _split(fs, ab, ic, m, honors, honors_pair):
    """The lowest cost with ``m`` melds from the suits: the pair in the suits (the honors
    costing ``honors``) or in the honors (``honors_pair``)."""
    return _lower(honors + np.int64(fs[ab, ic, m, 1]), honors_pair + np.int64(fs[ab, ic, m, 0]))


@njit(cache=True, inline="always")
def _lower(a, b):
    return a if a < b else b


@njit(cache=True, inline="always")
def _honor_hist(counts):
    h0 = h1 = h2 = h3 = h4 = 0
    for t in range(ZHONG, N_KINDS_ALL):
        v = counts[t]
        if v == 0:
            h0 += 1
        elif v == 1:
            h1 += 1
        elif v == 2:
            h2 += 1
        elif v == 3:
            h3 += 1
        else:
            h4 += 1
    return np.int64(h0), np.int64(h1), np.int64(h2), np.int64(h3), np.int64(h4)


@njit_no_refs
def bj_std_distance_k(counts, tabs, melds):
    """Tiles to gain for ``melds`` melds and a pair, honors as triplets or the pair only. The
    three suits come merged from the evaluator's tables (``fin_suits``: their best cost for m
    melds and p pairs); the honors' cost is taken on the kinds holding the most tiles."""
    off = tabs.off
    std_id = tabs.std_id
    ab = tabs.ab_id[std_id[suit_rank(counts, 0, off)], std_id[suit_rank(counts, 9, off)]]
    ic = std_id[suit_rank(counts, 18, off)]
    return _best_with(tabs.fin_suits, ab, ic, _honor_costs(_honor_hist(counts)), melds)


@njit_no_refs
def bj_pairs_distance_k(counts):
    """Tiles to gain for seven pairs (four of a kind counts as two pairs: 豪华七对)."""
    pairs = 0
    singles = 0
    for t in range(N_KINDS_ALL):
        pairs += counts[t] // 2
        singles += counts[t] % 2
    need = 7 - pairs
    if need <= 0:
        return 0
    if singles >= need:
        return need
    return singles + 2 * (need - singles)


@njit_no_refs
def bj_shanten_k(counts, n_melds, tabs):
    """Beijing table shanten of a 3k+1 / 3k+2 concealed hand (0 a ready shape, -1 complete),
    copies not counted: see :func:`bj_hand_shanten_k`."""
    n = 0
    for t in range(N_KINDS_ALL):
        n += counts[t]
    d = bj_std_distance_k(counts, tabs, n // 3)
    if n_melds == 0 and n >= 13:
        p = bj_pairs_distance_k(counts)
        if p < d:
            d = p
    return d - 1


@njit_no_refs
def bj_complete_k(counts, n_melds, tabs):
    """Is a 14-tile hand (3k+2 concealed tiles) a winning shape?"""
    comp = tabs.comp_idx
    off = tabs.off
    pairs = 0
    for s in range(3):
        tot = 0
        for i in range(9):
            tot += counts[9 * s + i]
        if tot == 0:
            continue
        if comp[suit_rank(counts, 9 * s, off)] < 0:
            pairs = 99
            break
        if tot % 3 == 2:
            pairs += 1
    if pairs < 99:
        for t in range(ZHONG, N_KINDS_ALL):
            v = counts[t]
            if v == 2:
                pairs += 1
            elif v == 1 or v == 4:
                pairs = 99
                break
        if pairs == 1:
            return True
    if n_melds == 0:
        for t in range(N_KINDS_ALL):
            if counts[t] % 2 == 1:
                return False
        return True
    return False


@njit(cache=True, inline="always")
def _suit_neighbour(counts, t):
    """Is a tile within two of suit tile ``t`` held in its suit? (False for an honor.)"""
    if t >= ZHONG:
        return False
    r = t % 9
    for k in range(t - (r if r < 2 else 2), t + (8 - r if r > 6 else 2) + 1):
        if k != t and counts[k] > 0:
            return True
    return False


@njit_no_refs
def bj_wait_set_k(counts, meld_kind, meld_tile, n_melds, tabs, out_kind):
    """Wait set of a 13-tile Beijing hand: ``out_kind[t]`` is the wait kind of a winning tile
    (the Daqing codes, kanchan first; -1 = not a winning tile), a tile with no copy left (all
    four held or melded) excluded. Returns the number of waits; ``counts`` is restored."""
    roles = tabs.comp_roles
    comp = tabs.comp_idx
    off = tabs.off
    n = 0
    for t in range(N_KINDS_ALL):
        out_kind[t] = -1
    if bj_shanten_k(counts, n_melds, tabs) > 0:
        return 0
    for t in range(N_KINDS_ALL):
        if counts[t] == 0 and not _suit_neighbour(counts, t):
            continue  # a tile with no copy and no neighbour held is in no meld or pair
        if counts[t] + meld_copies(t, meld_kind, meld_tile, n_melds) >= 4:
            continue
        counts[t] += 1
        if bj_complete_k(counts, n_melds, tabs):
            kind = SINGLE
            if t < ZHONG:
                s = t // 9
                ci = comp[suit_rank(counts, 9 * s, off)]
                if ci >= 0:
                    r = roles[ci, t % 9]
                    for k in range(5):
                        if r >> (4 * k) & 15:
                            kind = k
                            break
            elif counts[t] == 3:
                kind = DUAL_PAIR
            out_kind[t] = kind
            n += 1
        counts[t] -= 1
    return n


@njit_no_refs
def _ready13(counts, meld_kind, meld_tile, n_melds, tabs, wk):
    return bj_wait_set_k(counts, meld_kind, meld_tile, n_melds, tabs, wk) > 0


@njit_no_refs
def _one_exchange_ready(counts, meld_kind, meld_tile, n_melds, tabs, wk):
    """Does one draw (of a tile with a copy left) and one discard make the 13 tiles ready?"""
    for x in range(N_KINDS_ALL):
        if counts[x] + meld_copies(x, meld_kind, meld_tile, n_melds) >= 4:
            continue
        counts[x] += 1
        found = False
        if bj_shanten_k(counts, n_melds, tabs) <= 0:
            for d in range(N_KINDS_ALL):
                if counts[d] == 0 or d == x:
                    continue
                counts[d] -= 1
                found = _ready13(counts, meld_kind, meld_tile, n_melds, tabs, wk)
                counts[d] += 1
                if found:
                    break
        counts[x] -= 1
        if found:
            return True
    return False


@njit_no_refs
def _shanten13(counts, meld_kind, meld_tile, n_melds, tabs, wk, table):
    """Exact 0 and 1 for 13 tiles whose table value is ``table``; 2 means at least 2."""
    if table == 0 and _ready13(counts, meld_kind, meld_tile, n_melds, tabs, wk):
        return 0
    if table <= 1 and _one_exchange_ready(counts, meld_kind, meld_tile, n_melds, tabs, wk):
        return 1
    return max(table, 2)


@njit_no_refs
def bj_hand_shanten_k(counts, meld_kind, meld_tile, n_melds, tabs, wk):
    """Beijing shanten of a hand with its melds, counting only tiles that have a copy left (not
    all four held or melded): 0 means a non-empty wait set, -1 a winning 14-tile hand. Exact for
    -1, 0 and 1; a deeper value is the table's, a lower bound. ``counts`` is restored; ``wk`` is a
    (34,) int8 scratch."""
    table = bj_shanten_k(counts, n_melds, tabs)
    if table >= 2:
        return table
    n = 0
    for t in range(N_KINDS_ALL):
        n += counts[t]
    if n % 3 == 1:
        return _shanten13(counts, meld_kind, meld_tile, n_melds, tabs, wk, table)
    if table == -1 and bj_complete_k(counts, n_melds, tabs):
        return -1
    best = 2
    for d in range(N_KINDS_ALL):  # 14 tiles: the best 13 after one discard
        if counts[d] == 0:
            continue
        counts[d] -= 1
        sub = bj_shanten_k(counts, n_melds, tabs)
        if sub <= 1:
            v = _shanten13(counts, meld_kind, meld_tile, n_melds, tabs, wk, sub)
            if v < best:
                best = v
        counts[d] += 1
        if best == 0:
            break
    return best


# ---- incremental table shanten: one tile more or less changes one suit (or the honors)
@njit(cache=True, inline="always")
def _parts_distance(tabs, i0, i1, i2, h, melds):
    return _best_with(tabs.fin_suits, tabs.ab_id[i0, i1], i2, _honor_costs(h), melds)


@njit(cache=True, inline="always")
def _moved(h, old, new):
    """The honor histogram ``h`` after one kind goes from ``old`` to ``new`` tiles."""
    h0, h1, h2, h3, h4 = h
    h0 += (new == 0) - (old == 0)
    h1 += (new == 1) - (old == 1)
    h2 += (new == 2) - (old == 2)
    h3 += (new == 3) - (old == 3)
    h4 += (new == 4) - (old == 4)
    return h0, h1, h2, h3, h4


_POW5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)


@njit(cache=True, inline="always")
def _suit_key(counts, base):
    """A suit's base-5 key ``sum(c_i * 5**i)``: a one-tile change is ``key ± 5**i``, and
    ``tabs.key_std_id[key]`` its row id, one lookup instead of a walk of the nine counts."""
    key = np.int64(0)
    for i in range(8, -1, -1):
        key = 5 * key + np.int64(counts[base + i])
    return key


@njit(cache=True, inline="always")
def _set5(t, i, v):
    """The 5-tuple ``t`` with ``t[i] = v``."""
    return (
        v if i == 0 else t[0],
        v if i == 1 else t[1],
        v if i == 2 else t[2],
        v if i == 3 else t[3],
        v if i == 4 else t[4],
    )


@njit(cache=True, inline="always")
def _pairs_need(pairs, singles):
    need = 7 - pairs
    return 0 if need <= 0 else (need if singles >= need else singles + 2 * (need - singles))


@njit_no_refs
def bj_shanten_changes_k(counts, n_melds, tabs, delta, out):
    """Table shanten (:func:`bj_shanten_k`) of ``counts`` with one tile of each kind added
    (``delta=1``) or removed (``delta=-1``): ``out[t]`` for kind ``t``; 99 where it cannot be
    removed (or a fifth copy added). A change touches one suit (a key ± 5**i, one lookup, merged
    with the other two suits' row, merged once per suit) or the honors (the same result for
    every honor kind holding as many tiles), so all 34 cost about one full shanten. ``counts``
    is not changed."""
    kid = tabs.key_std_id
    ab_id = tabs.ab_id
    fs = tabs.fin_suits
    k0 = _suit_key(counts, 0)
    k1 = _suit_key(counts, 9)
    k2 = _suit_key(counts, 18)
    i0 = kid[k0]
    i1 = kid[k1]
    i2 = kid[k2]
    h = _honor_hist(counts)
    n = 0
    pairs = 0
    singles = 0
    for t in range(N_KINDS_ALL):
        n += counts[t]
        pairs += counts[t] // 2
        singles += counts[t] % 2
    n2 = n + delta
    melds = n2 // 3
    hc = _honor_costs(h)
    seven = n_melds == 0 and n2 >= 13
    honor_d = (-1, -1, -1, -1, -1)  # the honors' result by the kind's tile count
    for t in range(N_KINDS_ALL):
        v = np.int64(counts[t])
        if v + delta < 0 or v + delta > 4:
            out[t] = 99
            continue
        if t < ZHONG:
            s = t // 9
            step = delta * _POW5[t - 9 * s]
            if s == 0:
                d = _best_with(fs, ab_id[i1, i2], kid[k0 + step], hc, melds)
            elif s == 1:
                d = _best_with(fs, ab_id[i0, i2], kid[k1 + step], hc, melds)
            else:
                d = _best_with(fs, ab_id[i0, i1], kid[k2 + step], hc, melds)
        else:
            d = honor_d[v]
            if d < 0:
                d = _parts_distance(tabs, i0, i1, i2, _moved(h, v, v + delta), melds)
                honor_d = _set5(honor_d, v, d)
        if seven:
            p = _pairs_need(pairs + (v + delta) // 2 - v // 2, singles + (v + delta) % 2 - v % 2)
            if p < d:
                d = p
        out[t] = d - 1
    return n


@njit_no_refs
def bj_ukeire_k(counts, n_melds, tabs, unseen, base):
    """Unseen copies (``unseen[x]``) of the kinds ``x`` whose draw lowers the table shanten of
    the 3k+1 ``counts`` below ``base`` (its own shanten, given by the caller). Each draw is a
    one-tile change (see :func:`bj_shanten_changes_k`). ``counts`` is not changed."""
    kid = tabs.key_std_id
    ab_id = tabs.ab_id
    fs = tabs.fin_suits
    k0 = _suit_key(counts, 0)
    k1 = _suit_key(counts, 9)
    k2 = _suit_key(counts, 18)
    i0 = kid[k0]
    i1 = kid[k1]
    i2 = kid[k2]
    h = _honor_hist(counts)
    n = 0
    pairs = 0
    singles = 0
    for t in range(N_KINDS_ALL):
        n += counts[t]
        pairs += counts[t] // 2
        singles += counts[t] % 2
    melds = (n + 1) // 3
    hc = _honor_costs(h)  # the honors' cost when the drawn tile is a suit tile
    seven = n_melds == 0 and n + 1 >= 13
    honor_d = (-1, -1, -1, -1, -1)
    ab12 = ab_id[i1, i2]
    ab02 = ab_id[i0, i2]
    ab01 = ab_id[i0, i1]
    total = 0
    for x in range(N_KINDS_ALL):
        if unseen[x] <= 0 or counts[x] >= 4:
            continue
        v = np.int64(counts[x])
        if x < 9:
            d = _best_with(fs, ab12, kid[k0 + _POW5[x]], hc, melds)
        elif x < 18:
            d = _best_with(fs, ab02, kid[k1 + _POW5[x - 9]], hc, melds)
        elif x < ZHONG:
            d = _best_with(fs, ab01, kid[k2 + _POW5[x - 18]], hc, melds)
        else:
            d = honor_d[v]
            if d < 0:
                d = _parts_distance(tabs, i0, i1, i2, _moved(h, v, v + 1), melds)
                honor_d = _set5(honor_d, v, d)
        if seven and d - 1 >= base:
            p = _pairs_need(pairs + (v + 1) // 2 - v // 2, singles + (v + 1) % 2 - v % 2)
            if p < d:
                d = p
        if d - 1 < base:
            total += unseen[x]
    return total


@njit(cache=True, inline="always")
def _keep_tight(sl, cost, target, m, p, room):
    """``sl`` (count, then up to three (m, p, room) splits) with the split (m, p) added when its
    ``cost`` is ``target``."""
    if cost != target:
        return sl
    n = sl[0]
    if n == 0:
        return (1, m, p, room, sl[4], sl[5], sl[6], sl[7], sl[8], sl[9])
    if n == 1:
        return (2, sl[1], sl[2], sl[3], m, p, room, sl[7], sl[8], sl[9])
    if n == 2:
        return (3, sl[1], sl[2], sl[3], sl[4], sl[5], sl[6], m, p, room)
    return (n + 1, sl[1], sl[2], sl[3], sl[4], sl[5], sl[6], sl[7], sl[8], sl[9])


@njit_no_refs
def _tight_splits(fs, ab, ic, hc, melds, base):
    """The splits of ``_best_with(fs, ab, ic, hc, melds)`` (suits' melds m and pairs p) that cost
    ``base + 1``, with their room ``base - `` the honors' part: (how many, then up to three
    (m, p, room)). One tile more in a suit lowers each split's cost by at most one, so a draw
    into that suit brings the standard distance to ``base`` only through one of them (see
    :func:`_std_lowers`)."""
    t = base + 1
    z = np.int64(0)
    sl = (z, z, z, z - 1, z, z, z - 1, z, z, z - 1)
    m = melds
    sl = _keep_tight(sl, hc[0] + np.int64(fs[ab, ic, m, 1]), t, m, 1, base - hc[0])
    sl = _keep_tight(sl, hc[1] + np.int64(fs[ab, ic, m, 0]), t, m, 0, base - hc[1])
    if m >= 1:
        sl = _keep_tight(sl, hc[2] + np.int64(fs[ab, ic, m - 1, 1]), t, m - 1, 1, base - hc[2])
        sl = _keep_tight(sl, hc[3] + np.int64(fs[ab, ic, m - 1, 0]), t, m - 1, 0, base - hc[3])
    if m >= 2:
        sl = _keep_tight(sl, hc[4] + np.int64(fs[ab, ic, m - 2, 1]), t, m - 2, 1, base - hc[4])
        sl = _keep_tight(sl, hc[5] + np.int64(fs[ab, ic, m - 2, 0]), t, m - 2, 0, base - hc[5])
    if m >= 3:
        sl = _keep_tight(sl, hc[6] + np.int64(fs[ab, ic, m - 3, 1]), t, m - 3, 1, base - hc[6])
        sl = _keep_tight(sl, hc[7] + np.int64(fs[ab, ic, m - 3, 0]), t, m - 3, 0, base - hc[7])
    if m >= 4:
        sl = _keep_tight(sl, hc[8] + np.int64(fs[ab, ic, 0, 1]), t, 0, 1, base - hc[8])
        sl = _keep_tight(sl, hc[9] + np.int64(fs[ab, ic, 0, 0]), t, 0, 0, base - hc[9])
    return sl


@njit(cache=True, inline="always")
def _std_lowers(fs, ab, icx, hc, melds, base, sl):
    """Is ``_best_with(fs, ab, icx, hc, melds) <= base`` for the suit grown by one tile to id
    ``icx``, ``sl`` the tight splits of it before (:func:`_tight_splits`)? Three reads, not ten,
    and no branch (most draws change nothing, so most checks read every split)."""
    if sl[0] > 3:
        return _best_with(fs, ab, icx, hc, melds) <= base
    a = np.int64(fs[ab, icx, sl[1], sl[2]]) <= sl[3]
    b = np.int64(fs[ab, icx, sl[4], sl[5]]) <= sl[6]
    c = np.int64(fs[ab, icx, sl[7], sl[8]]) <= sl[9]
    return a | b | c


@njit(cache=True, inline="always")
def _pairs_lower(v, seven, pairs, singles, base):
    """Does a draw onto a kind held ``v`` times bring the seven pairs distance (of a hand of
    ``pairs`` pairs and ``singles`` singles) to at most ``base``?"""
    if not seven:
        return False
    return _pairs_need(pairs + (v + 1) // 2 - v // 2, singles + (v + 1) % 2 - v % 2) <= base


@njit(cache=True, inline="always")
def _draw_lowers(d, v, seven, pairs, singles, base):
    """Does a draw whose standard cost is ``d`` (onto a kind held ``v`` times, in a hand of
    ``pairs`` pairs and ``singles`` singles) bring the table shanten below ``base``?"""
    return d <= base or _pairs_lower(v, seven, pairs, singles, base)


@njit(cache=True, inline="always")
def _ab_without(s, i0, i1, i2, ab_id):
    """The merged row id of the two suits other than ``s``."""
    if s == 0:
        return ab_id[i1, i2]
    if s == 1:
        return ab_id[i0, i2]
    return ab_id[i0, i1]


@njit(cache=True, inline="always")
def _memo_find(memo, n_memo, key):
    """The value kept under ``key`` in ``memo`` (key, value pairs, ``n_memo`` of them), or -1."""
    for i in range(n_memo):
        if memo[2 * i] == key:
            return memo[2 * i + 1]
    return -1


@njit(cache=True, inline="always")
def _memo_keep(memo, n_memo, key, value):
    """Keep ``value`` under ``key`` while ``memo`` has room; returns the pairs kept."""
    if 2 * n_memo + 1 < memo.shape[0]:
        memo[2 * n_memo] = key
        memo[2 * n_memo + 1] = value
        n_memo += 1
    return n_memo


@njit_no_refs
def _draws_outside(
    counts, unseen, base, t, skip, ab_id, fs, plus_id, i0, i1, i2, h, hc, melds, seven, pairs, singles
):
    """The unseen copies of the draws outside suit ``skip`` (-1: none) that lower the table
    shanten of ``counts`` less ``t`` below ``base``: its suits' ids ``i0 i1 i2``, honor histogram
    ``h`` and its costs ``hc``, pairs and singles given."""
    n = 0
    for sx in range(3):
        if sx == skip:
            continue
        ab = _ab_without(sx, i0, i1, i2, ab_id)
        sl = _tight_splits(fs, ab, i0 if sx == 0 else (i1 if sx == 1 else i2), hc, melds, base)
        for x in range(9 * sx, 9 * sx + 9):
            if unseen[x] > 0 and counts[x] < 4:
                if _std_lowers(fs, ab, plus_id[x], hc, melds, base, sl) or _pairs_lower(
                    np.int64(counts[x]), seven, pairs, singles, base
                ):
                    n += unseen[x]
    # an honor draw's result depends only on how many of its kind are held: the unseen
    # copies of the kinds held 0, 1, 2 and 3 times, then one check each
    u0 = u1 = u2 = u3 = 0
    for x in range(ZHONG, N_KINDS_ALL):
        v = np.int64(counts[x]) - (1 if x == t else 0)
        if unseen[x] > 0:
            if v == 0:
                u0 += unseen[x]
            elif v == 1:
                u1 += unseen[x]
            elif v == 2:
                u2 += unseen[x]
            elif v == 3:
                u3 += unseen[x]
    n += _honor_draws(fs, ab_id[i0, i1], i2, h, 0, u0, melds, seven, pairs, singles, base)
    n += _honor_draws(fs, ab_id[i0, i1], i2, h, 1, u1, melds, seven, pairs, singles, base)
    n += _honor_draws(fs, ab_id[i0, i1], i2, h, 2, u2, melds, seven, pairs, singles, base)
    n += _honor_draws(fs, ab_id[i0, i1], i2, h, 3, u3, melds, seven, pairs, singles, base)
    return n


@njit(cache=True, inline="always")
def _honor_draws(fs, ab, ic, h, v, u, melds, seven, pairs, singles, base):
    """``u`` (the unseen copies of the honor kinds held ``v`` times) if drawing one of them
    brings the table shanten below ``base``, else 0."""
    if u == 0:
        return 0
    d = _best_with(fs, ab, ic, _honor_costs(_moved(h, v, v + 1)), melds)
    return u if _draw_lowers(d, v, seven, pairs, singles, base) else 0


@njit(cache=True, inline="always")
def bj_discard_context_k(counts, tabs):
    """What the ukeire of every discard of the 3k+2 ``counts`` starts from (computed once for
    all of them, as :func:`bj_suit_discard_ukeire_k` and :func:`bj_honor_discard_ukeire_k` take
    it): the suits' base-5 keys and table ids, the tiles, pairs and singles, the honor
    histogram and its costs."""
    kid = tabs.key_std_id
    k0 = _suit_key(counts, 0)
    k1 = _suit_key(counts, 9)
    k2 = _suit_key(counts, 18)
    n = 0
    pairs = 0
    singles = 0
    for x in range(N_KINDS_ALL):
        n += counts[x]
        pairs += counts[x] // 2
        singles += counts[x] % 2
    h = _honor_hist(counts)
    i0 = np.int64(kid[k0])
    i1 = np.int64(kid[k1])
    i2 = np.int64(kid[k2])
    return (
        np.int64(k0),
        np.int64(k1),
        np.int64(k2),
        i0,
        i1,
        i2,
        np.int64(n),
        np.int64(pairs),
        np.int64(singles),
        h,
        _honor_costs(h),
    )


@njit(cache=True, inline="always")
def _less_one(ctx, c_t):
    """Tiles, pairs and singles of the context's hand less one tile of a kind held ``c_t`` times."""
    return (
        ctx[6] - 1,
        ctx[7] + (c_t - 1) // 2 - c_t // 2,
        ctx[8] + (c_t - 1) % 2 - c_t % 2,
    )


@njit(cache=True, inline="always")
def bj_honor_discard_ukeire_k(counts, n_melds, tabs, unseen, base, t, plus_id, memo, n_memo, ctx):
    """:func:`bj_ukeire_k` of ``counts`` less one honor ``t`` (``base`` the shanten left), its
    suit draws read from ``plus_id`` (:func:`bj_plus_ids_k` of ``counts``), ``ctx`` from
    :func:`bj_discard_context_k`. Honors are interchangeable in every shape, so throwing any
    honor held as often, with as many copies unseen, leaves the same ukeire: kept in ``memo`` as
    :func:`bj_suit_discard_ukeire_k` keeps its part (under negative keys). Returns (ukeire,
    n_memo); ``counts`` is not changed."""
    # the kernels below take the three tables they read, not ``tabs``: numba passes every
    # array of a call by value, and a greedy decision makes about five such calls
    return _honor_discard_ukeire(
        counts, n_melds, tabs.ab_id, tabs.fin_suits, unseen, base, t, plus_id, memo, n_memo, ctx
    )


@njit_no_refs
def _honor_discard_ukeire(counts, n_melds, ab_id, fs, unseen, base, t, plus_id, memo, n_memo, ctx):
    c_t = np.int64(counts[t])
    key = -1 - (5 * c_t + unseen[t])
    uk = _memo_find(memo, n_memo, key)
    if uk >= 0:
        return uk, n_memo
    n, pairs, singles = _less_one(ctx, c_t)
    h = _moved(ctx[9], c_t, c_t - 1)
    uk = _draws_outside(
        counts,
        unseen,
        base,
        t,
        np.int64(-1),
        ab_id,
        fs,
        plus_id,
        ctx[3],
        ctx[4],
        ctx[5],
        h,
        _honor_costs(h),
        (n + 1) // 3,
        n_melds == 0 and n + 1 >= 13,
        pairs,
        singles,
    )
    return uk, _memo_keep(memo, n_memo, key, uk)


@njit(cache=True, inline="always")
def bj_suit_discard_ukeire_k(counts, n_melds, tabs, unseen, base, t, plus_id, memo, n_memo, ctx):
    """:func:`bj_ukeire_k` of ``counts`` less one suit tile ``t`` (``base`` the shanten left),
    for a 3k+2 hand's tied discards: the draws of ``t``'s suit, plus those of the other kinds,
    which depend on ``t`` only through its suit's table id after the throw and the copies of
    ``t`` left: kept in ``memo`` by that key (key, value pairs; ``n_memo`` of them filled).
    ``plus_id[x]``: the table id of suit tile ``x``'s suit with one more ``x`` (from
    :func:`bj_plus_ids_k`), ``ctx`` from :func:`bj_discard_context_k`. Returns (ukeire,
    n_memo); ``counts`` is not changed."""
    kid = tabs.key_std_id
    return _suit_discard_ukeire(
        counts, n_melds, kid, tabs.ab_id, tabs.fin_suits, unseen, base, t, plus_id, memo, n_memo, ctx
    )


@njit_no_refs
def _suit_discard_ukeire(counts, n_melds, kid, ab_id, fs, unseen, base, t, plus_id, memo, n_memo, ctx):
    s = t // 9
    lo = 9 * s
    kt = (ctx[0] if s == 0 else (ctx[1] if s == 1 else ctx[2])) - _POW5[t - lo]
    tid = np.int64(kid[kt])
    c_t = np.int64(counts[t])
    key = (s * 256 + tid) * 5 + c_t
    i0 = tid if s == 0 else ctx[3]
    i1 = tid if s == 1 else ctx[4]
    i2 = tid if s == 2 else ctx[5]
    h = ctx[9]
    hc = ctx[10]
    n, pairs, singles = _less_one(ctx, c_t)
    melds = (n + 1) // 3
    seven = n_melds == 0 and n + 1 >= 13
    total = 0
    # the suit's own draws
    ab = _ab_without(s, i0, i1, i2, ab_id)
    sl = _tight_splits(fs, ab, tid, hc, melds, base)
    step = 1
    for x in range(lo, lo + 9):
        v = np.int64(counts[x]) - (1 if x == t else 0)
        if unseen[x] > 0 and v < 4:
            if _std_lowers(fs, ab, kid[kt + step], hc, melds, base, sl) or _pairs_lower(
                v, seven, pairs, singles, base
            ):
                total += unseen[x]
        step *= 5
    others = _memo_find(memo, n_memo, key)
    if others >= 0:
        return total + others, n_memo
    others = _draws_outside(
        counts, unseen, base, t, s, ab_id, fs, plus_id, i0, i1, i2, h, hc, melds, seven, pairs, singles
    )
    n_memo = _memo_keep(memo, n_memo, key, others)
    return total + others, n_memo


@njit(cache=True, inline="always")
def bj_plus_ids_k(counts, tabs, out):
    """``out[x]`` for each suit kind ``x`` held fewer than four times: the table id of its suit
    with one more ``x``."""
    _plus_ids(counts, tabs.key_std_id, out)


@njit_no_refs
def _plus_ids(counts, kid, out):
    for s in range(3):
        k = _suit_key(counts, 9 * s)
        for r in range(9):
            if counts[9 * s + r] < 4:
                out[9 * s + r] = kid[k + _POW5[r]]
