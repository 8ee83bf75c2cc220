"""The no-chi family's deal steps: Daqing's, with a claim step that offers pengs and kongs only
(a discard is still won on: that is ``step_discard_win``), on a state type of its own."""

from __future__ import annotations

from collections import namedtuple

from daqing_sim.codes import CLAIM_KONG, CLAIM_PENG
from daqing_sim.families.daqing import deal as daqing
from daqing_sim.families.hooks import inherit_steps
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


inherit_steps(globals(), daqing)  # every other step is Daqing's
