"""The two-player expert (docs/RULES_TWO_PLAYER.md): greedy's discards, claims and kongs
(:mod:`daqing_sim.families.two_player.greedy`) with four decisions of its own, each a knob
(:data:`KNOBS`), so each can be measured against greedy on the same walls (docs/EXPERT.md):

* **报听**: declare only while concealed (an open declaration scores nothing and locks the hand)
  and when at least ``declare_min_outs`` copies of the winning tiles are unseen.
* **Passing a win** (declared hands only, the rule's choice): pass a win on the opponent's
  discard worth fewer than ``pass_below`` fans while at least ``pass_min_left`` tiles are left
  to draw, waiting for a self-draw (门清自摸 adds a fan).
* **Staying concealed**: a concealed hand claims a peng or chi only when the hand left is at
  most ``claim_shanten`` from ready (门清 and 门清自摸 are a fan each, and only a concealed hand
  may declare 报听); by default (-1) it never does: measured the best setting against greedy
  (docs/EXPERT.md#two-player). With ``claim_shanten = 13`` the expert plays greedy's moves.
* **Folding**: when the opponent has declared and the hand is ``fold_shanten`` or more from
  ready, throw a tile the declared opponent has already let pass (public: ``obs.safe``), the
  greedy-best of them; else greedy's discard.

Everything it reads is public or its own (the hand, melds, ponds, visible tiles, who declared).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CHI_LOW, CLAIM_KONG, CLAIM_PENG, CLAIM_WIN, PASS
from daqing_sim.families.two_player.greedy import concealed_hand, may_lower_shanten, waits_after
from daqing_sim.families.two_player.hand import CTX_DECLARED, tp_fans_k
from daqing_sim.hand.kinds34 import bj_shanten_changes_k, bj_shanten_k
from daqing_sim.players.greedy34 import greedy_claim, greedy_discard, greedy_kong, unseen_kinds
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS, I_SEAT, I_WALL_LEFT

KNOBS = {
    "declare_min_outs": Knob(
        1.0, 0, 40, integer=True, doc="declare 报听 with at least this many outs unseen"
    ),
    "pass_below": Knob(
        0.0, 0, 64, integer=True, doc="a declared hand passes a deal-in win of fewer fans (0: never)"
    ),
    "pass_min_left": Knob(
        10.0, 0, 44, integer=True, doc="... while at least this many tiles are left to draw"
    ),
    "claim_shanten": Knob(
        -1.0, -1, 13, integer=True, doc="a concealed hand claims only to be this near ready (-1: never)"
    ),
    "fold_shanten": Knob(
        13.0, 1, 13, integer=True, doc="fold against a declared opponent this far from ready"
    ),
}
K_DECLARE_MIN_OUTS, K_PASS_BELOW, K_PASS_MIN_LEFT, K_CLAIM_SHANTEN, K_FOLD_SHANTEN = range(5)
assert list(KNOBS) == ["declare_min_outs", "pass_below", "pass_min_left", "claim_shanten", "fold_shanten"]
NONE = 99


@njit(cache=True)
def _outs_after(obs, tabs, d, unseen):
    """Unseen copies of the kinds that win once ``d`` is thrown (0: not waiting)."""
    hand = obs.hand
    if waits_after(obs, tabs, d) == 0:
        return 0
    outs = 0
    for t in range(hand.shape[0]):
        if obs.tk[t] >= 0:
            outs += unseen[t]
    return max(outs, 1)


@njit(cache=True)
def _fold_discard(obs, tabs, opp):
    """The greedy-best kind among those the declared ``opp`` let pass, or -1 when none is held."""
    hand = obs.hand
    after = obs.sc[1]
    bj_shanten_changes_k(hand, obs.info[I_N_MELDS], tabs, -1, after)
    best = -1
    best_v = NONE
    for t in range(hand.shape[0]):
        if hand[t] > 0 and obs.safe[opp, t] and after[t] < best_v:
            best_v = after[t]
            best = t
    return best


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy's discard, or a fold against a declared opponent; 报听 by the knobs."""
    seat = obs.info[I_SEAT]
    opp = (seat + 1) % 2
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    if obs.ready[opp] and bj_shanten_k(hand, nm, tabs) >= kn[K_FOLD_SHANTEN]:
        d = _fold_discard(obs, tabs, opp)
        if d >= 0:
            return d, False
    d = greedy_discard(obs, tabs)
    if not concealed_hand(obs):
        return d, False
    unseen = obs.sc[0]
    unseen_kinds(obs, unseen)
    outs = _outs_after(obs, tabs, d, unseen)
    return d, outs > 0 and outs >= kn[K_DECLARE_MIN_OUTS]


@njit(cache=True)
def _win_fans(obs, rules, t):
    """F of a declared hand's win on the discard ``t`` (the flower tiles left out)."""
    hand = obs.hand
    fans = np.zeros(46, dtype=np.int64)
    hand[t] += 1
    # an int64 ctx, as the engine passes: one compile of tp_fans_k, not one for the literal too
    f = tp_fans_k(hand, obs.mk, obs.mt, obs.info[I_N_MELDS], t, np.int64(CTX_DECLARED), rules, fans)
    hand[t] -= 1
    return f


@njit(cache=True)
def claim(kn, obs, rules, tabs, d, options):
    """Take or pass an offered win by the knobs; claim as greedy, but stay concealed unless the
    claim brings the hand within ``claim_shanten`` of ready."""
    if options & (1 << CLAIM_WIN):
        if obs.info[I_WALL_LEFT] >= kn[K_PASS_MIN_LEFT] and _win_fans(obs, rules, d) < kn[K_PASS_BELOW]:
            return PASS
        return CLAIM_WIN
    if not options & (1 << CLAIM_KONG) and not may_lower_shanten(obs, tabs, d):
        return PASS
    a = greedy_claim(obs, tabs, d, options)
    if a == PASS or a == CLAIM_KONG or not concealed_hand(obs):
        return a
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    if a == CLAIM_PENG:
        hand[d] -= 2
    else:
        low = d - (a - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                hand[x] -= 1
    after = obs.sc[1]
    bj_shanten_changes_k(hand, nm + 1, tabs, -1, after)
    v = NONE
    for t in range(hand.shape[0]):
        if hand[t] > 0 and after[t] < v:
            v = after[t]
    if a == CLAIM_PENG:
        hand[d] += 2
    else:
        low = d - (a - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                hand[x] += 1
    return a if v <= kn[K_CLAIM_SHANTEN] else PASS


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """Greedy's kong."""
    return greedy_kong(obs, tabs, kong_opts)
