"""Reading the table under Beijing: who is likely ready (听牌) and which tiles they could win on,
from public play only (the Beijing expert's danger; docs/EXPERT.md, Beijing).

Nobody declares ready under Beijing, so the danger of discarding tile ``t`` against seat ``r`` is

    P(deal in to r | t) = P(r is ready | table) x P(t in r's waits | r is ready, table)

and each factor is estimated and calibrated on its own (``tools/calibrate_danger.py --family beijing``):

* **Ready** (:func:`tenpai_features`, :data:`TENPAI_W`): a logistic in the seat's melds (an open
  seat with three or four melds is near ready), its discards so far, how many of its latest
  discards were the tile just drawn (手出し vs ツモ切り: a ready hand throws what it draws), how
  many tiles passed its hand unchanged, and whether its last change was a claim.
* **Passed tiles are safe** (exact, :func:`read_table`): the engine takes every win, so a tile
  discarded (by anyone, the seat itself included) while seat ``r``'s hand was what it is now is
  not one of its winning tiles. The hand is unchanged since its last discard that was not the
  tile just drawn; the order of the discards is rebuilt from the ponds (a claimed discard is
  followed by the claimer's, any other by the next seat's). Kongs keep this exact but one case:
  an added kong from a held copy changes the hand behind a drawn-and-thrown flag (counted in the
  calibration: rare).
* **Waits** (:func:`wait_features`, :data:`DANGER_W`): the wait shapes on ``t`` (single, dual
  pair, kanchan, edge, two-sided; honors single and dual pair only) still possible from the
  tiles the deciding seat cannot see, times the chance the seat holds those tiles; a two-sided
  shape whose other winning tile passed the seat is impossible; a shape waiting on a tile the
  seat discarded itself (but not after its last change) counts ``W_POND`` as much (measured:
  there is no furiten under Beijing, but its own discards are still rarer in its waits).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CONCEALED_KONG, N_KINDS_ALL, ZHONG
from daqing_sim.players.observation import CLAIMED, DRAWN_AND_THROWN, I_DEALER, I_N_MELDS, I_SEAT

# ---- P(ready): logistic features of one seat
(
    T_BIAS,
    T_NM1,
    T_NM2,
    T_NM3,
    T_NM4,
    T_DISCARDS,
    T_LOG_DISCARDS,
    T_TSUMO1,
    T_TSUMO2,
    T_TSUMO3,
    T_LOG_PASSED,
    T_CLAIM_CHANGE,
) = range(12)
N_TF = 12
# Fitted by ``tools/calibrate_danger.py fit --family beijing --n 2000 --seed 1101`` (4 greedy, defaults).
TENPAI_W = np.array(
    [-9.3451, 0.5349, 1.3038, 2.9548, 8.9925, -1.1615, 3.8917, 0.1951, 0.3215, 0.3845, -0.0232, 0.5704]
)

# ---- P(t in the waits | ready): per wait shape, clean and touching the seat's own discards;
# then honor single and dual pair, likewise.
F_SINGLE, F_DUAL, F_KANCHAN, F_EDGE, F_TWO_SIDED = 0, 1, 2, 3, 4
N_SHAPES = 5
F_HONOR = 2 * N_SHAPES  # honor single, dual pair; + 2: the same touching own discards
N_DF = 2 * N_SHAPES + 4
# Weights: per shape, then W_POND (shapes touching own discards) and W_HONOR (an honor wait).
W_POND, W_HONOR = N_SHAPES, N_SHAPES + 1
# Fitted by ``tools/calibrate_danger.py fit --family beijing --n 2000 --seed 1101`` (4 greedy, defaults).
DANGER_W = np.array([0.1862, 0.0, 0.0879, 0.3646, 0.2754, 0.0323, 0.5627])


@njit(cache=True)
def read_table(obs, safe, pond_mask, tf):
    """Rebuild the order of all discards from the ponds and fill, for every seat ``r``:
    ``safe[r, x] = 1`` for each kind that passed ``r``'s current hand (discarded after its last
    discard that was not the tile just drawn, or since the deal began), ``pond_mask[r, x] = 1``
    for each kind in its own pond, and ``tf[r]`` (N_TF,) its ready features. Returns the number of
    discards read.

    The order is walked twice (first to find each seat's last change, then to mark what followed
    it), so nothing is stored but a few counters per seat."""
    pond = obs.pond
    flag = obs.pond_flag
    claimer = obs.pond_claimer
    cap = pond.shape[1]
    # rows: discards per seat, walk index, position of the last change, claim before it, passed
    c = np.zeros((5, 4), dtype=np.int64)
    total = 0
    for s in range(4):
        c[0, s] = min(obs.n_pond[s], cap)
        c[2, s] = -1
        total += c[0, s]
    cur = obs.info[I_DEALER]
    prev_claimed = False
    p = 0
    while p < total:
        i = c[1, cur]
        if i >= c[0, cur]:
            break  # the ponds do not chain (cannot happen in a deal of the engine)
        f = flag[cur, i]
        if not f & DRAWN_AND_THROWN:
            c[2, cur] = p
            c[3, cur] = 1 if prev_claimed else 0
        c[1, cur] = i + 1
        p += 1
        prev_claimed = (f & CLAIMED) != 0
        cur = claimer[cur, i] if prev_claimed else (cur + 1) % 4
    for r in range(4):
        for x in range(safe.shape[1]):
            safe[r, x] = 0
            pond_mask[r, x] = 0
        for i in range(c[0, r]):
            pond_mask[r, pond[r, i]] = 1
        c[1, r] = 0
    cur = obs.info[I_DEALER]
    for q in range(p):
        i = c[1, cur]
        x = pond[cur, i]
        for r in range(4):
            if q > c[2, r]:
                safe[r, x] = 1
                c[4, r] += 1
        c[1, cur] = i + 1
        cur = claimer[cur, i] if flag[cur, i] & CLAIMED else (cur + 1) % 4
    for r in range(4):
        tsumo = 0
        for i in range(c[0, r] - 1, -1, -1):
            if flag[r, i] & DRAWN_AND_THROWN:
                tsumo += 1
            else:
                break
        k = c[0, r]
        nm = obs.table_nm[r]
        row = tf[r]
        for j in range(N_TF):
            row[j] = 0.0
        row[T_BIAS] = 1.0
        if nm >= 1:
            row[T_NM1 + min(nm, 4) - 1] = 1.0
        row[T_DISCARDS] = k / 10.0
        row[T_LOG_DISCARDS] = np.log1p(k)
        if tsumo >= 1:
            row[T_TSUMO1 + min(tsumo, 3) - 1] = 1.0
        row[T_LOG_PASSED] = np.log1p(c[4, r])
        row[T_CLAIM_CHANGE] = c[3, r]
    return p


@njit(cache=True)
def tenpai_bound(obs, r, w):
    """An upper bound of seat ``r``'s P(ready) from its melds and discard count alone (the other
    features at their most likely-ready values), without reading the ponds: where it is below
    the expert's threshold the table need not be read."""
    k = min(obs.n_pond[r], obs.pond.shape[1])
    nm = obs.table_nm[r]
    z = w[T_BIAS] + w[T_DISCARDS] * k / 10.0 + w[T_LOG_DISCARDS] * np.log1p(k)
    if nm >= 1:
        z += w[T_NM1 + min(nm, 4) - 1]
    z += max(0.0, w[T_TSUMO1], w[T_TSUMO2], w[T_TSUMO3]) + max(0.0, w[T_CLAIM_CHANGE])
    total = 0
    for s in range(4):
        total += min(obs.n_pond[s], obs.pond.shape[1])
    z += max(0.0, w[T_LOG_PASSED] * np.log1p(total))
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def last_discarder(obs):
    """The seat of the last discard of the deal (the one a claim decision is about), -1 if none:
    the order of the discards rebuilt from the ponds as in :func:`read_table`."""
    cap = obs.pond.shape[1]
    idx = np.zeros(4, dtype=np.int64)
    total = 0
    for s in range(4):
        total += min(obs.n_pond[s], cap)
    cur = obs.info[I_DEALER]
    last = -1
    for _ in range(total):
        i = idx[cur]
        if i >= min(obs.n_pond[cur], cap):
            break
        last = cur
        idx[cur] = i + 1
        if obs.pond_flag[cur, i] & CLAIMED:
            cur = obs.pond_claimer[cur, i]
        else:
            cur = (cur + 1) % 4
    return last


