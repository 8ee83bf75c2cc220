"""A jitted player written the way a user would write one (outside the engine): the template of
docs/PLAYERS.md and the user player of the speed bench.

``FIRST_TILE`` is the smallest legal jitted player; ``CAUTIOUS`` builds on the greedy player's
building blocks (``families.daqing.greedy.discard_with``) and folds against a ready opponent at a
knob-set distance from ready.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.codes import PASS
from daqing_sim.families.daqing import greedy
from daqing_sim.players.user import JittedPlayer


def first_tile_discard(kn, obs, rules, tabs):
    """Throw the lowest tile kind held (never declares): the smallest legal player."""
    for t in range(28):
        if obs.hand[t] > 0:
            return np.int64(t), False
    return np.int64(0), False


def first_claim(kn, obs, rules, tabs, t, options):
    """Take the first claim offered (opening the door)."""
    for a in range(1, 6):
        if options >> a & 1:
            return np.int64(a)
    return np.int64(PASS)


FIRST_TILE = JittedPlayer(first_tile_discard, name="first_tile")


def cautious_discard(kn, obs, rules, tabs):
    """Greedy's discard from the package's building blocks, folding to the safest tile when an
    opponent is ready and the hand is ``kn[0]`` or more from ready (a user's variation)."""
    t, declare = greedy.discard_with(obs, rules, tabs, greedy.NO_JIA, 0.0, kn[0])
    return np.int64(t), declare


def cautious_claim(kn, obs, rules, tabs, t, options):
    return np.int64(greedy.claim_with(obs, rules, tabs, t, options, np.inf))


def cautious_kong(kn, obs, rules, tabs, kong_opts):
    return np.int64(greedy.kong(kn, obs, rules, tabs, kong_opts))


CAUTIOUS = JittedPlayer(
    cautious_discard, cautious_claim, cautious_kong, name="cautious", knobs={"fold_shanten": 2.0}
)
