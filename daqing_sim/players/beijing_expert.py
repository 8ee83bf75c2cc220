"""``expert`` under Beijing: greedy hand building, but a discard facing a seat that is likely ready,
or made by a hand with a value route open, is chosen by its expected value.

For each kind ``t`` in hand the expert scores, in units of ``base_points``,

    EV(t) = P(no deal-in | t) x win_value x max_route [P(win | route, hand left) x V(route)]
            - deal_in_cost x sum_r P(deal in to r | t) x L_r

* ``P(deal in to r | t) = P(r ready) x P(t in r's waits | ready)``, read from public play
  (:mod:`daqing_sim.players.beijing_danger`); the seats are taken in turn order after this one
  (the first that waits on ``t`` wins, 截和). ``L_r`` is the mean value of ``r``'s win (concealed
  or open, :data:`FANS_CONCEALED`, :data:`FANS_OPEN`), 0 when ``r`` is bound by 互包 to a third
  seat (who then pays it all).
* ``P(win | route, hand left)`` and ``V(route)`` are :mod:`daqing_sim.players.beijing_value`'s:
  the plain route (F about 1, half when open), seven pairs (4 fans) and one suit (6 fans, half
  when open), the last two only where open to the hand and weighted by ``pairs_value`` and
  ``suit_value``. A discard that leaves the hand further from ready on its route than the best
  one has its P(win) scaled by ``rise_factor`` per step (the fitted P(win) compares hands, not
  the choices between them).

When no other seat is ready with probability ``min_tenpai`` or more and no value route is open,
it plays as ``greedy`` (nothing is computed beyond the reading of the table, which keeps the
player fast). Claims are greedy's, but with a value route open a claim is taken only when the
best discard after it is worth more than passing (``P(win) x V`` on both sides), and a
concealed hand otherwise opens only when the hand left is at most ``open_max_shanten`` from
ready. Kongs are greedy's, but no concealed kong breaks an open seven-pairs route.

Knobs: :data:`KNOBS` (defaults, domains); measured effects in docs/EXPERT.md (Beijing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import (
    CHI_HIGH,
    CHI_LOW,
    CLAIM_KONG,
    CLAIM_PENG,
    N_KINDS_ALL,
    OPT_CONCEALED_KONG,
    PASS,
    ZHONG,
)
from daqing_sim.hand.beijing import (
    F_ONE_SUIT,
    F_SEVEN_PAIRS,
    bj_complete_k,
    bj_shanten_changes_k,
    bj_shanten_k,
    bj_ukeire_k,
)
from daqing_sim.players.beijing_danger import (
    DANGER_W,
    N_DF,
    N_TF,
    TENPAI_W,
    bound_to_other,
    last_discarder,
    open_hand,
    read_table,
    tenpai_probability,
    unseen_34,
    wait_probability,
)
from daqing_sim.players.beijing_greedy import greedy_claim, greedy_discard, greedy_kong
from daqing_sim.players.beijing_value import (
    N_ROUTES,
    NONE,
    R_PAIRS,
    R_STD,
    R_SUIT,
    WIN_W,
    open_routes,
    pairs_count,
    pairs_shanten,
    pairs_ukeire,
    suit_shanten,
    suit_ukeire,
    win_probability,
)
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_DEALER, I_N_MELDS, I_SEAT, I_WALL_LEFT
from daqing_sim.rules import R_DEAD_WALL_TILES, R_FANS_ALL_TRIPLETS, R_OPEN_HAND_FACTOR

KNOB_ORDER = (
    "win_value",
    "deal_in_cost",
    "min_tenpai",
    "danger_scale",
    "rise_factor",
    "shanten_slack",
    "open_max_shanten",
    "pairs_value",
    "pairs_min",
    "suit_value",
    "suit_min",
    "push_below",
    "push_keep",
    "honor_wait",
    "avoid_binding",
    "dealer_no_wind",
)
KNOBS = {
    "win_value": Knob(2.0, 0, 100, doc="a win's worth in units of its value (a self-draw's triple pay in)"),
    "deal_in_cost": Knob(1.0, 0, 100, doc="a deal-in's cost in units of the winner's value"),
    "min_tenpai": Knob(0.05, 0, 1, doc="read the danger when another seat is this likely ready (1: never)"),
    "danger_scale": Knob(1.0, 0, 10, doc="multiplier on every P(deal in) (0: no danger, P(win) alone)"),
    "rise_factor": Knob(0.5, 0, 1, doc="P(win) of a discard leaving its route further from ready, per step"),
    "shanten_slack": Knob(8.0, 0, 8, integer=True, doc="discard only kinds leaving the route this far back"),
    "open_max_shanten": Knob(8.0, 0, 8, integer=True, doc="a concealed hand claims only this close to ready"),
    "pairs_value": Knob(0.0, 0, 1, doc="weight of seven pairs' fans in a hand's value (0: plain shanten)"),
    "pairs_min": Knob(4.0, 1, 7, integer=True, doc="pairs in a meldless hand to open the seven-pairs route"),
    "suit_value": Knob(0.0, 0, 1, doc="weight of one suit's fans in a hand's value (0: plain shanten)"),
    "suit_min": Knob(9.0, 1, 14, integer=True, doc="tiles of one suit (melds count 3) to open its route"),
    "push_below": Knob(
        0.0, 0, 9, integer=True, doc="below this shanten keep only discards near the best gain"
    ),
    "honor_wait": Knob(0.0, 0, 4, doc="a ready hand's live outs on honors count this much extra"),
    "avoid_binding": Knob(0.0, 0, 1, integer=True, doc="1: no third claim from one seat (互包)"),
    "dealer_no_wind": Knob(0.0, 0, 1, integer=True, doc="1: the dealer's first discard avoids a wind (烧庄)"),
    "push_keep": Knob(1.0, 0, 1, doc="with push_below: the share of the best P(win) x V a discard must keep"),
}
# the knob vector's positions follow KNOBS' order (encode_strategies), whatever the order above
assert sorted(KNOB_ORDER) == sorted(KNOBS)
(
    K_WIN_VALUE,
    K_DEAL_IN_COST,
    K_MIN_TENPAI,
    K_DANGER_SCALE,
    K_RISE_FACTOR,
    K_SHANTEN_SLACK,
    K_OPEN_MAX_SHANTEN,
    K_PAIRS_VALUE,
    K_PAIRS_MIN,
    K_SUIT_VALUE,
    K_SUIT_MIN,
    K_PUSH_BELOW,
    K_PUSH_KEEP,
    K_HONOR_WAIT,
    K_AVOID_BINDING,
    K_DEALER_NO_WIND,
) = (list(KNOBS).index(name) for name in KNOB_ORDER)

EAST, NORTH = 28, 31
# the mean F of a win, concealed and open (4 greedy, 20,000 Beijing deals, seed 2)
FANS_CONCEALED, FANS_OPEN = 1.46, 1.04

# columns of the per-kind table of :func:`discard_table`
V_SHANTEN, V_UKEIRE, V_P_WIN, V_VALUE, V_P_DEAL_IN, V_COST, V_EV, V_ROUTE = range(8)
N_V = 8


@njit(cache=True)
def draws_left_of(obs, rules):
    """Own draws left, roughly: the drawable tiles over four."""
    return max(obs.info[I_WALL_LEFT] - rules[R_DEAD_WALL_TILES], 0) / 4.0


@njit(cache=True)
def route_values(kn, rules, is_open, out):
    """Fill ``out`` (N_ROUTES,) with each route's win value in base points: the plain F
    (``FANS_OPEN``), seven pairs' and one suit's fans weighted by their knobs; halved when open."""
    f = rules[R_OPEN_HAND_FACTOR] / 1000.0 if is_open else 1.0
    plain = FANS_OPEN * f
    out[R_STD] = plain
    out[R_PAIRS] = plain + kn[K_PAIRS_VALUE] * (rules[R_FANS_ALL_TRIPLETS + F_SEVEN_PAIRS] - plain)
    out[R_SUIT] = plain + kn[K_SUIT_VALUE] * (rules[R_FANS_ALL_TRIPLETS + F_ONE_SUIT] * f - plain)


@njit(cache=True)
def read_risk(kn, obs, safe, pmask, pt):
    """Fill the table reading (:func:`~daqing_sim.players.beijing_danger.read_table`) and every
    other seat's P(ready) ``pt``; returns whether one reaches ``min_tenpai``."""
    seat = obs.info[I_SEAT]
    tf = np.zeros((4, N_TF))
    read_table(obs, safe, pmask, tf)
    risk = False
    for r in range(4):
        pt[r] = 0.0
        if r != seat:
            pt[r] = tenpai_probability(tf[r], TENPAI_W)
            if pt[r] >= kn[K_MIN_TENPAI]:
                risk = True
    return risk


