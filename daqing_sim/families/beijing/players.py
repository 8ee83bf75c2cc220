"""The players of the Beijing family (docs/RULES_BEIJING.md): ``random``, ``greedy`` and ``expert``
on 34 kinds.

Under Beijing nobody declares ready and a complete hand always wins (the engine takes the win),
so a player decides its discards, claims and kongs only.

* ``random``: a uniformly random kind in hand, claim or kong (pass included).
* ``greedy``: discards to minimise the Beijing shanten (four melds and a pair, or seven pairs:
  ``hand.kinds34.bj_shanten_k``), breaking ties by ukeire (unseen copies of the kinds that
  lower it), then by the lowest kind; claims a peng, chi or kong when the best discard after
  it lowers the shanten (no ukeire there); declares a kong that does not raise it.

The engine calls greedy and expert through its function table (:mod:`daqing_sim.players.seats`),
random inline; nothing here is compiled for a Daqing run.
"""

from __future__ import annotations

from numba import njit

from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.players.greedy34 import (  # noqa: F401 (the players' building blocks)
    greedy_claim,
    greedy_discard,
    greedy_kong,
    random_discard,
    random_kong,
)
from daqing_sim.players.observation import I_SEAT
from daqing_sim.players.random import random_claim
from daqing_sim.players.registry import EXPERT

PLAYERS = ("expert", "greedy", "random", "expert1", "expert2")  # the players that play the Beijing family


# The table-thinking players (greedy, expert) are called through the engine's function table
# (players.seats): each compiles on its own, only when a run seats it. The engine's inline calls
# below answer for the table-free player (random) only.


@njit(cache=True)
def greedy_seat_discard(kn, obs, rules, tabs):
    """Greedy's discard in the seat signature ``(kn, obs, rules, tabs) -> (tile, declare)``."""
    return greedy_discard(obs, tabs), False


@njit(cache=True)
def greedy_seat_claim(kn, obs, rules, tabs, t, options):
    """Greedy's claim in the seat signature."""
    return greedy_claim(obs, tabs, t, options)


@njit(cache=True)
def greedy_seat_kong(kn, obs, rules, tabs, kong_opts):
    """Greedy's kong in the seat signature."""
    return greedy_kong(obs, tabs, kong_opts)


def seat_functions(code: int):
    """The Python functions (``py_func``) of the Beijing player ``code``'s discard, claim and kong."""
    if code == EXPERT:
        fns = (beijing_expert.discard, beijing_expert.claim, beijing_expert.kong)
    else:
        fns = (greedy_seat_discard, greedy_seat_claim, greedy_seat_kong)
    return tuple(f.py_func for f in fns)


@njit(cache=True)
def discard(code, kn, obs, rules, tabs):
    """``(tile, declare)`` of the table-free player (random); nobody declares under Beijing."""
    return random_discard(obs.hand, obs.rng, obs.info[I_SEAT]), False


@njit(cache=True)
def claim(code, kn, obs, rules, tabs, t, options):
    """The claim action of the table-free player (random) on another seat's discard ``t``."""
    return random_claim(options, obs.rng, obs.info[I_SEAT])


@njit(cache=True)
def kong(code, kn, obs, rules, tabs, kong_opts):
    """The kind of a kong the table-free player (random) declares, or -1."""
    return random_kong(kong_opts, obs.rng, obs.info[I_SEAT])


@njit(cache=True, inline="always")
def simple_discard(code, kn, hand, drawn, memo, rng, seat):
    """Discard of a table-free player (``random``)."""
    return random_discard(hand, rng, seat)


@njit(cache=True, inline="always")
def simple_kong(code, kn, kong_opts, rng, seat):
    """Kong answer of a table-free player (``random``)."""
    return random_kong(kong_opts, rng, seat)
