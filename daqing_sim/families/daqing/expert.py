"""``expert``: greedy hand building, but each discard facing a ready opponent is chosen by its
expected value in 2^N units, with a calibrated estimate of the danger of every tile.

For each legal discard ``t`` the expert scores

    EV(t) = (1 - P(deal in | t)) * win_value * P(win | hand left) - cost(t) * deal_in_cost

``P(deal in | t)`` combines the ready opponents' dangers (:func:`tile_danger`): zero for a tile a
locked ready seat let pass after declaring (a ready seat always wins when it can); otherwise
``1 - exp(-S)`` where ``S`` weighs the wait shapes (single, dual pair, kanchan, edge, two-sided)
still possible from the tiles this seat cannot see, a shape whose waits include a tile the ready
seat discarded itself counting only ``DANGER_W[W_POND]`` as much (measured: its own discards
are hit 0.4% of the time against 7.6% for other tiles), 中 its own weight. The weights were
fitted on self-play by ``tools/calibrate_danger.py`` (see ``docs/EXPERT.md``).

``P(win | hand left)`` is a small formula in the Daqing shanten, the standard ukeire (live outs
when ready, 夹 outs counting double) and the draws left (:func:`win_chance`); the deal-in cost
carries the dealer fan. With no opponent ready, or after the last claimable tile, the expert
plays as ``greedy`` but declares on a 夹 wait like ``jia_hunter`` (the danger is computed only
when it matters, which keeps the player fast). A ready hand, claims and kongs are greedy's.

Knobs (defaults, domains and meanings in :data:`KNOBS`, measured effects in docs/EXPERT.md):
``win_value``, ``deal_in_cost``, ``danger_scale`` (0 plays greedy with 夹 waits),
``dealer_factor``, ``outs_power``, ``jia_outs_fraction``, ``keep_zhong``, and two tactics of the
book (notebooks/06_tactics.ipynb): ``seen_wait_bonus`` (宁叫一熟), ``declare_min_outs`` (听好 over
力争早听).

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(20, strategies=("expert", "greedy", "greedy", "greedy"), seed=3)
>>> int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import ZHONG
from daqing_sim.families.daqing import greedy
from daqing_sim.hand.kernels import daqing_shanten_k
from daqing_sim.players.common import (
    EXACT_DEPTH,
    can_declare_after,
    discard_shanten,
    ready_shape,
    ukeire_after,
    unseen_counts,
    wait_outs,
)
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import (
    DECLARED,
    I_DEALER,
    I_KEEP_READY,
    I_MUST_DECLARE,
    I_N_MELDS,
    I_SEAT,
    I_WALL_LEFT,
    UNKNOWN,
)
from daqing_sim.rules import R_LAST_TILES_NO_CLAIM

K_WIN_VALUE, K_DEAL_IN_COST, K_DANGER_SCALE, K_DEALER_FACTOR, K_OUTS_POWER, K_JIA, K_KEEP_ZHONG = range(7)
K_SEEN_WAIT, K_DECLARE_MIN_OUTS = 7, 8
KNOBS = {
    "win_value": Knob(16.0, 0, 1000, doc="value of winning the deal over its likely alternative (2^N)"),
    "deal_in_cost": Knob(3.0, 0, 100, doc="loss of a 点黑炮 over the deal's likely alternative (2^N)"),
    "danger_scale": Knob(1.0, 0, 10, doc="multiplier on the fitted danger (0: no danger reading)"),
    "dealer_factor": Knob(1.0, 0, 1, doc="scale the deal-in cost by the dealer fan (0 off, 1 on)"),
    "outs_power": Knob(0.3, 0, 4, doc="weight of ukeire / live outs in P(win) (0: shanten only)"),
    "jia_outs_fraction": Knob(
        0.5, 0, 2, doc="declare on a 夹 (big) wait if its outs reach this fraction of the best (2: never)"
    ),
    "keep_zhong": Knob(
        0.0, 0, 1, integer=True, doc="1: keep a lone 中 over another discard of the same standard shanten"
    ),
    "seen_wait_bonus": Knob(
        0.0,
        0,
        10,
        doc="宁叫一熟: when declaring with nobody ready, rate a wait by its live outs plus this many "
        "times the outs on kinds already seen in ponds or melds (熟张, which others throw more readily)",
    ),
    "declare_min_outs": Knob(
        0.0,
        0,
        16,
        integer=True,
        doc="力争早听 vs 听好: declare only a wait with at least this many live outs (0: at once)",
    ),
}

# Danger features of one tile against one ready seat (see danger_features): per wait shape, the
# combinations clean and touching the seat's own discards; then 中 single and dual pair, likewise.
F_SINGLE, F_DUAL, F_KANCHAN, F_EDGE, F_TWO_SIDED = 0, 1, 2, 3, 4
N_SHAPES = 5
F_Z = 2 * N_SHAPES  # 中 single, dual pair; + 2: the same touching own discards
N_FEATURES = 2 * N_SHAPES + 4
# Weights: per shape, then W_POND (shapes touching own discards) and W_ZHONG (a 中 wait).
W_POND, W_ZHONG = N_SHAPES, N_SHAPES + 1
# Fitted by ``tools/calibrate_danger.py fit --n 3000 --seed 1001`` (4 greedy, classic rules).
DANGER_W = np.array([0.2126, 0.0, 0.128, 0.3988, 0.1551, 0.0636, 0.8696])


@njit(cache=True)
def own_discards(obs, r, out):
    """``out[x] = 1`` for each kind ready seat ``r`` discarded up to and with its declaration."""
    for x in range(28):
        out[x] = 0
    n = min(obs.n_pond[r], obs.pond.shape[1])
    for i in range(n):
        out[obs.pond[r, i]] = 1
        if obs.pond_flag[r, i] & DECLARED:
            break


@njit(cache=True)
def concealed_count(obs, r):
    """Concealed tiles of seat ``r`` (13 less three per meld, a kong counting three)."""
    return 13 - 3 * obs.table_nm[r]


@njit(cache=True)
def danger_features(t, u, pre, f1, f2, out):
    """Fill ``out`` (N_FEATURES,) with the wait shapes on tile ``t`` a ready seat could hold:
    combinations of the unseen tiles ``u`` per shape, one-tile shapes scaled by ``f1`` and
    two-tile shapes by ``f2`` (the chance the seat holds a given tile or pair of tiles), split by
    whether a tile the shape waits on is in ``pre`` (the seat's own discards)."""
    for k in range(N_FEATURES):
        out[k] = 0.0
    ut = np.float64(u[t])
    if t == ZHONG:
        o = 2 if pre[t] else 0
        out[F_Z + o] = ut * f1
        out[F_Z + 1 + o] = ut * (ut - 1.0) * 0.5 * f2
        return
    off = N_SHAPES if pre[t] else 0
    out[F_SINGLE + off] += ut * f1
    out[F_DUAL + off] += ut * (ut - 1.0) * 0.5 * f2
    k = t % 9
    if 1 <= k <= 7:
        out[F_KANCHAN + off] += np.float64(u[t - 1]) * u[t + 1] * f2
    if k == 2:
        out[F_EDGE + off] += np.float64(u[t - 2]) * u[t - 1] * f2
    if k == 6:
        out[F_EDGE + off] += np.float64(u[t + 1]) * u[t + 2] * f2
    if k <= 5:  # shape t+1 t+2 waits on t and t+3
        o = N_SHAPES if pre[t] or pre[t + 3] else 0
        out[F_TWO_SIDED + o] += np.float64(u[t + 1]) * u[t + 2] * f2
    if k >= 3:  # shape t-2 t-1 waits on t-3 and t
        o = N_SHAPES if pre[t] or pre[t - 3] else 0
        out[F_TWO_SIDED + o] += np.float64(u[t - 1]) * u[t - 2] * f2


@njit(cache=True)
def danger_sum(feat, w):
    """The hazard ``S`` of the features under weights ``w`` (P = 1 - exp(-S))."""
    s = 0.0
    for k in range(N_SHAPES):
        s += w[k] * (feat[k] + w[W_POND] * feat[N_SHAPES + k])
    zs = feat[F_Z] + w[W_POND] * feat[F_Z + 2]
    zd = feat[F_Z + 1] + w[W_POND] * feat[F_Z + 3]
    s += w[W_ZHONG] * (w[F_SINGLE] * zs + w[F_DUAL] * zd)
    return s


@njit(cache=True)
def tile_danger(obs, r, t, u, pre, n_unseen, feat):
    """P(tile ``t`` is in ready seat ``r``'s wait set), from what the deciding seat sees:
    0 if ``r`` is locked and let ``t`` pass, else ``1 - exp(-S)``. ``u`` the unseen counts,
    ``pre`` from :func:`own_discards`, ``n_unseen`` their total, ``feat`` scratch."""
    if obs.safe[r, t]:
        return 0.0
    if u[t] == 0 and t == ZHONG:
        return 0.0  # no 中 left to pair with: no wait on it
    nc = concealed_count(obs, r)
    f1 = nc / max(n_unseen, 1.0)
    danger_features(t, u, pre, f1, f1 * f1, feat)
    return 1.0 - np.exp(-danger_sum(feat, DANGER_W))


@njit(cache=True)
def danger_table(obs, r, out, p):
    """Features (``out`` (28, N_FEATURES)) and dangers (``p`` (28,)) of every kind against ready
    seat ``r`` from the deciding seat's view, for calibration; -1 in ``p`` for a passed tile."""
    unseen = np.zeros(28, dtype=np.int32)
    unseen_counts(obs.hand, obs.mk, obs.mt, obs.info[I_N_MELDS], obs.visible, unseen)
    n_unseen = 0.0
    for x in range(28):
        n_unseen += unseen[x]
    pre = np.zeros(28, dtype=np.uint8)
    own_discards(obs, r, pre)
    for t in range(28):
        p[t] = tile_danger(obs, r, t, unseen, pre, n_unseen, out[t])
        if obs.safe[r, t]:
            p[t] = -1.0


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy unless an opponent is ready, then by expected value."""
    seat = obs.info[I_SEAT]
    if obs.info[I_KEEP_READY] or obs.info[I_MUST_DECLARE] or kn[K_DANGER_SCALE] == 0.0:
        return greedy.discard_with(obs, rules, tabs, kn[K_JIA] <= 1.0, kn[K_JIA], greedy.NEVER_FOLD)
    any_ready = False
    for r in range(4):
        if r != seat and obs.ready[r]:
            any_ready = True
    # RULES: 荒庄前最后四张 — a discard after the last claimable tile cannot be won on
    if not any_ready or obs.info[I_WALL_LEFT] < rules[R_LAST_TILES_NO_CLAIM]:
        t, declare = greedy.discard_with(obs, rules, tabs, kn[K_JIA] <= 1.0, kn[K_JIA], greedy.NEVER_FOLD)
        if kn[K_KEEP_ZHONG] and t == ZHONG and obs.hand[ZHONG] == 1 and not declare:
            t = _keep_zhong(obs, tabs, t)
        if declare and (kn[K_SEEN_WAIT] > 0.0 or kn[K_DECLARE_MIN_OUTS] > 0.0):
            return _tactical_declaration(kn, obs, rules, tabs, np.int64(t), not any_ready)
        return t, declare
    t, declare = _ev_discard(kn, obs, rules, tabs)
    if declare and kn[K_DECLARE_MIN_OUTS] > 0.0:
        return _tactical_declaration(kn, obs, rules, tabs, np.int64(t), np.bool_(False))  # no literals
    return t, declare


@njit(cache=True)
def _tactical_declaration(kn, obs, rules, tabs, t, rechoose):
    """The tactics book's declaration knobs on a declaring discard ``t``: with ``rechoose``, the
    declaring discard whose wait has the most live outs plus ``seen_wait_bonus`` times its outs on
    kinds already seen (宁叫一熟，不听两生); then no declaration on fewer than
    ``declare_min_outs`` live outs (wait for a better one, 听好, instead of 力争早听)."""
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    unseen = obs.sc[0]
    unseen_counts(hand, mk, mt, nm, obs.visible, unseen)
    best = t
    best_score = -1.0
    best_outs = 0
    for x in range(28):
        if hand[x] == 0 or (x != t and not rechoose):
            continue
        hand[x] -= 1
        if ready_shape(hand, mk, mt, nm, rules, tabs, obs.tk, obs.tb):
            _, outs, _ = wait_outs(hand, mk, mt, nm, rules, tabs, unseen, obs.tk, obs.tb)
            seen = 0
            for w in range(28):
                if obs.tk[w] >= 0 and obs.visible[w] > 0:
                    seen += unseen[w]
            score = outs + kn[K_SEEN_WAIT] * seen
            if score > best_score or (score == best_score and x == t):
                best, best_score, best_outs = x, score, outs
        hand[x] += 1
    if best != t:
        obs.memo[obs.info[I_SEAT], 0] = UNKNOWN
    return best, best_outs >= kn[K_DECLARE_MIN_OUTS]


@njit(cache=True)
def _keep_zhong(obs, tabs, t):
    """Another discard of the lone 中's standard shanten with the most ukeire, if any (the 中
    waives the terminal and triplet conditions)."""
    hand = obs.hand
    std = obs.sc[1]
    unseen = obs.sc[0]
    discard_shanten(hand, tabs, std)
    best = t
    best_u = -1
    for x in range(27):
        if hand[x] > 0 and std[x] == std[ZHONG]:
            u = ukeire_after(hand, x, max(std[x], 1), unseen, tabs)
            if u > best_u:
                best_u = u
                best = x
    if best != t:
        obs.memo[obs.info[I_SEAT], 0] = UNKNOWN
    return best


@njit(cache=True)
def win_chance(sh, uk, draws_left, outs_power):
    """A rough P(win) of a hand ``sh`` from ready (after its discard) with ``uk`` useful unseen
    tiles (live outs when ready) and ``draws_left`` own draws left."""
    if draws_left <= 0:
        return 0.0
    base = 0.45
    for _ in range(sh):
        base *= 0.4
    d = draws_left / (draws_left + 2.0 + 2.0 * sh)
    q = (uk / (uk + 6.0 + 4.0 * sh)) ** outs_power
    return base * d * q


@njit(cache=True, inline="always")
def _ev_discard(kn, obs, rules, tabs):
    hand = obs.hand
    mk = obs.mk
    mt = obs.mt
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    unseen = obs.sc[0]
    std = obs.sc[1]
    unseen_counts(hand, mk, mt, nm, obs.visible, unseen)
    discard_shanten(hand, tabs, std)
    n_unseen = 0.0
    for x in range(28):
        n_unseen += unseen[x]
    lo = 99
    for t in range(28):
        if std[t] < lo:
            lo = std[t]
    # danger of each kind held, over the ready opponents
    safe_p = np.ones(28)
    cost = np.zeros(28)  # expected deal-in cost, in units of deal_in_cost
    dealer = obs.info[I_DEALER]
    fac = kn[K_DEALER_FACTOR]
    pre = np.zeros(28, dtype=np.uint8)
    feat = np.zeros(N_FEATURES)
    scale = kn[K_DANGER_SCALE]
    for r in range(4):
        if r == seat or not obs.ready[r]:
            continue
        own_discards(obs, r, pre)
        for t in range(28):
            if hand[t] > 0:
                p = tile_danger(obs, r, t, unseen, pre, n_unseen, feat)
                if scale != 1.0:
                    p = 1.0 - (1.0 - p) ** scale
                # RULES: 庄 doubles every amount of a dealer's win, and the dealer's own amount
                m = 1.0 + fac * (1.0 if r == dealer else (1.0 / 3.0 if seat == dealer else 0.0))
                cost[t] += safe_p[t] * p * m
                safe_p[t] *= 1.0 - p
    draws_left = obs.info[I_WALL_LEFT] / 4.0
    W = kn[K_WIN_VALUE]
    C = kn[K_DEAL_IN_COST]
    power = kn[K_OUTS_POWER]
    open_ok = can_declare_after(hand, mk, mt, nm, rules)
    best_t = -1
    best_v = -1e300
    best_declare = False
    best_sh = UNKNOWN
    # Branch and bound: the standard shanten bounds the Daqing one from below, so a discard's
    # value with it (and its standard ukeire) bounds its value from above; ready shapes first.
    ub = np.full(28, -1e300)
    uks = obs.sc[2]
    for t in range(28):
        if hand[t] == 0:
            continue
        s = std[t]
        if s == 0:
            hand[t] -= 1
            if ready_shape(hand, mk, mt, nm, rules, tabs, obs.tk, obs.tb):
                n, outs, big = wait_outs(hand, mk, mt, nm, rules, tabs, unseen, obs.tk, obs.tb)
                hand[t] += 1
                value = W * (1.0 + big / outs) if outs > 0 else W  # RULES: 夹 doubles every amount
                sh = 0 if open_ok else 1
                v = safe_p[t] * value * win_chance(sh, np.int64(outs), draws_left, power) - cost[t] * C
                if v > best_v:
                    best_v, best_t, best_declare, best_sh = v, t, open_ok, sh
                continue
            hand[t] += 1
            s = 1  # not ready: at least one exchange away
            std[t] = 1
        uks[t] = ukeire_after(hand, t, s, unseen, tabs)
        ub[t] = safe_p[t] * W * win_chance(s, np.int64(uks[t]), draws_left, power) - cost[t] * C
    while True:
        t = -1
        for x in range(28):
            if ub[x] > -1e300 and (t < 0 or ub[x] > ub[t]):
                t = x
        if t < 0 or ub[t] <= best_v:
            break
        s = std[t]
        v = ub[t]
        ub[t] = -1e300
        sh = UNKNOWN
        if s <= EXACT_DEPTH:
            hand[t] -= 1
            sh = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
            hand[t] += 1
            if sh > s:
                v = safe_p[t] * W * win_chance(sh, np.int64(uks[t]), draws_left, power) - cost[t] * C
        if v > best_v:
            best_v, best_t, best_declare, best_sh = v, t, False, sh
    obs.memo[seat, 0] = best_sh
    return best_t, best_declare


@njit(cache=True, inline="always")
def claim(kn, obs, rules, tabs, t, options):
    """As greedy (claims keep opening the door while others are ready)."""
    return greedy.claim_with(obs, rules, tabs, t, options, greedy.NEVER_FOLD)


@njit(cache=True, inline="always")
def kong(kn, obs, rules, tabs, kong_opts):
    """As greedy."""
    return greedy.kong(kn, obs, rules, tabs, kong_opts)
