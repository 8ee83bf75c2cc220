"""Hand routes: a plan over many discards towards a valuable shape, shared by the families'
``expert2`` players (issue 38; docs/EXPERT.md, "Expert v2").

A family decides *when* a hand is on a route (its own fans say what pays); these kernels say what
the route lets the hand throw and which of those tiles to throw:

* ``ORPHANS`` (thirteen orphans): a tile that is no orphan, else an orphan's third copy or a
  second pair's tile;
* ``PAIRS`` (seven pairs): a single;
* ``ONE_SUIT`` (one suit with honours, 混一色): a tile of another suit;
* ``PURE_SUIT`` (one suit without honours, 清一色): a tile of another suit or an honour.

Among the allowed tiles :func:`route_discard_k` throws the one leaving the lowest table shanten
(four melds and a pair, or seven pairs), then the one with the fewest unseen copies, then the
lowest kind.

Examples
--------
>>> import numpy as np
>>> from daqing_sim.hand.notation import parse_hand
>>> from daqing_sim.players.routes import PAIRS, route_allows_k
>>> hand = parse_hand("1155m11p22s789s123z", family="beijing").counts
>>> out = np.zeros(34, dtype=np.int32)
>>> int(route_allows_k(hand, PAIRS, -1, out)), [int(t) for t in np.flatnonzero(out)]
(6, [24, 25, 26, 28, 29, 30])
"""

from __future__ import annotations

from numba import njit

from daqing_sim.codes import ZHONG
from daqing_sim.hand.kinds34 import bj_shanten_changes_k

#: route codes
NO_ROUTE, ORPHANS, PAIRS, ONE_SUIT, PURE_SUIT = 0, 1, 2, 3, 4
_FAR = 99


@njit(cache=True, inline="always")
def is_orphan(t):
    """A terminal (rank 1 or 9) or an honour."""
    return t >= ZHONG or t % 9 == 0 or t % 9 == 8


@njit(cache=True)
def count_pairs(hand):
    """Kinds held twice or more."""
    pairs = 0
    for t in range(hand.shape[0]):
        if hand[t] >= 2:
            pairs += 1
    return pairs


@njit(cache=True)
def longest_suit(hand):
    """``(suit, tiles)``: the suit (0-2) holding the most tiles, the lowest on a tie."""
    best_s = -1
    best_n = -1
    for s in range(3):
        n = 0
        for t in range(9 * s, 9 * s + 9):
            n += hand[t]
        if n > best_n:
            best_n = n
            best_s = s
    return best_s, best_n


@njit(cache=True)
def route_allows_k(hand, route, suit, out):
    """``out[t]`` = 1 for each kind the route lets the hand throw (none allowed: every kind held).
    Returns how many kinds are allowed."""
    n = 0
    pairs = 0
    for t in range(hand.shape[0]):
        if is_orphan(t) and hand[t] >= 2:
            pairs += 1
    for t in range(hand.shape[0]):
        ok = False
        if hand[t] > 0:
            if route == ORPHANS:
                # a non-orphan; an orphan's third copy; a pair's tile while another pair is kept
                ok = not is_orphan(t) or hand[t] >= 3 or (hand[t] == 2 and pairs >= 2)
            elif route == PAIRS:
                ok = hand[t] == 1
            elif route == ONE_SUIT:
                ok = t < ZHONG and t // 9 != suit
            elif route == PURE_SUIT:
                ok = t >= ZHONG or t // 9 != suit
        out[t] = 1 if ok else 0
        n += out[t]
    if n == 0:
        for t in range(hand.shape[0]):
            out[t] = 1 if hand[t] > 0 else 0
    return n


@njit(cache=True)
def route_discard_k(hand, n_melds, tabs, unseen, allowed, after):
    """The allowed kind leaving the lowest table shanten, then the fewest unseen copies, then the
    lowest kind (``after``: a scratch row for the shanten after each discard)."""
    bj_shanten_changes_k(hand, n_melds, tabs, -1, after)
    best = -1
    best_s = _FAR
    best_u = _FAR
    for t in range(hand.shape[0]):
        if hand[t] > 0 and allowed[t]:
            s = after[t]
            if s < best_s or (s == best_s and unseen[t] < best_u):
                best, best_s, best_u = t, s, unseen[t]
    return best
