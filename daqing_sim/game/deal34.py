"""Deal steps shared by the families without Daqing's conditions (34 kinds: Beijing,
two-player): kong options, the winner's hand row, kongs among a seat's melds."""

from __future__ import annotations

from daqing_sim.codes import ADDED_KONG, CONCEALED_KONG, KONG, OPT_ADDED_KONG, OPT_CONCEALED_KONG, PENG
from daqing_sim.jit import njit_no_refs
from daqing_sim.layout import HA_MK, HA_MT, HA_NM

UNKNOWN_SHANTEN = -2  # a family's cached shanten of a seat before it is computed or after the hand changed


@njit_no_refs
def fill_kong_options(hand, mk_s, mt_s, nm_s, allowed, kong_opts):
    """``kong_opts`` of a seat that may declare a kong (``allowed``): each kind held four times
    (concealed) and each peng whose fourth tile is held (added); returns how many (0, all
    cleared, when not ``allowed``). Shared by the families without Daqing's kong conditions."""
    n_opt = 0
    for t in range(kong_opts.shape[0]):
        kong_opts[t] = 0
    if not allowed:
        return 0
    for t in range(kong_opts.shape[0]):
        if hand[t] == 4:
            kong_opts[t] = OPT_CONCEALED_KONG
            n_opt += 1
    for j in range(nm_s):
        if mk_s[j] == PENG and hand[mt_s[j]] >= 1:
            kong_opts[mt_s[j]] = OPT_ADDED_KONG
            n_opt += 1
    return n_opt


@njit_no_refs
def record_hand(hand, mk_s, mt_s, nm_s, hrow):
    """The winner's 13 tiles and melds into its hand row (layout ``HAND_ROW_ALL``)."""
    for t in range(hand.shape[0]):
        hrow[t] = hand[t]
    for j in range(4):
        hrow[HA_MK + j] = mk_s[j]
        hrow[HA_MT + j] = mt_s[j]
    hrow[HA_NM] = nm_s


@njit_no_refs
def kong_count(mk_s, nm_s):
    """Kongs among a seat's melds (exposed, added or concealed)."""
    kongs = 0
    for j in range(nm_s):
        if mk_s[j] == KONG or mk_s[j] == CONCEALED_KONG or mk_s[j] == ADDED_KONG:
            kongs += 1
    return kongs