@njit(cache=True)
def hand_routes(kn, obs):
    """The value routes open to the deciding seat's hand (:func:`open_routes` under the knobs)."""
    pmin = kn[K_PAIRS_MIN] if kn[K_PAIRS_VALUE] > 0.0 else 0.0
    smin = kn[K_SUIT_MIN] if kn[K_SUIT_VALUE] > 0.0 else 0.0
    return open_routes(obs.hand, obs.mk, obs.mt, obs.info[I_N_MELDS], pmin, smin)


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy unless another seat is likely ready or a value route is open,
    then by expected value."""
    safe = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    pmask = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    pt = np.zeros(4)
    risk = read_risk(kn, obs, safe, pmask, pt)
    pairs_on, suit = hand_routes(kn, obs)
    seat = obs.info[I_SEAT]
    if kn[K_DEALER_NO_WIND] > 0.0 and seat == obs.info[I_DEALER] and obs.n_pond[seat] == 0:
        return _dealer_first(obs, tabs), False
    if not risk:
        if not pairs_on and suit < 0 and not (kn[K_HONOR_WAIT] > 0.0 and _lowest_after(obs, tabs) == 0):
            return greedy_discard(obs, tabs), False
        pt[:] = 0.0
    out = np.empty((N_KINDS_ALL, N_V))
    return ev_discard(kn, obs, rules, tabs, safe, pmask, pt, pairs_on, suit, out), False


@njit(cache=True)
def _lowest_after(obs, tabs):
    """The lowest shanten a discard leaves."""
    after = obs.sc[1]
    bj_shanten_changes_k(obs.hand, obs.info[I_N_MELDS], tabs, -1, after)
    lo = NONE
    for t in range(N_KINDS_ALL):
        if after[t] < lo:
            lo = after[t]
    return lo


@njit(cache=True)
def _dealer_first(obs, tabs):
    """Greedy's first discard of the dealer, but not a wind when a kind of the same shanten is
    not one (RULES: 烧庄 — a first wind must be followed by every seat holding it): the one of
    those with the most ukeire."""
    t = greedy_discard(obs, tabs)
    if t < EAST or t > NORTH:
        return t
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    unseen = obs.sc[0]
    unseen_34(obs, unseen)
    after = obs.sc[1]
    bj_shanten_changes_k(hand, nm, tabs, -1, after)
    best = t
    best_u = -1
    for x in range(N_KINDS_ALL):
        if hand[x] == 0 or EAST <= x <= NORTH or after[x] != after[t]:
            continue
        hand[x] -= 1
        u = bj_ukeire_k(hand, nm, tabs, unseen, after[x])
        hand[x] += 1
        if u > best_u:
            best_u = u
            best = x
    return best


@njit(cache=True)
def discard_table(kn, obs, rules, tabs, out):
    """The expert's reasons, for explaining a decision: ``out`` (34, N_V) per kind held the
    shanten left on its best route, the ukeire there, P(win), the route's value, P(deal in), the
    expected deal-in cost, EV and the route (NaN rows for kinds not held); returns the EV
    discard (whatever ``min_tenpai`` says)."""
    safe = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    pmask = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    pt = np.zeros(4)
    read_risk(kn, obs, safe, pmask, pt)
    pairs_on, suit = hand_routes(kn, obs)
    return ev_discard(kn, obs, rules, tabs, safe, pmask, pt, pairs_on, suit, out)


@njit(cache=True)
def route_shanten(hand, nm, tabs, pairs_on, suit, sh, scratch, rs):
    """``sh`` (N_ROUTES, 34): each route's shanten after discarding each kind (``NONE`` for kinds
    not held and closed routes); ``scratch`` (34,) int32, ``rs`` (34,) uint8 zeros."""
    gate = 1 if pairs_on else nm  # with seven pairs as its own route, the plain one is melds only
    bj_shanten_changes_k(hand, gate, tabs, -1, scratch)
    for t in range(N_KINDS_ALL):
        for k in range(N_ROUTES):
            sh[k, t] = NONE
        if hand[t] > 0:
            sh[R_STD, t] = scratch[t]
    if pairs_on:
        p, s = pairs_count(hand)
        for t in range(N_KINDS_ALL):
            c = hand[t]
            if c > 0:
                sh[R_PAIRS, t] = pairs_shanten(p - c // 2 + (c - 1) // 2, s - c % 2 + (c - 1) % 2)
    if suit >= 0:
        melds = 4 - nm
        base = suit_shanten(hand, suit, melds, tabs, rs)
        for t in range(N_KINDS_ALL):
            if hand[t] == 0:
                continue
            if t // 9 == suit and t < ZHONG:
                hand[t] -= 1
                sh[R_SUIT, t] = suit_shanten(hand, suit, melds, tabs, rs)
                hand[t] += 1
            else:
                sh[R_SUIT, t] = base


@njit(cache=True)
def route_ukeire(route, hand, nm, tabs, unseen, pairs_on, suit, s, rs):
    """Ukeire of the 13 tiles ``hand`` along ``route`` (shanten ``s`` there)."""
    if route == R_STD:
        return bj_ukeire_k(hand, 1 if pairs_on else nm, tabs, unseen, s)
    if route == R_PAIRS:
        return pairs_ukeire(hand, unseen)
    return suit_ukeire(hand, suit, 4 - nm, tabs, unseen, s, rs)


@njit(cache=True)
def _honor_outs(hand, nm, tabs, unseen):
    """Unseen copies of the honors that complete the ready 13 tiles ``hand``."""
    n = 0
    for x in range(ZHONG, N_KINDS_ALL):
        if unseen[x] > 0 and hand[x] < 4:
            hand[x] += 1
            if bj_complete_k(hand, nm, tabs):
                n += unseen[x]
            hand[x] -= 1
    return n


@njit(cache=True)
def ev_discard(kn, obs, rules, tabs, safe, pmask, pt, pairs_on, suit, out):
    """The discard of the highest EV (module docstring); ``out`` (34, N_V) gets each kind's terms."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    unseen = obs.sc[0]
    n_unseen = np.float64(unseen_34(obs, unseen))
    me_open = open_hand(obs, seat)
    sh = np.empty((N_ROUTES, N_KINDS_ALL), dtype=np.int64)
    rs = np.zeros(N_KINDS_ALL, dtype=np.uint8)
    route_shanten(hand, nm, tabs, pairs_on, suit, sh, obs.sc[1], rs)
    lo = np.full(N_ROUTES, NONE, dtype=np.int64)
    for k in range(N_ROUTES):
        for t in range(N_KINDS_ALL):
            if sh[k, t] < lo[k]:
                lo[k] = sh[k, t]
    value = np.empty(N_ROUTES)
    route_values(kn, rules, me_open, value)
    loss = np.zeros(4)
    nc = np.zeros(4)
    for r in range(4):
        if r != seat:
            if not bound_to_other(obs, r, seat):
                loss[r] = 0.5 * FANS_OPEN if open_hand(obs, r) else FANS_CONCEALED
            nc[r] = 13.0 - 3.0 * obs.table_nm[r]
    draws = draws_left_of(obs, rules)
    W = kn[K_WIN_VALUE]
    C = kn[K_DEAL_IN_COST]
    scale = kn[K_DANGER_SCALE]
    rise = kn[K_RISE_FACTOR]
    honor_wait = kn[K_HONOR_WAIT]
    feat = np.empty(N_DF)
    best_t = -1
    best_v = -1e300
    max_gain = 0.0
    for t in range(N_KINDS_ALL):
        if hand[t] == 0:
            for j in range(N_V):
                out[t, j] = np.nan
            continue
        gain = -1.0
        b_route = R_STD
        b_sh = NONE
        b_uk = 0
        b_pw = 0.0
        hand[t] -= 1
        for k in range(N_ROUTES):
            s = sh[k, t]
            if s >= NONE:
                continue
            uk = 0
            if s <= lo[k] + 1:
                uk = route_ukeire(k, hand, nm, tabs, unseen, pairs_on, suit, s, rs)
                if s == 0 and honor_wait > 0.0:
                    uk += honor_wait * _honor_outs(hand, nm, tabs, unseen)
            pw = win_probability(s, uk, draws, me_open and k != R_PAIRS, WIN_W)
            if s > lo[k]:
                pw *= rise ** (s - lo[k])
            if pw * value[k] > gain:
                gain = pw * value[k]
                b_route, b_sh, b_uk, b_pw = k, s, uk, pw
        hand[t] += 1
        sp = 1.0
        cost = 0.0
        for k in range(1, 4):
            r = (seat + k) % 4
            if pt[r] <= 0.0:
                continue
            q = wait_probability(t, unseen, pmask[r], safe[r], nc[r], n_unseen, feat, DANGER_W)
            p = min(scale * pt[r] * q, 1.0)
            cost += sp * p * loss[r]
            sp *= 1.0 - p
        v = sp * gain * W - C * cost
        if gain > max_gain:
            max_gain = gain
        out[t, V_SHANTEN] = b_sh
        out[t, V_UKEIRE] = b_uk
        out[t, V_P_WIN] = b_pw
        out[t, V_VALUE] = value[b_route]
        out[t, V_P_DEAL_IN] = 1.0 - sp
        out[t, V_COST] = cost
        out[t, V_EV] = v
        out[t, V_ROUTE] = b_route
    # the choice: the best EV among the kinds within the slack of their route and, when pushing,
    # keeping push_keep of the best gain (else the best EV of all)
    push = lo[R_STD] < kn[K_PUSH_BELOW]
    keep = kn[K_PUSH_KEEP] * max_gain * W
    for t in range(N_KINDS_ALL):
        if hand[t] == 0:
            continue
        k = np.int64(out[t, V_ROUTE])
        if out[t, V_SHANTEN] > lo[k] + kn[K_SHANTEN_SLACK]:
            continue
        if push and out[t, V_P_WIN] * out[t, V_VALUE] * W < keep - 1e-12:
            continue
        if out[t, V_EV] > best_v:
            best_v = out[t, V_EV]
            best_t = t
    if best_t < 0:
        for t in range(N_KINDS_ALL):
            if hand[t] > 0 and out[t, V_EV] > best_v:
                best_v = out[t, V_EV]
                best_t = t
    return best_t


