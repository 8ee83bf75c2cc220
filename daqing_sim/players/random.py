"""``random``: uniformly random legal discards, claims and kongs; declares ready whenever it can."""

from __future__ import annotations

from numba import njit

from daqing_sim.codes import PASS
from daqing_sim.players.common import (
    declares_after,
    rand_below,
    ready_discard_candidates,
    unseen_counts,
    wait_outs,
)
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_KEEP_READY, I_MUST_DECLARE, I_N_MELDS, I_SEAT

KNOBS: dict[str, Knob] = {}


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: a random kind in hand; declares when that leaves a ready hand."""
    if obs.info[I_KEEP_READY] or obs.info[I_MUST_DECLARE]:
        return _random_ready_discard(obs, rules, tabs), obs.info[I_MUST_DECLARE] != 0
    d = random_discard(obs.hand, obs.rng, obs.info[I_SEAT])
    return d, declares_after(obs, rules, tabs, d)


@njit(cache=True, inline="always")
def random_discard(hand, rng, seat):
    """A uniformly random kind among those in ``hand``."""
    kinds = 0
    for t in range(28):
        if hand[t] > 0:
            kinds += 1
    k = rand_below(rng, seat, kinds)
    for t in range(28):
        if hand[t] > 0:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True)
def _random_ready_discard(obs, rules, tabs):
    """A uniformly random discard among those that leave a ready hand (reservoir sampling)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    seat = obs.info[I_SEAT]
    unseen = obs.sc[0]
    cand = obs.sc[1]
    unseen_counts(hand, obs.mk, obs.mt, nm, obs.visible, unseen)
    ready_discard_candidates(hand, cand)
    best_t = -1
    n_ready = 0
    for t in range(28):
        if not cand[t] or hand[t] == 0:
            continue
        hand[t] -= 1
        n, _, _ = wait_outs(hand, obs.mk, obs.mt, nm, rules, tabs, unseen, obs.tk, obs.tb)
        hand[t] += 1
        if n == 0:
            continue
        n_ready += 1
        if rand_below(obs.rng, seat, n_ready) == 0:
            best_t = t
    return best_t


@njit(cache=True)
def claim(kn, obs, rules, tabs, t, options):
    """Pass or one of the legal claims in ``options``, uniformly."""
    return random_claim(options, obs.rng, obs.info[I_SEAT])


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """No kong or one of the legal kongs, uniformly."""
    return random_kong(kong_opts, obs.rng, obs.info[I_SEAT])


# Table-free forms on the seat's own arrays, for the engine's fast path (TABLE_FREE).
TABLE_FREE = True


@njit(cache=True, inline="always")
def random_claim(options, rng, seat):
    """Pass or one of the legal claims in ``options``, uniformly."""
    if options == 0:
        return PASS
    n = 1
    for a in range(1, 6):
        if options & (1 << a):
            n += 1
    k = rand_below(rng, seat, n)
    if k == 0:
        return PASS
    for a in range(1, 6):
        if options & (1 << a):
            k -= 1
            if k == 0:
                return a
    return PASS


@njit(cache=True, inline="always")
def random_kong(kong_opts, rng, seat):
    """No kong or one of the legal kongs, uniformly."""
    n = 0
    for t in range(28):
        if kong_opts[t]:
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, seat, n + 1)
    for t in range(28):
        if kong_opts[t]:
            k -= 1
            if k < 0:
                return t
    return -1
