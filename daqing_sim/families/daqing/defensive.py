"""``defensive``: greedy, but when an opponent is ready and its own shanten is at least
``fold_shanten`` it discards the safest tile (one the ready player let pass; else a kind whose
other copies are all visible) and claims nothing, to avoid dealing in while not ready (点黑炮)."""

from __future__ import annotations

from numba import njit

from daqing_sim.families.daqing import greedy
from daqing_sim.players.knobs import Knob

K_FOLD_SHANTEN = 0
KNOBS = {
    "fold_shanten": Knob(2.0, 0, 13, integer=True, doc="fold when this many or more from ready (0: always)"),
}


@njit(cache=True, inline="always")
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy, folding as described."""
    return greedy.discard_with(obs, rules, tabs, greedy.NO_JIA, 0.0, kn[K_FOLD_SHANTEN])


@njit(cache=True, inline="always")
def claim(kn, obs, rules, tabs, t, options):
    """Greedy, passing while folding."""
    return greedy.claim_with(obs, rules, tabs, t, options, kn[K_FOLD_SHANTEN])


@njit(cache=True, inline="always")
def kong(kn, obs, rules, tabs, kong_opts):
    """As greedy."""
    return greedy.kong(kn, obs, rules, tabs, kong_opts)