@njit(cache=True)
def hand_value(kn, hand, nm, tabs, unseen, draws, is_open, pairs_on, suit, rules, rs):
    """The best route's ``P(win) x V`` of a 3k+1 ``hand`` (no danger)."""
    value = np.empty(N_ROUTES)
    route_values(kn, rules, is_open, value)
    gate = 1 if pairs_on else nm
    s = bj_shanten_k(hand, gate, tabs)
    best = win_probability(s, bj_ukeire_k(hand, gate, tabs, unseen, s), draws, is_open, WIN_W) * value[R_STD]
    if pairs_on:
        p, sg = pairs_count(hand)
        s = pairs_shanten(p, sg)
        v = win_probability(s, pairs_ukeire(hand, unseen), draws, False, WIN_W) * value[R_PAIRS]
        best = max(best, v)
    if suit >= 0:
        s = suit_shanten(hand, suit, 4 - nm, tabs, rs)
        uk = suit_ukeire(hand, suit, 4 - nm, tabs, unseen, s, rs)
        best = max(best, win_probability(s, uk, draws, is_open, WIN_W) * value[R_SUIT])
    return best


@njit(cache=True)
def _best_after(kn, hand, nm, tabs, unseen, draws, suit, rules, rs):
    """The best ``hand_value`` over the discards of an open 3k+2 ``hand``."""
    best = 0.0
    for x in range(N_KINDS_ALL):
        if hand[x] == 0:
            continue
        hand[x] -= 1
        v = hand_value(kn, hand, nm, tabs, unseen, draws, True, False, suit, rules, rs)
        hand[x] += 1
        if v > best:
            best = v
    return best


