"""The no-chi family's deal steps: Daqing's, with a claim step that offers pengs and kongs only
(a discard is still won on: that is ``step_discard_win``), on a state type of its own."""

from __future__ import annotations

from collections import namedtuple

from daqing_sim.codes import CLAIM_KONG, CLAIM_PENG
from daqing_sim.families.daqing import deal as daqing
from daqing_sim.game.state import DealState

NoChiDealState = namedtuple("NoChiDealState", DealState._fields)
STATE = NoChiDealState
record = daqing.record
legal_discards = daqing.legal_discards


def new_state(arrays: dict) -> NoChiDealState:
    return NoChiDealState(**arrays)


def step_claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back):
    if stage != 0:
        return -1, 0, True  # no chi from any seat: the claims end after the pengs
    for k in range(1, 4):
        s2 = (cur + k) % 4
        if st.conc[s2, d] < 2 or st.ready[s2] or not daqing._meld_ok(st.nm[s2], rules):
            continue
        opts = 1 << CLAIM_PENG  # at most one other seat holds two copies
        if st.conc[s2, d] == 3 and front <= back:
            opts |= 1 << CLAIM_KONG
        return s2, opts, False
    return -1, 0, False


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
