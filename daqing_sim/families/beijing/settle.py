"""Beijing settlement kernels (docs/RULES_BEIJING.md, "Payments"): who pays a win, 互包 and 烧庄.

Pure and jitted, for the deal engine; compiled only when a Beijing deal or test calls them. The
win's value comes from :func:`daqing_sim.families.beijing.hand.bj_value_k`.
"""

from __future__ import annotations

from numba import njit

DEAL_IN_WIN, SELF_DRAWN_WIN, ROBBED_KONG_WIN = 0, 1, 2


@njit(cache=True)
def bj_payments_k(value, winner, how, payer, partner, out):
    """Fill ``out`` (4,) with what each seat receives (negative: pays) for one win.

    ``how`` is ``DEAL_IN_WIN`` (``payer`` the discarder pays ``value``), ``SELF_DRAWN_WIN`` (each
    other seat pays ``value``) or ``ROBBED_KONG_WIN`` (``payer`` the kong's declarer pays the
    three self-draw shares). ``partner`` >= 0 is the winner's 互包 partner, who pays everything
    the losers would pay. The four amounts sum to zero.
    """
    for s in range(4):
        out[s] = 0
    if how == SELF_DRAWN_WIN:
        total = 3 * value
        for s in range(4):
            if s != winner:
                out[s] = -value
    else:
        total = value if how == DEAL_IN_WIN else 3 * value
        out[payer] = -total
    if partner >= 0:  # RULES: 互包 — the bound partner pays it all
        for s in range(4):
            if s != winner:
                out[s] = 0
        out[partner] = -total
    out[winner] = total


@njit(cache=True)
def bj_burn_k(rounds, dealer, burn_points, out):
    """Add 烧庄 to ``out`` (4,): after ``rounds`` rounds in which the three others' discards all
    matched the dealer's, the dealer pays each ``burn_points * (1 + 2 + ... + 2**(rounds-1))``.
    (The engine calls it only when the deal is won: nothing is paid on a draw.)"""
    if rounds <= 0:
        return
    each = burn_points * ((1 << rounds) - 1)
    for s in range(4):
        if s == dealer:
            out[s] -= 3 * each
        else:
            out[s] += each


@njit(cache=True)
def bj_note_claim_k(claims_from, bound, claimer, discarder):
    """Count a claimed discard (chi, peng or kong) in ``claims_from[claimer, discarder]`` and bind
    the pair (互包) when it reaches three: ``bound[s]`` is the partner of the first binding seat
    ``s`` enters (-1: none), the one who pays when ``s`` wins. Returns True when a pair binds."""
    claims_from[claimer, discarder] += 1
    if claims_from[claimer, discarder] != 3 or claims_from[discarder, claimer] >= 3:
        return False  # RULES: 互包 — three melds from one same player ("3嘴")
    if bound[claimer] < 0:
        bound[claimer] = discarder
    if bound[discarder] < 0:
        bound[discarder] = claimer
    return True
