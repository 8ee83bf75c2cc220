"""``jia_hunter``: greedy, but declares on a 夹 (kanchan / big) wait unless that wait's live outs
fall below ``min_outs_fraction`` of the best wait's."""

from __future__ import annotations

from numba import njit

from daqing_sim.families.daqing import greedy
from daqing_sim.players.knobs import Knob

K_MIN_OUTS_FRACTION = 0
KNOBS = {
    "min_outs_fraction": Knob(0.5, 0, 1, doc="least outs of the 夹 wait, as a fraction of the best wait's"),
}


@njit(cache=True, inline="always")
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: greedy, with the 夹 wait preferred when declaring."""
    return greedy.discard_with(obs, rules, tabs, greedy.JIA, kn[K_MIN_OUTS_FRACTION], greedy.NEVER_FOLD)


@njit(cache=True, inline="always")
def claim(kn, obs, rules, tabs, t, options):
    """As greedy."""
    return greedy.claim_with(obs, rules, tabs, t, options, greedy.NEVER_FOLD)


@njit(cache=True, inline="always")
def kong(kn, obs, rules, tabs, kong_opts):
    """As greedy."""
    return greedy.kong(kn, obs, rules, tabs, kong_opts)
