"""``expert2`` in the two-player game: the two-player expert with its knobs fitted to the search
player's labels, and hand routes (issue 38; docs/EXPERT.md, "Two-player expert2").

The 报听, win-or-pass, claim and fold decisions are :mod:`daqing_sim.families.two_player.expert`'s
with the fitted knob values (``tools/fit_expert2.py fit --family two_player``; shipped in
``expert2_weights.json`` with the seeds, data and commit), and one new claim term fitted with
them, ``claim_kong_shanten``: a concealed hand passes a kong on the opponent's discard unless it
is that near ready (the expert takes every such kong, which opens the hand). The other new terms
are three **hand routes** for a concealed hand without melds (their values fitted by duplicate play,
``tools/fit_expert2.py routes``), each taken when the hand is close to it, checked at every
discard (a route's discards keep its count, so a hand stays on a route unless the route dies
or, for thirteen orphans, the other shapes get that much nearer):

* **thirteen orphans** (国士无双, a limit hand: 13 fans) while the hand holds at least
  ``orphans_min`` distinct terminal and honour kinds, every missing one is still unseen and its
  thirteen orphans shanten is at most ``orphans_slack`` above its table shanten: it throws
  a tile that is no orphan, else an orphan's third copy or a second pair's tile;
* **pairs** (七对子 3 fans, 四暗刻 a limit hand) while it holds at least ``pairs_min`` kinds
  twice or more: it throws a single;
* **one suit** (混一色 3 fans, 清一色 5) while one suit and the honours hold at least
  ``suit_min`` of its tiles: it throws a tile of another suit.

Among the tiles a route allows it throws the one leaving the lowest table shanten (four melds
and a pair, or seven pairs), then the one with the fewest unseen copies, then the lowest kind;
without a route it is the expert's discard. The engine completes a route's hand (every winning
shape is checked). ``orphans_min`` 14, ``pairs_min`` 8 and ``suit_min`` 15 switch the routes off.

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(50, rules=ds.RuleSet(family="two_player"), strategies=("expert2", "expert1"), seed=3)
>>> int(df[["pay_0", "pay_1"]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import CLAIM_KONG, PASS, ZHONG
from daqing_sim.families.two_player import expert as tp_expert
from daqing_sim.families.two_player.greedy import concealed_hand, waits_after
from daqing_sim.families.two_player.hand import tp_kokushi_shanten_k
from daqing_sim.hand.kinds34 import bj_shanten_k
from daqing_sim.players.greedy34 import unseen_kinds
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS, I_SEAT
from daqing_sim.players.routes import (
    NO_ROUTE,
    ONE_SUIT,
    ORPHANS,
    PAIRS,
    count_pairs,
    is_orphan,
    longest_suit,
    route_allows_k,
    route_discard_k,
)
from daqing_sim.players.weights import load_weights

#: the fitted weights of the two-player expert2 (``tools/fit_expert2.py fit --family two_player``)
WEIGHTS = load_weights("two_player")
KNOBS = {
    name: Knob(float(WEIGHTS["knobs"].get(name, k.default)), k.low, k.high, k.integer, k.doc)
    for name, k in tp_expert.KNOBS.items()
}
#: the routes' knobs and their "off" values (``orphans_slack`` 13: no condition on the shanten)
ROUTE_OFF = {"orphans_min": 14, "orphans_slack": 13, "pairs_min": 8, "suit_min": 15}
_ROUTE_DOC = {
    "orphans_min": "go for thirteen orphans holding this many distinct terminal/honour kinds (14: never)",
    "orphans_slack": "... and only while its shanten is at most this much above the table shanten",
    "pairs_min": "go for seven pairs / four concealed triplets holding this many pairs (8: never)",
    "suit_min": "go for one suit holding this many tiles of one suit and honours (15: never)",
}
#: the routes' values, fitted by duplicate play (``tools/fit_expert2.py routes``)
ROUTES = WEIGHTS.get("routes", {}).get("knobs", {})
for _name, _off in ROUTE_OFF.items():
    KNOBS[_name] = Knob(float(ROUTES.get(_name, _off)), 0, _off, integer=True, doc=_ROUTE_DOC[_name])
K_ORPHANS_MIN, K_ORPHANS_SLACK, K_PAIRS_MIN, K_SUIT_MIN = (list(KNOBS).index(k) for k in ROUTE_OFF)
assert K_ORPHANS_MIN == len(tp_expert.KNOBS)
KNOBS["claim_kong_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("claim_kong_shanten", 13)),
    -1,
    13,
    integer=True,
    doc="a concealed hand claims a kong on a discard only this near ready (-1: never; 13: always, as v1)",
)
K_CLAIM_KONG = list(KNOBS).index("claim_kong_shanten")


@njit(cache=True)
def route_k(hand, n_melds, tabs, unseen, orphans_min, orphans_slack, pairs_min, suit_min):
    """The route a hand of 14 tiles (``n_melds`` melds) is on: ``(route, suit)``.

    ``unseen``: the copies of each kind the seat cannot see. Thirteen orphans first (every
    missing orphan kind must still be unseen, and its shanten at most ``orphans_slack`` above
    the table shanten: four melds and a pair, or seven pairs), then pairs, then one suit
    (``suit`` its index 0-2, the suit with the most tiles, the lowest on a tie); a hand with a
    meld has none.
    """
    if n_melds > 0:
        return NO_ROUTE, -1
    kinds = 0
    alive = True
    for t in range(hand.shape[0]):
        if is_orphan(t):
            if hand[t] > 0:
                kinds += 1
            elif unseen[t] == 0:
                alive = False
    if alive and kinds >= orphans_min:
        if tp_kokushi_shanten_k(hand) <= bj_shanten_k(hand, n_melds, tabs) + orphans_slack:
            return ORPHANS, -1
    if count_pairs(hand) >= pairs_min:
        return PAIRS, -1
    honours = 0
    for t in range(ZHONG, hand.shape[0]):
        honours += hand[t]
    best_s, best_n = longest_suit(hand)
    if best_n + honours >= suit_min:
        return ONE_SUIT, best_s
    return NO_ROUTE, -1


@njit(cache=True)
def declare_outs(obs, tabs, d, unseen):
    """Unseen copies of the kinds that win once ``d`` is thrown (0: not waiting; at least 1 when
    waiting), as the expert counts them for 报听."""
    if waits_after(obs, tabs, d) == 0:
        return 0
    outs = 0
    for t in range(obs.hand.shape[0]):
        if obs.tk[t] >= 0:
            outs += unseen[t]
    return max(outs, 1)


@njit(cache=True)
def discard(kn, obs, rules, tabs):
    """``(tile, declare)``: a fold as the expert's; else the route's discard, else the expert's;
    报听 by the expert's rule (a concealed hand that waits with enough outs)."""
    hand = obs.hand
    nm = obs.info[I_N_MELDS]
    opp = (obs.info[I_SEAT] + 1) % 2
    if obs.ready[opp] and bj_shanten_k(hand, nm, tabs) >= kn[tp_expert.K_FOLD_SHANTEN]:
        return tp_expert.discard(kn, obs, rules, tabs)
    unseen = obs.sc[0]
    unseen_kinds(obs, unseen)
    route, suit = route_k(
        hand, nm, tabs, unseen, kn[K_ORPHANS_MIN], kn[K_ORPHANS_SLACK], kn[K_PAIRS_MIN], kn[K_SUIT_MIN]
    )
    if route == NO_ROUTE or not concealed_hand(obs):
        return tp_expert.discard(kn, obs, rules, tabs)
    allowed = np.empty(hand.shape[0], dtype=np.int32)
    route_allows_k(hand, route, suit, allowed)
    d = route_discard_k(hand, nm, tabs, unseen, allowed, obs.sc[1])
    unseen_kinds(obs, unseen)
    outs = declare_outs(obs, tabs, d, unseen)
    return d, outs > 0 and outs >= kn[tp_expert.K_DECLARE_MIN_OUTS]


@njit(cache=True)
def claim(kn, obs, rules, tabs, d, options):
    """The expert's claim, but a concealed hand passes a kong on a discard (an exposed kong opens
    it: no 门清, 门清自摸 or 报听) unless it is within ``claim_kong_shanten`` of ready."""
    a = tp_expert.claim(kn, obs, rules, tabs, d, options)
    if a == CLAIM_KONG and concealed_hand(obs):
        if bj_shanten_k(obs.hand, obs.info[I_N_MELDS], tabs) > kn[K_CLAIM_KONG]:
            return PASS
    return a


kong = tp_expert.kong