@njit(cache=True, inline="always")
def tenpai_probability(row, w):
    """P(the seat is ready) of its features ``row`` under the logistic weights ``w``."""
    z = 0.0
    for j in range(N_TF):
        z += w[j] * row[j]
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def open_hand(obs, r):
    """Has seat ``r`` a chi, peng or exposed kong (its win is worth half)?"""
    for j in range(obs.table_nm[r]):
        if obs.table_mk[r, j] != CONCEALED_KONG:
            return True
    return False


@njit(cache=True)
def bound_to_other(obs, r, me):
    """Is seat ``r`` bound by 互包 to a seat other than ``me`` and not to ``me`` (then ``r``'s
    partner pays all of its win, and a deal-in to ``r`` costs ``me`` nothing)?"""
    other = False
    for b in range(4):
        if b == r:
            continue
        r_from_b = 0
        b_from_r = 0
        for j in range(obs.table_nm[r]):
            if obs.meld_from[r, j] == b:
                r_from_b += 1
        for j in range(obs.table_nm[b]):
            if obs.meld_from[b, j] == r:
                b_from_r += 1
        if r_from_b >= 3 or b_from_r >= 3:
            if b == me:
                return False
            other = True
    return other


@njit(cache=True, inline="always")
def wait_features(t, u, pond_r, safe_r, f1, f2, out):
    """Fill ``out`` (N_DF,) with the wait shapes on tile ``t`` a ready seat could hold:
    combinations of the unseen tiles ``u`` per shape, one-tile shapes scaled by ``f1`` and
    two-tile shapes by ``f2``; a two-sided shape whose other tile is in ``safe_r`` (passed the
    seat) is impossible; a shape touching the seat's own discards ``pond_r`` goes to the second
    half. (Tile ``t`` itself is not in ``safe_r``: such a tile has no danger.)"""
    for k in range(N_DF):
        out[k] = 0.0
    ut = np.float64(u[t])
    if t >= ZHONG:  # honors: a single (or a seven-pairs single) or a dual pair
        o = 2 if pond_r[t] else 0
        out[F_HONOR + o] = ut * f1
        out[F_HONOR + 1 + o] = ut * (ut - 1.0) * 0.5 * f2
        return
    off = N_SHAPES if pond_r[t] else 0
    out[F_SINGLE + off] += ut * f1
    out[F_DUAL + off] += ut * (ut - 1.0) * 0.5 * f2
    k = t % 9
    if 1 <= k <= 7:
        out[F_KANCHAN + off] += np.float64(u[t - 1]) * u[t + 1] * f2
    if k == 2:
        out[F_EDGE + off] += np.float64(u[t - 2]) * u[t - 1] * f2
    if k == 6:
        out[F_EDGE + off] += np.float64(u[t + 1]) * u[t + 2] * f2
    if k <= 5 and not safe_r[t + 3]:  # shape t+1 t+2 waits on t and t+3
        o = N_SHAPES if pond_r[t] or pond_r[t + 3] else 0
        out[F_TWO_SIDED + o] += np.float64(u[t + 1]) * u[t + 2] * f2
    if k >= 3 and not safe_r[t - 3]:  # shape t-2 t-1 waits on t-3 and t
        o = N_SHAPES if pond_r[t] or pond_r[t - 3] else 0
        out[F_TWO_SIDED + o] += np.float64(u[t - 1]) * u[t - 2] * f2


