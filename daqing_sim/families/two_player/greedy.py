"""The two-player greedy player (docs/RULES_TWO_PLAYER.md) and the checks the expert shares:
Beijing greedy's discards, claims and kongs (table shanten of four melds and a pair or seven
pairs, ties by ukeire), 报听 whenever the concealed hand waits after the discard, every win taken.
"""

from __future__ import annotations

from numba import njit

from daqing_sim.codes import CLAIM_KONG, CLAIM_WIN, CONCEALED_KONG, PASS
from daqing_sim.families.two_player.hand import tp_kokushi_shanten_k, tp_wait_set_k
from daqing_sim.hand.kinds34 import bj_shanten_k
from daqing_sim.jit import njit_no_refs
from daqing_sim.players.greedy34 import greedy_claim, greedy_discard, greedy_kong
from daqing_sim.players.observation import I_N_MELDS


@njit(cache=True, inline="always")
def concealed_hand(obs):
    """No chi, peng or exposed kong (a concealed kong keeps the hand concealed)."""
    for j in range(obs.info[I_N_MELDS]):
        if obs.mk[j] != CONCEALED_KONG:
            return False
    return True


@njit(cache=True, inline="always")
def waits_after(obs, tabs, d):
    """How many kinds win for the observation's hand once ``d`` is thrown (0: not waiting)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    hand[d] -= 1
    n = 0
    # the table shanten first: most hands are far from waiting, and the wait set costs more
    if bj_shanten_k(hand, nm, tabs) == 0 or (nm == 0 and tp_kokushi_shanten_k(hand) == 0):
        n = tp_wait_set_k(hand, obs.mk, obs.mt, nm, tabs, obs.tk)
    hand[d] += 1
    return n


@njit_no_refs
def greedy_seat_discard(kn, obs, rules, tabs):
    """Greedy's discard, declaring 报听 whenever the concealed hand left waits."""
    d = greedy_discard(obs, tabs)
    if not concealed_hand(obs):
        return d, False
    # greedy_discard leaves the table shanten after each discard in obs.sc[1]: most hands are
    # far from waiting, and then neither shanten nor wait set needs computing again
    if obs.sc[1][d] > 0 and tp_kokushi_shanten_k(obs.hand) > 0:
        return d, False
    return d, waits_after(obs, tabs, d) > 0


@njit(cache=True, inline="always")
def may_lower_shanten(obs, tabs, d):
    """Could a peng or chi of ``d`` lower the hand's table shanten? Only if taking ``d`` into
    the hand freely does (a meld fixed around it is one way to use it), so greedy's claim
    (Beijing's) is asked only then, with the same answers."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    now = bj_shanten_k(hand, nm, tabs)
    hand[d] += 1
    with_d = bj_shanten_k(hand, nm, tabs)
    hand[d] -= 1
    return with_d < now


@njit_no_refs
def greedy_seat_claim(kn, obs, rules, tabs, t, options):
    """Greedy's claim: every win, else Beijing greedy's peng, chi or kong."""
    if options & (1 << CLAIM_WIN):
        return CLAIM_WIN
    if not options & (1 << CLAIM_KONG) and not may_lower_shanten(obs, tabs, t):
        return PASS
    return greedy_claim(obs, tabs, t, options)


@njit_no_refs
def greedy_seat_kong(kn, obs, rules, tabs, kong_opts):
    """Greedy's kong in the seat signature."""
    return greedy_kong(obs, tabs, kong_opts)
