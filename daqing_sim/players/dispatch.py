"""The engine's one call into the players: each decision dispatched on the seat's player code.

Integer codes, not function arguments: a jitted caller that takes a function argument misses
numba's on-disk cache on every run. Each player module answers the same three questions with
the same signature over an :class:`~daqing_sim.players.observation.Observation`.

Players whose module sets ``TABLE_FREE`` (random, scripted) also answer from their own arrays
(``simple_*``): the engine takes that path for them, since filling an observation and passing
the hand tables costs more than such a player's whole decision.
"""

from __future__ import annotations

from numba import njit

from daqing_sim.players import defensive, expert, greedy, jia_hunter, random, scripted
from daqing_sim.players.registry import DEFENSIVE, EXPERT, GREEDY, JIA_HUNTER, RANDOM


@njit(cache=True, inline="always")
def discard(code, kn, obs, rules, tabs):
    """``(tile, declare)`` for the ``3k+2`` hand of ``obs``."""
    if code == GREEDY:
        return greedy.discard(kn, obs, rules, tabs)
    if code == RANDOM:
        return random.discard(kn, obs, rules, tabs)
    if code == JIA_HUNTER:
        return jia_hunter.discard(kn, obs, rules, tabs)
    if code == DEFENSIVE:
        return defensive.discard(kn, obs, rules, tabs)
    if code == EXPERT:
        return expert.discard(kn, obs, rules, tabs)
    return scripted.discard(kn, obs, rules, tabs)


@njit(cache=True, inline="always")
def claim(code, kn, obs, rules, tabs, t, options):
    """The claim action on another seat's discard ``t`` (``options``: bit mask of legal actions)."""
    if code == GREEDY:
        return greedy.claim(kn, obs, rules, tabs, t, options)
    if code == RANDOM:
        return random.claim(kn, obs, rules, tabs, t, options)
    if code == JIA_HUNTER:
        return jia_hunter.claim(kn, obs, rules, tabs, t, options)
    if code == DEFENSIVE:
        return defensive.claim(kn, obs, rules, tabs, t, options)
    if code == EXPERT:
        return expert.claim(kn, obs, rules, tabs, t, options)
    return scripted.claim(kn, obs, rules, tabs, t, options)


@njit(cache=True, inline="always")
def kong(code, kn, obs, rules, tabs, kong_opts):
    """The kind of a kong to declare on one's own turn (``kong_opts[t]`` legal ones), or -1."""
    if code == GREEDY:
        return greedy.kong(kn, obs, rules, tabs, kong_opts)
    if code == RANDOM:
        return random.kong(kn, obs, rules, tabs, kong_opts)
    if code == JIA_HUNTER:
        return jia_hunter.kong(kn, obs, rules, tabs, kong_opts)
    if code == DEFENSIVE:
        return defensive.kong(kn, obs, rules, tabs, kong_opts)
    if code == EXPERT:
        return expert.kong(kn, obs, rules, tabs, kong_opts)
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
