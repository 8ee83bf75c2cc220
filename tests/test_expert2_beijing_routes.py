"""Beijing ``expert2``'s hand routes (issue 38): seven pairs (``pairs_min``) and one suit without
honours (``suit_min``), each decision checked against a plain-Python rule over the reference
shanten (:mod:`reference_beijing`, by definition), on seat 0's discards and claims of Beijing
deals and on random hands."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
import reference_beijing as R

import daqing_sim as ds
from daqing_sim.codes import MELD_KINDS, PASS
from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.families.beijing import expert2 as bj2
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.observation import I_N_MELDS
from daqing_sim.players.registry import PLAYER_NAMES, encode_strategies
from daqing_sim.players.routes import PAIRS, PURE_SUIT
from daqing_sim.players.seats import builtin_functions

#: route settings the decisions are checked under (both routes met often)
SETTINGS = ({"pairs_min": 4, "suit_min": 8}, {"pairs_min": 3, "suit_min": 7})


def ref_melds_of(mk, mt, n):
    """``n`` melds of kernel arrays (kinds ``mk``, lowest tiles ``mt``) as the reference writes them."""
    kinds = [MELD_KINDS[int(k)] for k in mk[: int(n)]]
    return [("kong" if k == "added_kong" else k, int(t)) for k, t in zip(kinds, mt, strict=False)]


def ref_melds(obs):
    """The seat's melds as the reference writes them."""
    return ref_melds_of(obs.mk, obs.mt, obs.info[I_N_MELDS])


