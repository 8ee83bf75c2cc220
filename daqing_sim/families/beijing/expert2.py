"""``expert2`` under Beijing, Beijing's ``expert`` since session 18: the Beijing expert with
value-weighted waits, and terms tried and shipped off (issue 38; docs/EXPERT.md, "Expert v2").

Discards, claims and kongs are :mod:`daqing_sim.families.beijing.expert`'s kernels with the knob
values of ``expert2_weights.json`` (which records how each was chosen), and these terms:

* ``wait_value`` (shipped 1): where the expert plays greedy (no seat likely ready), a discard
  that leaves the hand ready picks the wait by unseen winning tiles x the fans of the win on each
  (greedy counts every winning tile alike). Read from where the search's departures paid in the
  real positions; +1.2 points per seat-deal against ``expert1`` on 100,000 fresh walls.
* ``claim_fold_shanten`` (shipped 14, never): while another seat is likely ready (P(ready) at
  least ``min_tenpai``), a claim is passed when the hand is this many exchanges or more from
  ready (fitted to the search's labels; neither gained nor lost in play);
* ``concealed_pass_shanten`` (shipped -1, never): a concealed hand passes every claim while
  this near ready or nearer (lost in play);
* ``pairs_min`` and ``suit_min`` (shipped 8 and 15, never): the seven pairs and one-suit hand
  routes (:mod:`daqing_sim.players.routes`; neither gained in play).

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(20, rules=ds.RuleSet(family="beijing"), strategies=("expert2", "expert1") * 2, seed=3)
>>> int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import N_KINDS_ALL, PASS, ZHONG
from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.families.beijing.danger import unseen_34
from daqing_sim.families.beijing.hand import N_FANS, bj_fans_k
from daqing_sim.hand.kinds34 import bj_shanten_k, bj_wait_set_k
from daqing_sim.players.greedy34 import greedy_claim, greedy_discard
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS
from daqing_sim.players.routes import (
    NO_ROUTE,
    PAIRS,
    PURE_SUIT,
    count_pairs,
    longest_suit,
    route_allows_k,
    route_discard_k,
)
from daqing_sim.players.weights import load_weights

#: the fitted weights of the Beijing expert2
WEIGHTS = load_weights("beijing")
K_CLAIM_FOLD = len(beijing_expert.KNOBS)
KNOBS = {
    name: Knob(float(WEIGHTS["knobs"].get(name, k.default)), k.low, k.high, k.integer, k.doc)
    for name, k in beijing_expert.KNOBS.items()
}
KNOBS["claim_fold_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("claim_fold_shanten", 14)),
    0,
    14,
    integer=True,
    doc="pass claims while another seat is likely ready and the hand is this many exchanges or more "
    "from ready (14: never)",
)
KNOBS["concealed_pass_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("concealed_pass_shanten", -1)),
    -1,
    13,
    integer=True,
    doc="a concealed hand passes claims while this many exchanges or fewer from ready (-1: never)",
)
K_CONCEALED_PASS = K_CLAIM_FOLD + 1
assert list(KNOBS).index("claim_fold_shanten") == K_CLAIM_FOLD
assert list(KNOBS).index("concealed_pass_shanten") == K_CONCEALED_PASS
#: the routes' knobs and their "off" values
ROUTE_OFF = {"pairs_min": 8, "suit_min": 15}
_ROUTE_DOC = {
    "pairs_min": "go for seven pairs holding this many pairs without a meld (8: never)",
    "suit_min": "go for one suit (清一色) holding this many tiles of one suit, melds included (15: never)",
}
#: the routes' values, fitted by duplicate play (``tools/fit_expert2.py routes --family beijing``)
ROUTES = WEIGHTS.get("routes", {}).get("knobs", {})
for _name, _off in ROUTE_OFF.items():
    KNOBS[_name] = Knob(float(ROUTES.get(_name, _off)), 0, _off, integer=True, doc=_ROUTE_DOC[_name])
K_PAIRS_MIN, K_SUIT_MIN = (list(KNOBS).index(k) for k in ROUTE_OFF)
assert K_PAIRS_MIN == K_CONCEALED_PASS + 1
KNOBS["wait_value"] = Knob(
    float(WEIGHTS["knobs"].get("wait_value", 0)),
    0,
    1,
    integer=True,
    doc="1: a discard that leaves the hand ready chooses the wait by outs x fans, not outs (0: v1)",
)
K_WAIT_VALUE = list(KNOBS).index("wait_value")


@njit(cache=True, inline="always")  # numba passes every array of obs to a call
def route_of(kn, obs):
    """``(route, suit)`` of the seat's hand (RULES_BEIJING.md, scoring: 七对 is 4 fans and always
    concealed, 清一色 6 fans, against 1 for a plain win): seven pairs while the hand has no meld
    and holds ``pairs_min`` pairs, else one suit while that suit holds ``suit_min`` of the hand's
    tiles (its melds counting three) and every meld is of it."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    if nm == 0 and count_pairs(hand) >= kn[K_PAIRS_MIN]:
        return PAIRS, -1
    if kn[K_SUIT_MIN] >= 15.0:
        return NO_ROUTE, -1
    s, n = longest_suit(hand)
    for i in range(nm):
        t = obs.mt[i]
        if t < 0 or t >= ZHONG or t // 9 != s:
            return NO_ROUTE, -1
        n += 3
    if n >= kn[K_SUIT_MIN]:
        return PURE_SUIT, s
    return NO_ROUTE, -1