@njit(cache=True, inline="always")
def hazard(feat, w):
    """The hazard ``S`` of the wait features under weights ``w`` (P = 1 - exp(-S))."""
    s = 0.0
    for k in range(N_SHAPES):
        s += w[k] * (feat[k] + w[W_POND] * feat[N_SHAPES + k])
    hs = feat[F_HONOR] + w[W_POND] * feat[F_HONOR + 2]
    hd = feat[F_HONOR + 1] + w[W_POND] * feat[F_HONOR + 3]
    s += w[W_HONOR] * (w[F_SINGLE] * hs + w[F_DUAL] * hd)
    return s


@njit(cache=True, inline="always")
def wait_probability(t, u, pond_r, safe_r, nc, n_unseen, feat, w):
    """P(tile ``t`` is one of the seat's winning tiles | it is ready): 0 for a passed tile, else
    ``1 - exp(-S)``; ``nc`` the seat's concealed tiles, ``n_unseen`` all unseen tiles."""
    if safe_r[t] or u[t] == 0 and t >= ZHONG:
        return 0.0
    f1 = nc / max(n_unseen, 1.0)
    wait_features(t, u, pond_r, safe_r, f1, f1 * f1, feat)
    return 1.0 - np.exp(-hazard(feat, w))


@njit(cache=True)
def unseen_34(obs, out):
    """Copies of each of the 34 kinds the deciding seat cannot see; returns their total."""
    hand = obs.hand
    for t in range(N_KINDS_ALL):
        out[t] = 4 - np.int32(hand[t]) - np.int32(obs.visible[t])
    for j in range(obs.info[I_N_MELDS]):
        if obs.mk[j] == CONCEALED_KONG:
            out[obs.mt[j]] -= 4
    n = 0
    for t in range(N_KINDS_ALL):
        if out[t] < 0:
            out[t] = 0
        n += out[t]
    return n


@njit(cache=True)
def danger_table(obs, tf_out, pt_out, feat_out, q_out, safe_out):
    """For calibration: every seat's ready features (``tf_out`` (4, N_TF)) and P(ready)
    (``pt_out`` (4,)); for every seat ``r`` other than the deciding one and every kind ``t``, the
    wait features (``feat_out`` (4, 34, N_DF)), P(t in r's waits | ready) (``q_out`` (4, 34)) and
    whether ``t`` passed ``r`` (``safe_out`` (4, 34))."""
    me = obs.info[I_SEAT]
    pond_mask = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    read_table(obs, safe_out, pond_mask, tf_out)
    u = np.zeros(N_KINDS_ALL, dtype=np.int32)
    n_unseen = np.float64(unseen_34(obs, u))
    for r in range(4):
        pt_out[r] = 0.0 if r == me else tenpai_probability(tf_out[r], TENPAI_W)
        nc = 13.0 - 3.0 * obs.table_nm[r]
        for t in range(N_KINDS_ALL):
            q_out[r, t] = 0.0
            for k in range(N_DF):
                feat_out[r, t, k] = 0.0
            if r == me or safe_out[r, t]:
                continue
            q_out[r, t] = wait_probability(
                t, u, pond_mask[r], safe_out[r], nc, n_unseen, feat_out[r, t], DANGER_W
            )
