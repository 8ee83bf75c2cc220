"""The players of the two-player family (docs/RULES_TWO_PLAYER.md): ``random``, ``greedy`` and
``expert`` on 34 kinds, two seats.

A complete hand wins on a self-draw and on the opponent's discard (the engine takes it); only a
declared (报听) hand is asked, with :data:`~daqing_sim.codes.CLAIM_WIN` among its claim options.

* ``random``: Beijing's (a uniformly random kind, claim or kong; it never declares, so it is
  never asked about a win).
* ``greedy``: Beijing's greedy discards, claims and kongs (table shanten of four melds and a
  pair or seven pairs, ties by ukeire); declares 报听 whenever its concealed hand waits after
  the discard, and takes every win.
* ``expert`` (:mod:`daqing_sim.families.two_player.expert`): greedy with knobs for when to
  declare, which wins a declared hand passes, staying concealed and folding against a
  declared opponent.

The engine calls greedy and expert through its function table (:mod:`daqing_sim.players.seats`),
random inline (:mod:`daqing_sim.families.beijing.players`); nothing here is compiled for a Daqing or
Beijing run.
"""

from __future__ import annotations

from daqing_sim.families.two_player import expert as two_player_expert
from daqing_sim.families.two_player.greedy import greedy_seat_claim, greedy_seat_discard, greedy_seat_kong
from daqing_sim.players.registry import EXPERT

PLAYERS = ("expert", "greedy", "random", "expert1", "expert2")  # the players that play the two-player family


def seat_functions(code: int):
    """The Python functions (``py_func``) of the two-player player ``code``'s discard, claim and kong."""
    if code == EXPERT:
        fns = (two_player_expert.discard, two_player_expert.claim, two_player_expert.kong)
    else:
        fns = (greedy_seat_discard, greedy_seat_claim, greedy_seat_kong)
    return tuple(f.py_func for f in fns)
