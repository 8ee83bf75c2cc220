"""The deal steps of the test-only "no claims" family: Daqing's steps, its own state type, and
a claim step that asks nobody (a discard is still won on: that is ``step_discard_win``)."""

from __future__ import annotations

from collections import namedtuple

from daqing_sim.families.daqing import deal as daqing
from daqing_sim.game.state import DealState

NoClaimsDealState = namedtuple("NoClaimsDealState", DealState._fields)
STATE = NoClaimsDealState


def new_state(arrays: dict) -> NoClaimsDealState:
    return NoClaimsDealState(**arrays)


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    return -1, 0, True  # nobody is asked: the claims end at once


step_seats = daqing.step_seats
step_lock = daqing.step_lock
step_start = daqing.step_start
step_wall_end = daqing.step_wall_end
step_self_draw_win = daqing.step_self_draw_win
step_kong_options = daqing.step_kong_options
step_simple_kong = daqing.step_simple_kong
step_kong = daqing.step_kong
step_after_kong = daqing.step_after_kong
step_forced_discard = daqing.step_forced_discard
step_simple_discard = daqing.step_simple_discard
step_discard = daqing.step_discard
step_after_discard = daqing.step_after_discard
step_discard_win = daqing.step_discard_win
step_bao_check = daqing.step_bao_check
step_before_claims = daqing.step_before_claims
step_claim = daqing.step_claim
step_after_claims = daqing.step_after_claims
step_note_claim = daqing.step_note_claim
step_record = daqing.step_record
step_legal_discards = daqing.step_legal_discards
