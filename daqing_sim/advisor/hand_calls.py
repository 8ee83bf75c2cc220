"""The advisor's only calls into the hand kernels (:mod:`daqing_sim.hand.kernels`).

Kept in one module so that a change of how the lookup tables are passed (the ``Tables``
namedtuple of :func:`daqing_sim.hand.tables.get_tables`) is one edit here.
"""

from __future__ import annotations

from numba import njit

from daqing_sim.hand.kernels import daqing_shanten_k, may_declare_k, std_shanten_k, wait_set_k
from daqing_sim.hand.tables import get_tables


def tables():
    """The lookup tables as the kernels take them."""
    return get_tables()


@njit(cache=True, inline="always")
def std_shanten(counts, tabs):
    """Standard shanten of 3k+1 / 3k+2 concealed tiles: a lower bound of the Daqing one."""
    return std_shanten_k(counts, tabs)


@njit(cache=True, inline="always")
def dq_shanten(counts, meld_kind, meld_tile, n_melds, rules, tabs):
    """Daqing shanten (0 ready shape, -1 a 14-tile win; exact for -1, 0, 1)."""
    return daqing_shanten_k(counts, meld_kind, meld_tile, n_melds, rules, tabs)


@njit(cache=True, inline="always")
def wait_set(counts, meld_kind, meld_tile, n_melds, rules, tabs, out_kind, out_big):
    """Wait set of a 13-tile hand into ``out_kind`` / ``out_big``; returns the number of waits."""
    return wait_set_k(counts, meld_kind, meld_tile, n_melds, rules, tabs, out_kind, out_big)


@njit(cache=True, inline="always")
def may_declare(counts, meld_kind, meld_tile, n_melds, rules):
    """Open door and enough concealed tiles to declare ready."""
    return may_declare_k(counts, meld_kind, meld_tile, n_melds, rules)
