"""Drawing tiles and hand shapes from a multiset of unseen tiles, for the search's worlds
(:mod:`daqing_sim.search.evaluator`, :mod:`daqing_sim.families.two_player.world`): one tile
uniform, one set by its tile combinations, and a ready seat's concealed tiles (sets, a pair,
less one tile), which each family then checks against its own rules."""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.players.common import rand_below, splitmix64


@njit(cache=True, inline="always")
def seat_streams(seed, out):
    """Each seat's in-game random stream of a world, from one word (the engine seeds a deal's
    seats from the deal's seed the same way)."""
    for s in range(4):
        out[s] = splitmix64(seed ^ (np.uint64(s + 1) * np.uint64(0xD1B54A32D192ED03)))


@njit(cache=True, inline="always")
def take_tile(u, total, rng):
    """One tile uniform from the multiset ``u`` of ``total`` tiles (removed)."""
    r = rand_below(rng, 0, total)
    for t in range(u.shape[0]):
        if r < u[t]:
            u[t] -= 1
            return t
        r -= u[t]
    return -1


@njit(cache=True)
def draw_set(v, rng, c):
    """Move one chi or peng from ``v`` to ``c``, drawn by its tile combinations; False if none."""
    total = 0
    for s in range(3):
        for r in range(7):
            lo = 9 * s + r
            total += v[lo] * v[lo + 1] * v[lo + 2]
    for t in range(v.shape[0]):
        total += v[t] * (v[t] - 1) * (v[t] - 2) // 6
    if total <= 0:
        return False
    x = rand_below(rng, 0, total)
    for s in range(3):
        for r in range(7):
            lo = 9 * s + r
            w = v[lo] * v[lo + 1] * v[lo + 2]
            if x < w:
                for k in range(3):
                    v[lo + k] -= 1
                    c[lo + k] += 1
                return True
            x -= w
    for t in range(v.shape[0]):
        w = v[t] * (v[t] - 1) * (v[t] - 2) // 6
        if x < w:
            v[t] -= 3
            c[t] += 3
            return True
        x -= w
    return False


@njit(cache=True)
def draw_ready_shape(u, n_tiles, rng, v, c, out):
    """Draw ``n_tiles`` concealed tiles from ``u`` into ``out``: ``(n_tiles - 1) // 3`` sets by
    their tile combinations, a pair, less one tile uniform of them (which returns to the rest);
    ``v`` holds what is left of ``u`` (``u`` untouched). False if no set or pair could be drawn."""
    nk = u.shape[0]
    for t in range(nk):
        v[t] = u[t]
        c[t] = 0
    for _ in range((n_tiles - 1) // 3):
        if not draw_set(v, rng, c):
            return False
    n_pairs = 0
    for t in range(nk):
        n_pairs += v[t] * (v[t] - 1) // 2
    if n_pairs == 0:
        return False
    x = rand_below(rng, 0, n_pairs)
    for t in range(nk):
        w = v[t] * (v[t] - 1) // 2
        if x < w:
            v[t] -= 2
            c[t] += 2
            break
        x -= w
    v[take_tile(c, n_tiles + 1, rng)] += 1
    for t in range(nk):
        out[t] = c[t]
    return True


@njit(cache=True, inline="always")
def waits_on(waits, passed):
    """Does the wait set ``waits`` (a kind is waited on where ``>= 0``) hold a tile in ``passed``?"""
    for t in range(waits.shape[0]):
        if waits[t] >= 0 and passed[t]:
            return True
    return False
