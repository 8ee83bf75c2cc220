"""``scripted``: plays given tiles, for constructed test deals and worked examples.

Discards the tiles of ``script`` (tile names or kinds) in order as they are in hand, otherwise
the tile just drawn (or, after a claim, its highest tile); claims (kong > peng > chi) when
``claim`` is 1 and declares kongs when ``kong`` is 1; declares ready whenever it can, on the
wait with the most live outs when a discard must declare or keep the hand ready.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CHI_HIGH, CHI_LOW, CHI_MID, CLAIM_KONG, CLAIM_PENG, PASS
from daqing_sim.players.common import (
    NO_JIA,
    declares_after,
    pick_ready_discard,
    ready_discard_candidates,
    unseen_counts,
)
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_DRAWN, I_KEEP_READY, I_MUST_DECLARE, I_N_MELDS, I_SEAT

MAX_SCRIPT = 24
# knob vector: claim, kong, then the script's tile kinds (-1 after its end)
K_CLAIM, K_KONG, K_SCRIPT = 0, 1, 2
KNOBS = {
    "claim": Knob(0.0, 0, 1, integer=True, doc="1: claim whenever legal (kong > peng > chi)"),
    "kong": Knob(0.0, 0, 1, integer=True, doc="1: declare every legal kong"),
}


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: the next script tile in hand, else the tile just drawn."""
    if obs.info[I_KEEP_READY] or obs.info[I_MUST_DECLARE]:
        hand = obs.hand
        nm = obs.info[I_N_MELDS]
        unseen = obs.sc[0]
        cand = obs.sc[1]
        unseen_counts(hand, obs.mk, obs.mt, nm, obs.visible, unseen)
        ready_discard_candidates(hand, cand)
        t = pick_ready_discard(
            hand, obs.mk, obs.mt, nm, rules, tabs, unseen, cand, obs.tk, obs.tb, NO_JIA, 0.0
        )
        return t, obs.info[I_MUST_DECLARE] != 0
    d = script_discard(kn, obs.hand, obs.info[I_DRAWN], obs.memo[obs.info[I_SEAT]])
    return d, declares_after(obs, rules, tabs, d)


@njit(cache=True, inline="always")
def script_discard(kn, hand, drawn, memo):
    p = memo[1]  # position in the script
    if p < MAX_SCRIPT and kn[K_SCRIPT + p] >= 0:
        t = np.int64(kn[K_SCRIPT + p])
        if hand[t] > 0:
            memo[1] = p + 1
            return t
    if drawn >= 0:
        return drawn
    for t in range(27, -1, -1):
        if hand[t] > 0:
            return t
    return -1


@njit(cache=True)
def claim(kn, obs, rules, tabs, t, options):
    """With ``claim`` on: kong > peng > chi (low, middle, high); else pass."""
    return script_claim(kn, options)


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """With ``kong`` on: the first legal kong; else none."""
    return script_kong(kn, kong_opts)


# Table-free forms on the seat's own arrays, for the engine's fast path (TABLE_FREE).
TABLE_FREE = True


@njit(cache=True, inline="always")
def script_claim(kn, options):
    """With ``claim`` on: kong > peng > chi (low, middle, high); else pass."""
    if options == 0 or kn[K_CLAIM] <= 0:
        return PASS
    for a in (CLAIM_KONG, CLAIM_PENG, CHI_LOW, CHI_MID, CHI_HIGH):
        if options & (1 << a):
            return a
    return PASS


@njit(cache=True, inline="always")
def script_kong(kn, kong_opts):
    """With ``kong`` on: the first legal kong; else none."""
    if kn[K_KONG] > 0:
        for t in range(28):
            if kong_opts[t]:
                return t
    return -1
