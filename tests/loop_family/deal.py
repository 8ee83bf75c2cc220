"""The deal steps of the test-only "no claims" family: Daqing's steps, its own state type, and
a claim step that asks nobody (a discard is still won on: that is ``step_discard_win``)."""

from __future__ import annotations

from collections import namedtuple

from daqing_sim.families.daqing import deal as daqing
from daqing_sim.families.hooks import inherit_steps
from daqing_sim.game.state import DealState

NoClaimsDealState = namedtuple("NoClaimsDealState", DealState._fields)
STATE = NoClaimsDealState


def new_state(arrays: dict) -> NoClaimsDealState:
    return NoClaimsDealState(**arrays)


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    return -1, 0, True  # nobody is asked: the claims end at once


inherit_steps(globals(), daqing)  # every other step is Daqing's
