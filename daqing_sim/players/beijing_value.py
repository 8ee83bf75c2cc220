"""The gain side of the Beijing expert: P(win | hand kept) and what a win would be worth, per
route to a winning hand (docs/EXPERT.md, Beijing).

* **P(win)** (:func:`win_probability`, :data:`WIN_W`): a logistic in the shanten of the 13
  tiles kept, their ukeire (live outs when ready), with its own slope per shanten (a hand further
  from ready has more useful tiles, which must not make it look closer), and the draws left;
  fitted on self-play (``tools/calibrate_danger_beijing.py``), calibrated on a fresh seed.
* **Routes**: a hand is valued along the routes still open to it: ``R_STD`` any four melds and a
  pair (F about 1; half for an open hand), ``R_PAIRS`` seven pairs (七对, 4 fans: concealed, no
  meld) and ``R_SUIT`` one suit (清一色, 6 fans; every meld in that suit, no honors). A route's
  shanten and ukeire are those of the hand read along it (seven pairs from its pairs; one suit
  from its tiles of that suit only, the others to be thrown), and a discard's value is the best
  route's ``P(win) x value``. The two value routes are opened by the ``pairs_*`` and ``suit_*``
  knobs of the expert (0 keeps the plain shanten, as greedy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import N_KINDS_ALL, ZHONG
from daqing_sim.hand.beijing import bj_std_distance_k

# ---- P(win | hand kept): logistic features
(
    W_BIAS,
    W_SH1,
    W_SH2,
    W_SH3,
    W_SH_OVER3,
    W_LOG_UK0,
    W_LOG_UK1,
    W_LOG_UK2,
    W_DRAWS,
    W_DRAWS_SH,
    W_OPEN,
) = range(11)
N_WF = 11
# Fitted by ``tools/calibrate_danger_beijing.py fit --n 2000 --seed 1101`` (4 greedy, Beijing defaults).
WIN_W = np.array(
    [-3.6467, -1.6227, -2.9343, -4.2908, -1.0788, 1.0298, 0.6967, 0.6407, 0.6506, 0.1299, -0.067]
)

R_STD, R_PAIRS, R_SUIT = 0, 1, 2
N_ROUTES = 3
NONE = 99  # no shanten: the kind is not held, or the route is closed


@njit(cache=True)
def win_features(sh, uk, draws_left, is_open, out):
    """Fill ``out`` (N_WF,) with the features of a hand ``sh`` from ready (after its discard) with
    ``uk`` useful unseen tiles (its live outs when ready) and ``draws_left`` own draws left."""
    for j in range(N_WF):
        out[j] = 0.0
    out[W_BIAS] = 1.0
    if sh >= 1:
        out[W_SH1 + min(sh, 3) - 1] = 1.0
    out[W_SH_OVER3] = max(sh - 3, 0)
    out[W_LOG_UK0 + min(max(sh, 0), 2)] = np.log1p(uk)
    out[W_DRAWS] = draws_left / 4.0
    out[W_DRAWS_SH] = draws_left / 4.0 * min(max(sh, 0), 4)
    out[W_OPEN] = 1.0 if is_open else 0.0


@njit(cache=True)
def win_probability(sh, uk, draws_left, is_open, w):
    """P(this seat wins the deal | the 13 tiles kept), the logistic of :func:`win_features`
    (0 when not ready with no draw left)."""
    if draws_left <= 0.0 and sh > 0:
        return 0.0
    z = w[W_BIAS]
    if sh >= 1:
        z += w[W_SH1 + min(sh, 3) - 1]
    z += w[W_SH_OVER3] * max(sh - 3, 0)
    z += w[W_LOG_UK0 + min(max(sh, 0), 2)] * np.log1p(uk)
    z += (w[W_DRAWS] + w[W_DRAWS_SH] * min(max(sh, 0), 4)) * draws_left / 4.0
    if is_open:
        z += w[W_OPEN]
    return 1.0 / (1.0 + np.exp(-z))


# ---- seven pairs
@njit(cache=True, inline="always")
def pairs_shanten(pairs, singles):
    """Seven-pairs shanten of a hand with ``pairs`` pairs (four of a kind: two) and ``singles``
    odd kinds (:func:`daqing_sim.hand.beijing.bj_pairs_distance_k` less one)."""
    need = 7 - pairs
    if need <= 0:
        return -1
    if singles >= need:
        return need - 1
    return singles + 2 * (need - singles) - 1


@njit(cache=True)
def pairs_count(hand):
    """``(pairs, singles)`` of ``hand``."""
    p = 0
    s = 0
    for t in range(N_KINDS_ALL):
        p += hand[t] // 2
        s += hand[t] % 2
    return p, s


@njit(cache=True)
def pairs_ukeire(hand, unseen):
    """Unseen tiles that lower the seven-pairs shanten of the 13 tiles ``hand``: a copy of an odd
    kind, or of a new kind when singles are short."""
    p, s = pairs_count(hand)
    short = s < 7 - p
    uk = 0
    for x in range(N_KINDS_ALL):
        if hand[x] % 2 == 1 or (short and hand[x] == 0):
            uk += unseen[x]
    return uk


# ---- one suit
@njit(cache=True)
def melds_suit(mk, mt, nm):
    """The suit (0-2) of all the seat's melds, 3 when it has none, -1 when they are not of one
    suit (an honor meld, or two suits)."""
    s = 3
    for j in range(nm):
        t = mt[j]
        if t >= ZHONG:
            return -1
        if s == 3:
            s = t // 9
        elif t // 9 != s:
            return -1
    return s


@njit(cache=True)
def suit_tiles(hand, s):
    """Tiles of suit ``s`` in ``hand``."""
    n = 0
    for i in range(9):
        n += hand[9 * s + i]
    return n


@njit(cache=True)
def suit_shanten(hand, s, melds, tabs, rs):
    """One-suit shanten of ``hand`` (13 or 14 tiles) needing ``melds`` more melds and a pair: the
    tiles missing with only its tiles of suit ``s`` kept, less one. ``rs`` (34,) is scratch,
    zero outside suit ``s`` on entry and on return."""
    for i in range(9):
        rs[9 * s + i] = hand[9 * s + i]
    d = bj_std_distance_k(rs, tabs, melds)
    for i in range(9):
        rs[9 * s + i] = 0
    return d - 1


@njit(cache=True)
def suit_ukeire(hand, s, melds, tabs, unseen, base, rs):
    """Unseen tiles of suit ``s`` that lower the one-suit shanten of the 13 tiles ``hand`` below
    ``base`` (its own one-suit shanten)."""
    for i in range(9):
        rs[9 * s + i] = hand[9 * s + i]
    uk = 0
    for i in range(9):
        x = 9 * s + i
        if unseen[x] <= 0 or rs[x] >= 4:
            continue
        rs[x] += 1
        if bj_std_distance_k(rs, tabs, melds) - 1 < base:
            uk += unseen[x]
        rs[x] -= 1
    for i in range(9):
        rs[9 * s + i] = 0
    return uk


@njit(cache=True)
def open_routes(hand, mk, mt, nm, pairs_min, suit_min):
    """The value routes open to a hand: ``(pairs, suit)``, ``pairs`` True when the hand has no
    meld and at least ``pairs_min`` pairs, ``suit`` the suit (0-2) holding all its melds and at
    least ``suit_min`` of its tiles (melds counted as three), else -1."""
    pairs = False
    if nm == 0 and pairs_min > 0:
        p, _ = pairs_count(hand)
        pairs = p >= pairs_min
    suit = -1
    if suit_min > 0:
        ms = melds_suit(mk, mt, nm)
        if ms >= 0:
            best = 0
            for s in range(3):
                if ms != 3 and s != ms:
                    continue
                n = suit_tiles(hand, s)
                if n > best:
                    best = n
                    suit = s
            if best + 3 * nm < suit_min:
                suit = -1
    return pairs, suit
