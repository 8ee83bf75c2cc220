"""Beijing's fans (docs/RULES_BEIJING.md, "Fans"): which fans a win scores and what it is worth.

Fans are indexed by ``FAN_NAMES`` (the order of the ``R_FANS_*`` rule fields), so a fan's
value under the rules is ``rules[R_FANS_ALL_TRIPLETS + i]``. The shapes themselves (shanten,
waits, completeness of 34-kind hands) are shared: :mod:`daqing_sim.hand.kinds34`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CHI, CONCEALED_KONG, N_KINDS_ALL, ZHONG
from daqing_sim.families.beijing.spec import SPEC
from daqing_sim.rules import R_BASE_POINTS, R_FAN_COMBINE, R_FANS_ALL_TRIPLETS, R_OPEN_HAND_FACTOR

FAN_NAMES = tuple(f.code for f in SPEC.fans)  # the order of the R_FANS_* rule fields
(
    F_ALL_TRIPLETS,
    F_BIG_SINGLE_WAIT,
    F_CATCH_FIVE,
    F_LAST_TILE,
    F_DRAGON,
    F_SEVEN_PAIRS,
    F_KONG_BLOOM,
    F_ONE_SUIT,
    F_LUXURY_SEVEN_PAIRS,
    F_PLAIN_WIN,
    F_LAST_DISCARD,
) = range(11)
N_FANS = 11
assert len(FAN_NAMES) == N_FANS and FAN_NAMES[F_LAST_DISCARD] == "last_discard"
N_TYPES = 9  # the fan types before plain_win: a win with none of them is a plain win
FIVE_M = 4  # 5m, the tile of 捉五魁

# win-context bits of bj_fans_k's ``how``
HOW_SELF_DRAW, HOW_LAST_TILE, HOW_LAST_DISCARD, HOW_KONG_REPLACEMENT, HOW_ROBBED_KONG = 1, 2, 4, 8, 16


@njit(cache=True)
def _suit_splits(counts, base, pair, chi_starts, want_five):
    """Achievable (all_triplets, dragon, five in the middle of 456) combinations of one suit's
    splits into melds (with the pair at ``pair``, a rank 0-8, or none at -1), as an 8-bit set:
    bit ``4*trip + 2*dragon + mid5``. 0 when the suit does not split."""
    c = np.empty(9, dtype=np.int64)
    trip_ranks = np.empty(9, dtype=np.int64)
    seq = np.empty(9, dtype=np.int64)
    nt = 0
    for i in range(9):
        c[i] = counts[base + i] - (2 if i == pair else 0)
        if c[i] >= 3:
            trip_ranks[nt] = i
            nt += 1
    out = 0
    for mask in range(1 << nt):
        w = c.copy()
        for j in range(nt):
            if mask >> j & 1:
                w[trip_ranks[j]] -= 3
        ok = True
        n_seq = 0
        for i in range(9):
            seq[i] = 0
        for i in range(9):
            k = w[i]
            if k == 0:
                continue
            if i > 6 or w[i + 1] < k or w[i + 2] < k:
                ok = False
                break
            w[i + 1] -= k
            w[i + 2] -= k
            seq[i] = k
            n_seq += k
        if not ok:
            continue
        trip = 1 if n_seq == 0 else 0
        low = seq[0] + chi_starts[0] > 0
        dragon = 1 if (low and seq[3] + chi_starts[3] > 0 and seq[6] + chi_starts[6] > 0) else 0
        mid5 = 1 if want_five and seq[3] > 0 else 0
        out |= 1 << (4 * trip + 2 * dragon + mid5)
    return out


@njit(cache=True)
def bj_fans_k(counts, meld_kind, meld_tile, n_melds, win_tile, only_wait, how, rules, out):
    """Fans of a Beijing win: ``counts`` the 14 concealed tiles (the win tile included),
    ``only_wait`` whether the win tile was the 13-tile hand's only winning tile, ``how`` the
    ``HOW_*`` bits. Fills ``out`` (11,) with each fan's count (0 or 1) for the split worth the
    most and returns F (the sum of the fans' values, or -1 when the hand is not a win)."""
    for i in range(N_FANS):
        out[i] = 0
    chi = np.zeros((3, 9), dtype=np.int64)
    exposed = 0
    chi_any = False
    suit_mask = 0
    for i in range(n_melds):
        t = meld_tile[i]
        if meld_kind[i] != CONCEALED_KONG:
            exposed += 1
        if meld_kind[i] == CHI:
            chi[t // 9, t % 9] += 1
            chi_any = True
        suit_mask |= (1 << (t // 9)) if t < ZHONG else 8
    for t in range(N_KINDS_ALL):
        if counts[t] > 0:
            suit_mask |= (1 << (t // 9)) if t < ZHONG else 8
    self_draw = how & HOW_SELF_DRAW
    common = np.zeros(N_FANS, dtype=np.int64)
    if suit_mask == 1 or suit_mask == 2 or suit_mask == 4:
        common[F_ONE_SUIT] = 1
    if self_draw and how & HOW_LAST_TILE:
        common[F_LAST_TILE] = 1
    if self_draw and how & HOW_KONG_REPLACEMENT:
        common[F_KONG_BLOOM] = 1
    if exposed == 4:
        common[F_BIG_SINGLE_WAIT] = 1  # four exposed melds: the win is on the single tile
    five = win_tile == FIVE_M and only_wait
    best = -1
    best_set = np.zeros(N_FANS, dtype=np.int64)
    # four melds and a pair: every pair kind, the suits' achievable feature sets combined
    for pk in range(N_KINDS_ALL):
        if counts[pk] < 2:
            continue
        ok = True
        for h in range(ZHONG, N_KINDS_ALL):
            v = counts[h] - (2 if h == pk else 0)
            if v != 0 and v != 3:
                ok = False
        if not ok:
            continue
        sets = np.zeros(3, dtype=np.int64)
        for s in range(3):
            pr = pk - 9 * s if 9 * s <= pk < 9 * s + 9 else -1
            sets[s] = _suit_splits(counts, 9 * s, pr, chi[s], five and s == 0)
            if sets[s] == 0:
                ok = False
                break
        if not ok:
            continue
        pair_five = five and pk == FIVE_M
        for a in range(8):
            if not sets[0] >> a & 1:
                continue
            for b in range(8):
                if not sets[1] >> b & 1:
                    continue
                for c in range(8):
                    if not sets[2] >> c & 1:
                        continue
                    trip = (a >> 2) & (b >> 2) & (c >> 2) & (0 if chi_any else 1)
                    dragon = ((a >> 1) | (b >> 1) | (c >> 1)) & 1
                    catch = (a & 1) | (1 if pair_five else 0)
                    cur = common.copy()
                    cur[F_ALL_TRIPLETS] = trip
                    cur[F_DRAGON] = dragon
                    cur[F_CATCH_FIVE] = catch
                    f = _total(cur, how, rules)
                    if f > best:
                        best = f
                        best_set[:] = cur
    if n_melds == 0:
        even = True
        four = False
        for t in range(N_KINDS_ALL):
            if counts[t] % 2 == 1:
                even = False
            if counts[t] == 4:
                four = True
        if even:
            cur = common.copy()
            cur[F_LUXURY_SEVEN_PAIRS if four else F_SEVEN_PAIRS] = 1
            cur[F_CATCH_FIVE] = 1 if five else 0  # a single wait on 5m
            f = _total(cur, how, rules)
            if f > best:
                best = f
                best_set[:] = cur
    if best < 0:
        return -1
    for i in range(N_FANS):
        out[i] = best_set[i]
    return best


@njit(cache=True)
def _total(fans, how, rules):
    """Fill plain_win / last_discard and return F (the sum of fans' values)."""
    any_type = 0
    for i in range(N_TYPES):
        any_type += fans[i]
    fans[F_PLAIN_WIN] = 1 if any_type == 0 else 0
    fans[F_LAST_DISCARD] = 1 if (how & HOW_LAST_DISCARD and not how & HOW_SELF_DRAW) else 0
    f = 0
    for i in range(N_FANS):
        f += fans[i] * rules[R_FANS_ALL_TRIPLETS + i]
    return f


@njit(cache=True)
def bj_value_k(total_fans, is_open, rules):
    """A win's value in points: base (halved when open) x F, or x 2^(F - plain_win) ("double")."""
    base = rules[R_BASE_POINTS]
    if is_open:
        base = base * rules[R_OPEN_HAND_FACTOR] // 1000
    if rules[R_FAN_COMBINE] == 0:
        return base * total_fans
    return base * (1 << max(total_fans - rules[R_FANS_ALL_TRIPLETS + F_PLAIN_WIN], 0))


@njit(cache=True)
def bj_dragon_split_k(counts, meld_kind, meld_tile, n_melds):
    """Does the 14-tile hand ``counts`` (with its melds) split into four melds and a pair with
    一条龙 (123, 456 and 789 of one suit, chi melds included)? RULES: the body of the dragon may
    rob a concealed kong."""
    chi = np.zeros((3, 9), dtype=np.int64)
    for i in range(n_melds):
        t = meld_tile[i]
        if meld_kind[i] == CHI:
            chi[t // 9, t % 9] += 1
    for pk in range(N_KINDS_ALL):
        if counts[pk] < 2:
            continue
        ok = True
        for h in range(ZHONG, N_KINDS_ALL):
            v = counts[h] - (2 if h == pk else 0)
            if v != 0 and v != 3:
                ok = False
        if not ok:
            continue
        dragon = False
        for s in range(3):
            pr = pk - 9 * s if 9 * s <= pk < 9 * s + 9 else -1
            sets = _suit_splits(counts, 9 * s, pr, chi[s], np.bool_(False))
            if sets == 0:
                ok = False
                break
            if sets & 0xCC:  # a split with the dragon bit (bit index 4*trip + 2*dragon + mid5)
                dragon = True
        if ok and dragon:
            return True
    return False