@njit(cache=True, inline="always")  # numba passes every array of obs to a call
def fans_weighted_outs(obs, rules, tabs, t, unseen, waits, fans):
    """The unseen winning tiles of the hand left by discarding ``t``, each weighted by the fans of
    the win on it (a win on a discard, RULES_BEIJING.md scoring)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    hand[t] -= 1
    n_waits = bj_wait_set_k(hand, obs.mk, obs.mt, nm, tabs, waits)
    v = 0.0
    for w in range(N_KINDS_ALL):
        if waits[w] >= 0 and unseen[w] > 0:
            hand[w] += 1
            f = bj_fans_k(hand, obs.mk, obs.mt, nm, w, n_waits == 1, 0, rules, fans)
            hand[w] -= 1
            v += unseen[w] * max(f, 0)
    hand[t] += 1
    return v


@njit(cache=True, inline="always")  # numba passes every array of obs to a call
def wait_value_discard(obs, rules, tabs, greedy_t):
    """Among the discards that leave the hand ready, the one of the most
    :func:`fans_weighted_outs`, when it beats ``greedy_t``'s (greedy weighs every winning tile
    alike); else ``greedy_t``. Reads the scratch rows :func:`greedy_discard` just filled
    (``sc[1]`` the shanten after each discard, ``sc[0]`` the unseen copies)."""
    hand = obs.hand
    after = obs.sc[1]
    unseen = obs.sc[0]
    n_ready = 0
    for t in range(N_KINDS_ALL):
        if hand[t] > 0 and after[t] == 0:
            n_ready += 1
    if n_ready < 2:  # greedy's is the only discard to ready: nothing to weigh
        return greedy_t
    waits = np.empty(N_KINDS_ALL, dtype=np.int8)
    fans = np.zeros(N_FANS, dtype=np.int64)
    best_t = greedy_t
    best_v = fans_weighted_outs(obs, rules, tabs, greedy_t, unseen, waits, fans)
    for t in range(N_KINDS_ALL):
        if t != greedy_t and hand[t] > 0 and after[t] == 0:
            v = fans_weighted_outs(obs, rules, tabs, t, unseen, waits, fans)
            if v > best_v:
                best_v = v
                best_t = t
    return best_t


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """The expert's EV discard while another seat is likely ready; else the route's
    (:mod:`daqing_sim.players.routes`), or with ``wait_value`` greedy's with the wait chosen by
    :func:`wait_value_discard`; with neither, the expert's."""
    route, suit = route_of(kn, obs)
    if route == NO_ROUTE and kn[K_WAIT_VALUE] == 0.0:
        return beijing_expert.discard(kn, obs, rules, tabs)
    if kn[beijing_expert.K_DANGER_SCALE] > 0.0 and beijing_expert.risk_possible(kn, obs):
        safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
        pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
        pt = np.empty(4)
        if beijing_expert.read_risk(kn, obs, safe, pmask, pt):
            out = np.empty((N_KINDS_ALL, beijing_expert.N_V))
            return beijing_expert.ev_discard(kn, obs, rules, tabs, safe, pmask, pt, out), False
    if route == NO_ROUTE:  # the expert plays greedy here
        g = greedy_discard(obs, tabs)
        if obs.sc[1][g] != 0:  # no discard leaves the hand ready
            return g, False
        return wait_value_discard(obs, rules, tabs, g), False
    hand = obs.hand
    unseen = obs.sc[0]
    unseen_34(obs, unseen)
    allowed = np.empty(hand.shape[0], dtype=np.int32)
    route_allows_k(hand, route, suit, allowed)
    return route_discard_k(hand, obs.info[I_N_MELDS], tabs, unseen, allowed, obs.sc[1]), False


@njit(cache=True)
def kong(kn, obs, rules, tabs, kong_opts):
    """The expert's kong, none on the seven pairs route (a kong is a meld)."""
    if route_of(kn, obs)[0] == PAIRS:
        return -1
    return beijing_expert.kong(kn, obs, rules, tabs, kong_opts)


@njit(cache=True)
def claim(kn, obs, rules, tabs, d, options):
    """Greedy's claim, passed while another seat is likely ready and the hand is
    ``claim_fold_shanten`` or more from ready, or while the hand is concealed and
    ``concealed_pass_shanten`` or less from ready; on the seven pairs route every claim is
    passed, on the one-suit route every claim of another suit's tile or an honour."""
    if options != 0 and (kn[K_PAIRS_MIN] < 8.0 or kn[K_SUIT_MIN] < 15.0):
        route, suit = route_of(kn, obs)
        if route == PAIRS or (route == PURE_SUIT and (d >= ZHONG or d // 9 != suit)):
            return PASS
    if options != 0 and obs.info[I_N_MELDS] == 0 and kn[K_CONCEALED_PASS] >= 0.0:
        if bj_shanten_k(obs.hand, obs.info[I_N_MELDS], tabs) <= kn[K_CONCEALED_PASS]:
            return PASS
    if options != 0 and kn[K_CLAIM_FOLD] < 14.0 and beijing_expert.risk_possible(kn, obs):
        if bj_shanten_k(obs.hand, obs.info[I_N_MELDS], tabs) >= kn[K_CLAIM_FOLD]:
            safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
            pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
            pt = np.empty(4)
            if beijing_expert.read_risk(kn, obs, safe, pmask, pt):
                return PASS
    return greedy_claim(obs, tabs, d, options)
