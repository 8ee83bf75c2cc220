"""``expert`` under Beijing: greedy hand building, but each discard facing a seat that is likely
ready is chosen by its expected value, with calibrated estimates of who is ready and of every
tile's danger (docs/EXPERT.md, Beijing).

For each kind ``t`` in hand the expert scores, in units of ``base_points``,

    EV(t) = P(no deal-in | t) x win_value x P(win | hand left) x V_me
            - deal_in_cost x sum_r P(deal in to r | t) x L_r

* ``P(deal in to r | t) = P(r ready) x P(t in r's waits | ready)``, read from public play
  (:mod:`daqing_sim.families.beijing.danger`; a tile that passed ``r``'s unchanged hand has none);
  the seats are taken in turn order after this one (the first that waits on ``t`` wins, 截和),
  each probability times ``danger_scale``.
* ``P(win | hand left)`` is :mod:`daqing_sim.families.beijing.value`'s logistic in the Beijing
  shanten after the discard, its ukeire and the draws left; a discard that leaves the hand further
  from ready than the best one has it scaled by ``rise_factor`` per step (the fitted P(win)
  compares hands, not the choices between them: alone it would give up shanten for ukeire).
* ``V_me`` and ``L_r`` are the mean value of a win, concealed or open (:data:`FANS_CONCEALED`,
  :data:`FANS_OPEN`, half for an open hand); ``L_r`` is 0 when ``r`` is bound by 互包 to a third
  seat, who then pays all of its win.

When no other seat is ready with probability ``min_tenpai`` or more it plays as ``greedy`` (only
the reading of the table is computed, which keeps the player fast). Claims and kongs are
greedy's. Knobs: :data:`KNOBS`; what was tried and measured (staying concealed, chasing seven
pairs or one suit, and more) is in docs/EXPERT.md.

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(20, rules=ds.RuleSet(family="beijing"), strategies=("expert", "greedy") * 2, seed=3)
>>> int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import N_KINDS_ALL, ZHONG
from daqing_sim.families.beijing.danger import (
    DANGER_W,
    N_DF,
    N_TF,
    TENPAI_W,
    bound_to_other,
    open_hand,
    read_table,
    tenpai_bound,
    tenpai_probability,
    unseen_34,
    wait_probability,
)
from daqing_sim.families.beijing.value import WIN_W, win_probability
from daqing_sim.hand.kinds34 import bj_shanten_changes_k, bj_ukeire_k
from daqing_sim.players.greedy34 import greedy_claim, greedy_discard, greedy_kong
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS, I_SEAT, I_WALL_LEFT
from daqing_sim.rules import R_DEAD_WALL_TILES

KNOBS = {
    "win_value": Knob(2.0, 0, 100, doc="a win's worth in units of its value (a self-draw's triple pay in)"),
    "deal_in_cost": Knob(0.5, 0, 100, doc="a deal-in's cost in units of the winner's value"),
    "min_tenpai": Knob(0.3, 0, 1, doc="read the danger when another seat is this likely ready (1: never)"),
    "danger_scale": Knob(1.0, 0, 10, doc="multiplier on every P(deal in) (0: no danger, greedy's play)"),
    "rise_factor": Knob(0.5, 0, 1, doc="P(win) of a discard leaving the hand further from ready, per step"),
}
K_WIN_VALUE, K_DEAL_IN_COST, K_MIN_TENPAI, K_DANGER_SCALE, K_RISE_FACTOR = range(5)
assert list(KNOBS) == ["win_value", "deal_in_cost", "min_tenpai", "danger_scale", "rise_factor"]

# the mean F of a win, concealed and open (4 greedy, 20,000 Beijing deals, seed 2)
FANS_CONCEALED, FANS_OPEN = 1.46, 1.04
NONE = 99

# columns of the per-kind table of :func:`discard_table`
V_SHANTEN, V_UKEIRE, V_P_WIN, V_P_DEAL_IN, V_COST, V_EV = range(6)
N_V = 6


@njit(cache=True)
def draws_left_of(obs, rules):
    """Own draws left, roughly: the drawable tiles over four."""
    return max(obs.info[I_WALL_LEFT] - rules[R_DEAD_WALL_TILES], 0) / 4.0


@njit(cache=True)
def read_risk(kn, obs, safe, pmask, pt):
    """Fill the table reading (:func:`~daqing_sim.families.beijing.danger.read_table`) and every
    other seat's P(ready) ``pt``; returns whether one reaches ``min_tenpai``."""
    seat = obs.info[I_SEAT]
    tf = np.empty((4, N_TF))
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
def risk_possible(kn, obs):
    """Can another seat's P(ready) reach ``min_tenpai``? (A bound from melds and discard counts.)"""
    seat = obs.info[I_SEAT]
    for r in range(4):
        if r != seat and tenpai_bound(obs, r, TENPAI_W) >= kn[K_MIN_TENPAI]:
            return True
    return False


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy unless another seat is likely ready, then by expected value."""
    if kn[K_DANGER_SCALE] == 0.0 or not risk_possible(kn, obs):
        return greedy_discard(obs, tabs), False
    safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pt = np.empty(4)
    if not read_risk(kn, obs, safe, pmask, pt):
        return greedy_discard(obs, tabs), False
    out = np.empty((N_KINDS_ALL, N_V))
    return ev_discard(kn, obs, rules, tabs, safe, pmask, pt, out), False


@njit(cache=True)
def discard_table(kn, obs, rules, tabs, out):
    """The expert's reasons, for explaining a decision: ``out`` (34, N_V) per kind held the
    shanten left, its ukeire (-1: not computed, the kind is too far behind), P(win), P(deal in),
    the expected deal-in cost and EV (NaN rows for kinds not held); returns the EV discard
    (whatever ``min_tenpai`` says)."""
    safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pt = np.empty(4)
    read_risk(kn, obs, safe, pmask, pt)
    return ev_discard(kn, obs, rules, tabs, safe, pmask, pt, out)


@njit(cache=True)
def ev_discard(kn, obs, rules, tabs, safe, pmask, pt, out):
    """The discard of the highest EV (module docstring); ``out`` (34, N_V) gets each kind's terms.

    The danger terms of every kind come first (cheap); the ukeire (the costly part) is computed
    only for kinds whose EV could still beat the best found, bounded with all unseen tiles as
    ukeire (best first: kinds keeping the lowest shanten, least danger)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    unseen = obs.sc[0]
    n_unseen = np.float64(unseen_34(obs, unseen))
    after = obs.sc[1]
    bj_shanten_changes_k(hand, nm, tabs, -1, after)
    lo = NONE
    for t in range(N_KINDS_ALL):
        if after[t] < lo:
            lo = after[t]
    me_open = open_hand(obs, seat)
    v_me = 0.5 * FANS_OPEN if me_open else FANS_CONCEALED
    loss = np.zeros(4)
    nc = np.zeros(4)
    for r in range(4):
        if r != seat and pt[r] > 0.0:
            if not bound_to_other(obs, r, seat):
                loss[r] = 0.5 * FANS_OPEN if open_hand(obs, r) else FANS_CONCEALED
            nc[r] = 13.0 - 3.0 * obs.table_nm[r]
    draws = draws_left_of(obs, rules)
    W = kn[K_WIN_VALUE] * v_me
    C = kn[K_DEAL_IN_COST]
    scale = kn[K_DANGER_SCALE]
    rise = kn[K_RISE_FACTOR]
    feat = np.empty(N_DF)
    ub = np.full(N_KINDS_ALL, -1e300)
    for t in range(N_KINDS_ALL):
        if hand[t] == 0:
            for j in range(N_V):
                out[t, j] = np.nan
            continue
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
        sh = after[t]
        pw = win_probability(sh, n_unseen, draws, me_open, WIN_W)  # more than any ukeire
        if sh > lo:
            pw *= rise ** (sh - lo)
        out[t, V_SHANTEN] = sh
        out[t, V_UKEIRE] = -1.0
        out[t, V_P_WIN] = pw
        out[t, V_P_DEAL_IN] = 1.0 - sp
        out[t, V_COST] = cost
        out[t, V_EV] = -1e300
        ub[t] = sp * pw * W - C * cost
    best_t = -1
    best_v = -1e300
    honor_uk = np.full(25, -1, dtype=np.int64)
    while True:  # branch and bound on the ukeire
        t = -1
        for x in range(N_KINDS_ALL):
            if ub[x] > -1e300 and (t < 0 or ub[x] > ub[t]):
                t = x
        if t < 0 or ub[t] <= best_v:
            break
        ub[t] = -1e300
        sh = after[t]
        key = 5 * hand[t] + unseen[t] if t >= ZHONG and unseen[t] <= 4 else -1
        if key >= 0 and honor_uk[key] >= 0:  # honors are interchangeable (as in greedy's ties)
            uk = honor_uk[key]
        else:
            hand[t] -= 1
            uk = bj_ukeire_k(hand, nm, tabs, unseen, np.int64(sh))
            hand[t] += 1
            if key >= 0:
                honor_uk[key] = uk
        pw = win_probability(sh, np.float64(uk), draws, me_open, WIN_W)
        if sh > lo:
            pw *= rise ** (sh - lo)
        sp = 1.0 - out[t, V_P_DEAL_IN]
        v = sp * pw * W - C * out[t, V_COST]
        out[t, V_UKEIRE] = uk
        out[t, V_P_WIN] = pw
        out[t, V_EV] = v
        if v > best_v or (v == best_v and t < best_t):
            best_v = v
            best_t = t
    return best_t


@njit(cache=True, inline="always")
def claim(kn, obs, rules, tabs, d, options):
    """As greedy."""
    return greedy_claim(obs, tabs, d, options)


@njit(cache=True, inline="always")
def kong(kn, obs, rules, tabs, kong_opts):
    """As greedy."""
    return greedy_kong(obs, tabs, kong_opts)