def ref_route(counts, melds, pairs_min, suit_min):
    """``(route, suit)`` by the rule of docs/EXPERT.md: seven pairs for a hand without melds
    holding ``pairs_min`` pairs; else one suit when the suit with the most tiles (the lowest on a
    tie) holds ``suit_min`` of the hand's tiles, melds counting three, and every meld is of it."""
    if not melds and sum(c >= 2 for c in counts) >= pairs_min:
        return "pairs", -1
    by_suit = [sum(counts[9 * s : 9 * s + 9]) for s in range(3)]
    s = by_suit.index(max(by_suit))
    if all(t < 27 and t // 9 == s for _, t in melds) and by_suit[s] + 3 * len(melds) >= suit_min:
        return "suit", s
    return "none", -1


def ref_unseen(obs):
    """Copies of each kind the seat cannot see."""
    unseen = [4 - int(obs.hand[t]) - int(obs.visible[t]) for t in range(34)]
    for kind, t in ref_melds(obs):
        if kind == "concealed_kong":
            unseen[t] -= 4
    return [max(u, 0) for u in unseen]


def ref_route_discard(counts, melds, route, suit, unseen):
    """The route's tile (pairs: a single; suit: another suit's tile or an honour; none allowed:
    any), then the lowest reference shanten after it, the fewest unseen copies, the lowest kind."""
    held = [t for t in range(34) if counts[t]]
    if route == "pairs":
        ok = [t for t in held if counts[t] == 1]
    else:
        ok = [t for t in held if t >= 27 or t // 9 != suit]

    def key(t):
        c = list(counts)
        c[t] -= 1
        return (R.shanten(c, melds), unseen[t], t)

    return min(ok or held, key=key)


@cache
def _positions():
    """Seat 0's discards and claims in 80 Beijing deals of four expert1 (copies of the
    observations)."""
    from test_search import paused_decisions

    from daqing_sim.game.engine import C_OPTS, C_TILE

    out = []
    for deal in paused_decisions(31, 80, "expert1", "beijing"):
        if deal.decision in ("discard", "claim"):
            obs = type(deal.obs)(*[np.array(a, copy=True) for a in deal.obs])
            out.append((deal.decision, obs, int(deal.ctl[C_TILE]), int(deal.ctl[C_OPTS])))
    return out


def _kernels():
    v1 = builtin_functions(PLAYER_NAMES.index("expert1"), "beijing")
    v2 = builtin_functions(PLAYER_NAMES.index("expert2"), "beijing")
    return v1, v2


def _knobs(over):
    v1 = {k: x.default for k, x in beijing_expert.KNOBS.items()}
    return encode_strategies(
        (("expert2", {**v1, "claim_fold_shanten": 14, "wait_value": 0, **over}),) * 4, None, "beijing"
    )[2][0]


@pytest.mark.parametrize("over", SETTINGS)
def test_beijing_route_decisions_follow_the_rule(over):
    """Every seat-0 discard and claim: on no route, or facing a seat likely ready (a discard), the
    answer is expert1's; on a route, the route's (the reference's tile; every claim passed on
    seven pairs, every claim of another suit or an honour on one suit)."""
    rules = ds.RuleSet(family="beijing").encode()
    tabs = get_tables()
    (v1_discard, v1_claim, *_), (v2_discard, v2_claim, *_) = _kernels()
    kn1 = encode_strategies(("expert1",) * 4, None, "beijing")[2][0]
    kn2 = _knobs(over)
    seen = dict.fromkeys(
        ("route discard", "risk discard", "pairs pass", "suit pass", "suit claim", "none"), 0
    )
    for decision, obs, tile, opts in _positions():
        counts = [int(x) for x in obs.hand[:34]]
        melds = ref_melds(obs)
        route, suit = ref_route(counts, melds, over["pairs_min"], over["suit_min"])
        if decision == "discard":
            want = int(v1_discard(kn1, obs, rules, tabs)[0])
            risk = beijing_expert.risk_possible(kn1, obs) and beijing_expert.read_risk(
                kn1, obs, np.empty((4, 34), np.uint8), np.empty((4, 34), np.uint8), np.empty(4)
            )
            if route != "none" and not risk:
                ref = ref_route_discard(counts, melds, route, suit, ref_unseen(obs))
                seen["route discard"] += ref != want
                want = ref
            else:
                seen["risk discard" if route != "none" else "none"] += 1
            assert int(v2_discard(kn2, obs, rules, tabs)[0]) == want, (R.notation(counts, melds), route)
        else:
            want = int(v1_claim(kn1, obs, rules, tabs, tile, opts))
            off_suit = tile >= 27 or tile // 9 != suit
            if want != PASS and (route == "pairs" or (route == "suit" and off_suit)):
                seen["pairs pass" if route == "pairs" else "suit pass"] += 1
                want = PASS
            elif want != PASS and route == "suit":
                seen["suit claim"] += 1
            assert int(v2_claim(kn2, obs, rules, tabs, tile, opts)) == want, (R.notation(counts, melds), tile)
    assert min(seen.values()) > 0, seen  # each branch met a position where it matters


def _random_hand(rng):
    """A 14-tile meldless hand leaning to pairs or to one suit, or a hand with one or two melds of
    one suit."""
    counts = [0] * 34
    melds = []
    lean = rng.choice(("pairs", "suit", "melds"))
    suit = rng.randrange(3)
    n = 14
    if lean == "melds":
        for _ in range(rng.randint(1, 2)):
            low = 9 * suit + rng.randrange(7)
            melds.append(("chi", low) if rng.random() < 0.5 else ("peng", low))
            n -= 3
        if rng.random() < 0.2:  # a meld of another suit: no route
            melds[-1] = ("peng", 9 * ((suit + 1) % 3) + rng.randrange(9))
    used = R.total_counts([0] * 34, melds)
    while sum(counts) < n:
        if lean == "pairs" and rng.random() < 0.6:
            t = rng.randrange(34)
            k = 2
        elif lean != "pairs" and rng.random() < 0.7:
            t = 9 * suit + rng.randrange(9)
            k = 1
        else:
            t = rng.randrange(34)
            k = 1
        k = min(k, n - sum(counts), 4 - counts[t] - used[t])
        counts[t] += max(k, 0)
    return counts, melds


def test_route_of_and_route_discard_agree_with_the_reference_on_random_hands():
    """The kernels' route and the route's tile against the reference on 600 random hands."""
    from daqing_sim.players.routes import route_allows_k, route_discard_k

    rng = random.Random(38)
    obs = _positions()[0][1]
    tabs = get_tables()
    names = {bj2.NO_ROUTE: "none", PAIRS: "pairs", PURE_SUIT: "suit"}
    hits = {"none": 0, "pairs": 0, "suit": 0}
    for i in range(600):
        counts, melds = _random_hand(rng)
        over = SETTINGS[i % 2]
        kn = _knobs(over)
        o = obs._replace(
            hand=np.array(counts, dtype=np.uint8),
            mk=np.array([MELD_KINDS.index(k) for k, _ in melds] + [-1] * (4 - len(melds)), dtype=np.int8),
            mt=np.array([t for _, t in melds] + [-1] * (4 - len(melds)), dtype=np.int8),
            info=obs.info.copy(),
        )
        o.info[I_N_MELDS] = len(melds)
        route, suit = bj2.route_of(kn, o)
        want = ref_route(counts, melds, over["pairs_min"], over["suit_min"])
        assert (names[int(route)], int(suit)) == want, R.notation(counts, melds)
        hits[want[0]] += 1
        if route != bj2.NO_ROUTE:
            unseen = [rng.randrange(5 - c) if c < 4 else 0 for c in counts]
            allowed = np.empty(34, dtype=np.int32)
            route_allows_k(o.hand, route, suit, allowed)
            got = route_discard_k(
                o.hand, len(melds), tabs, np.array(unseen, np.int32), allowed, np.empty(34, np.int32)
            )
            assert int(got) == ref_route_discard(counts, melds, want[0], suit, unseen), R.notation(
                counts, melds
            )
    assert min(hits.values()) > 20, hits


def ref_wait_value(counts, melds, unseen):
    """``{discard: sum over its winning tiles of unseen copies x F of the win on a discard}`` for
    every discard that leaves the hand ready (the reference's wait set and scoring)."""
    out = {}
    for t in range(34):
        if not counts[t]:
            continue
        c = list(counts)
        c[t] -= 1
        waits = R.wait_set(c, melds)
        if waits:
            out[t] = sum(unseen[w] * R.score(c, melds, w, self_draw=False).total_fans for w in waits)
    return out


def test_wait_value_chooses_the_wait_by_outs_times_fans():
    """``wait_value`` 1: where the expert plays greedy and the hand can be made ready, the discard
    is greedy's unless another ready discard has more unseen winning tiles weighted by the fans
    of each win (the reference's wait sets and scores); facing a likely ready seat, expert1's."""
    rules = ds.RuleSet(family="beijing").encode()
    tabs = get_tables()
    (v1_discard, *_), (v2_discard, *_) = _kernels()
    kn1 = encode_strategies(("expert1",) * 4, None, "beijing")[2][0]
    kn2 = _knobs({"wait_value": 1})
    seen = {"changed": 0, "kept": 0, "risk": 0}
    for decision, obs, _, _ in _positions():
        if decision != "discard":
            continue
        counts = [int(x) for x in obs.hand[:34]]
        melds = ref_melds(obs)
        want = int(v1_discard(kn1, obs, rules, tabs)[0])
        risk = beijing_expert.risk_possible(kn1, obs) and beijing_expert.read_risk(
            kn1, obs, np.empty((4, 34), np.uint8), np.empty((4, 34), np.uint8), np.empty(4)
        )
        values = {} if risk else ref_wait_value(counts, melds, ref_unseen(obs))
        if values and want in values:
            top = max(values.values())
            if values[want] < top:
                want = min(t for t, v in values.items() if v == top)
                seen["changed"] += 1
            else:
                seen["kept"] += 1
        elif risk:
            seen["risk"] += 1
        assert int(v2_discard(kn2, obs, rules, tabs)[0]) == want, (R.notation(counts, melds), values)
    assert min(seen.values()) > 0, seen