@njit(cache=True)
def route_claim(kn, obs, rules, tabs, d, options, pairs_on, suit):
    """With a value route open: the claim (or pass) whose best hand after it has the most
    ``P(win) x V``."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    unseen = obs.sc[0]
    unseen_34(obs, unseen)
    rs = np.zeros(N_KINDS_ALL, dtype=np.uint8)
    draws = draws_left_of(obs, rules)
    best = PASS
    best_v = hand_value(
        kn, hand, nm, tabs, unseen, draws, open_hand(obs, obs.info[I_SEAT]), pairs_on, suit, rules, rs
    )
    suit2 = suit if d < ZHONG and d // 9 == suit else -1
    if options & (1 << CLAIM_KONG):
        hand[d] -= 3
        v = hand_value(kn, hand, nm + 1, tabs, unseen, draws, True, False, suit2, rules, rs)
        hand[d] += 3
        if v > best_v:
            best_v = v
            best = CLAIM_KONG
    if options & (1 << CLAIM_PENG):
        hand[d] -= 2
        v = _best_after(kn, hand, nm + 1, tabs, unseen, draws, suit2, rules, rs)
        hand[d] += 2
        if v > best_v:
            best_v = v
            best = CLAIM_PENG
    for a in range(CHI_LOW, CHI_HIGH + 1):
        if not options & (1 << a):
            continue
        low = d - (a - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                hand[x] -= 1
        v = _best_after(kn, hand, nm + 1, tabs, unseen, draws, suit2, rules, rs)
        for x in range(low, low + 3):
            if x != d:
                hand[x] += 1
        if v > best_v:
            best_v = v
            best = a
    return best


@njit(cache=True)
def _shanten_after_claim(obs, tabs, d, a):
    """The lowest table shanten a discard leaves after claiming ``d`` with action ``a``."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    after = obs.sc[1]
    if a == CLAIM_KONG:  # a replacement tile follows: the hand's own shanten
        hand[d] -= 3
        v = bj_shanten_k(hand, nm + 1, tabs)
        hand[d] += 3
        return v
    if a == CLAIM_PENG:
        hand[d] -= 2
        bj_shanten_changes_k(hand, nm + 1, tabs, -1, after)
        hand[d] += 2
    else:
        low = d - (a - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                hand[x] -= 1
        bj_shanten_changes_k(hand, nm + 1, tabs, -1, after)
        for x in range(low, low + 3):
            if x != d:
                hand[x] += 1
    best = 99
    for t in range(N_KINDS_ALL):
        if after[t] < best:
            best = after[t]
    return best


@njit(cache=True)
def claim(kn, obs, rules, tabs, d, options):
    """A claim by ``P(win) x V`` with a value route open; else greedy's, a concealed hand opening
    only within ``open_max_shanten`` of ready."""
    if kn[K_AVOID_BINDING] > 0.0:
        src = last_discarder(obs)
        n = 0
        for j in range(obs.info[I_N_MELDS]):
            if obs.meld_from[obs.info[I_SEAT], j] == src:
                n += 1
        if n >= 2:  # RULES: 互包 — a third claim from one seat binds the two
            return PASS
    pairs_on, suit = hand_routes(kn, obs)
    if pairs_on or suit >= 0:
        return route_claim(kn, obs, rules, tabs, d, options, pairs_on, suit)
    a = greedy_claim(obs, tabs, d, options)
    if a == PASS or kn[K_OPEN_MAX_SHANTEN] >= 8.0 or open_hand(obs, obs.info[I_SEAT]):
        return a
    if _shanten_after_claim(obs, tabs, d, a) > kn[K_OPEN_MAX_SHANTEN]:
        return PASS
    return a


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """Greedy's kong, but none that breaks an open seven-pairs route."""
    t = greedy_kong(obs, tabs, kong_opts)
    if t >= 0 and kong_opts[t] == OPT_CONCEALED_KONG:
        pairs_on, _ = hand_routes(kn, obs)
        if pairs_on:
            return -1
    return t
