"""The engine's inline calls into the table-free players (random, scripted), on their code.

Every other player (greedy, jia_hunter, defensive, expert, and users' jitted players) is called
through the engine's table of first-class functions (:mod:`daqing_sim.players.seats`), so the
engine holds none of their code: a player compiles on its own, only when a run seats it. The
table-free players stay inline: their decisions are cheaper than filling an observation, so they
answer from their own arrays (``simple_*``), the engine's fast path; the observation forms below
are asked only when a table-free seat must declare or keep a ready hand.
"""

from __future__ import annotations

from numba import njit

from daqing_sim.players import random, scripted
from daqing_sim.players.registry import RANDOM


@njit(cache=True, inline="always")
def discard(code, kn, obs, rules, tabs):
    """``(tile, declare)`` of a table-free player for the ``3k+2`` hand of ``obs``."""
    if code == RANDOM:
        return random.discard(kn, obs, rules, tabs)
    return scripted.discard(kn, obs, rules, tabs)


@njit(cache=True, inline="always")
def claim(code, kn, obs, rules, tabs, t, options):
    """The claim action on another seat's discard ``t`` (``options``: bit mask of legal actions)."""
    if code == RANDOM:
        return random.claim(kn, obs, rules, tabs, t, options)
    return scripted.claim(kn, obs, rules, tabs, t, options)


@njit(cache=True, inline="always")
def kong(code, kn, obs, rules, tabs, kong_opts):
    """The kind of a kong to declare on one's own turn (``kong_opts[t]`` legal ones), or -1."""
    if code == RANDOM:
        return random.kong(kn, obs, rules, tabs, kong_opts)
    return scripted.kong(kn, obs, rules, tabs, kong_opts)


def table_free_flags():
    """``uint8`` flag per player code: 1 when the player has the ``simple_*`` fast path."""
    import numpy as np

    from daqing_sim.codes import N_USER_SLOTS, USER_BASE
    from daqing_sim.players.registry import PLAYER_MODULES

    flags = np.zeros(USER_BASE + N_USER_SLOTS, dtype=np.uint8)  # user codes: no fast path
    for code, m in enumerate(PLAYER_MODULES.values()):
        flags[code] = getattr(m, "TABLE_FREE", False)
    return flags


@njit(cache=True, inline="always")
def simple_discard(code, kn, hand, drawn, memo, rng, seat):
    """Discard of a table-free player from its concealed ``hand`` (the engine checks the declaration)."""
    if code == RANDOM:
        return random.random_discard(hand, rng, seat)
    return scripted.script_discard(kn, hand, drawn, memo)


@njit(cache=True, inline="always")
def simple_claim(code, kn, options, rng, seat):
    """Claim answer of a table-free player."""
    if code == RANDOM:
        return random.random_claim(options, rng, seat)
    return scripted.script_claim(kn, options)


@njit(cache=True, inline="always")
def simple_kong(code, kn, kong_opts, rng, seat):
    """Kong answer of a table-free player."""
    if code == RANDOM:
        return random.random_kong(kong_opts, rng, seat)
    return scripted.script_kong(kn, kong_opts)
