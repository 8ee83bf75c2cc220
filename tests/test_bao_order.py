"""换宝 and 宝卡 in the right order (RULES: the new bao is replaced again at once while three
of it are visible, and a win, 宝卡 included, beats a chi): read from the event log of every deal."""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CHI_LOW, CLAIM_KONG, CLAIM_PENG
from daqing_sim.game.engine import (
    EV_ADDED_KONG,
    EV_BAO_REPLACED,
    EV_CLAIM,
    EV_DISCARD,
    EV_DRAW,
    EV_READY,
    EV_WIN,
    EV_WIN_DETAIL,
    O_BAO,
)
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.wall import BAO_POSITION, generate_walls
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

BAO_IN_BAO = 3


def order_violations(wall, log, row):
    """Events where a bao with three visible copies stood (a win on it, or a claim made while
    the replacement was due); ``[]`` for a deal played in the right order."""
    visible = np.zeros(28, dtype=np.int64)
    bao = int(wall[BAO_POSITION])
    wall_left = 58
    due = False
    bad = []
    for i, (code, _seat, tile, a, b) in enumerate(log.tolist()):
        if code == EV_DRAW:
            wall_left = b
        elif code == EV_DISCARD:
            visible[tile] += 1
        elif code == EV_CLAIM:
            if due:
                bad.append((i, "claim while the bao was due for replacement"))
            if a == CLAIM_PENG:
                visible[tile] += 2
            elif a == CLAIM_KONG:
                visible[tile] += 3
            else:
                low = tile - (a - CHI_LOW)
                visible[[x for x in range(low, low + 3) if x != tile]] += 1
        elif code == EV_ADDED_KONG:
            visible[tile] += 1
        elif code == EV_BAO_REPLACED:
            bao = tile
            wall_left -= 1
        elif code == EV_WIN and row[O_BAO] == BAO_IN_BAO and visible[bao] >= 3 and wall_left > 0:
            bad.append((i, f"宝中宝 on a bao with {visible[bao]} visible"))
        due = visible[bao] >= 3 and wall_left > 0
    return bad


def situations(log) -> set[str]:
    """The bao situations a deal's log shows, so that a regression deal that stops reaching
    its situation fails instead of passing: ``replaced_while_ready`` (a 换宝 after someone
    declared ready), ``chained_replacement`` (a new bao replaced again at once) and
    ``bao_kan_after_replacement`` (a 宝卡 win right after a due 换宝)."""
    ev = [tuple(e) for e in log.tolist()]
    found = set()
    for i, (code, *_rest) in enumerate(ev):
        if code != EV_BAO_REPLACED:
            continue
        if any(e[0] == EV_READY for e in ev[:i]):
            found.add("replaced_while_ready")
        if i + 1 < len(ev) and ev[i + 1][0] == EV_BAO_REPLACED:
            found.add("chained_replacement")
        if i + 2 < len(ev) and ev[i + 1][0] == EV_WIN and ev[i + 2][0] == EV_WIN_DETAIL and ev[i + 2][4] == 1:
            found.add("bao_kan_after_replacement")
    return found


def _deals(seed, deals, strategies, rules):
    _, codes, knobs = encode_strategies(strategies)
    walls, _, seeds = generate_walls(max(deals) + 1, seed)
    for deal in deals:
        raw = run_walls(walls[deal : deal + 1], seeds[deal : deal + 1], rules, codes, knobs, record_log=True)
        yield deal, walls[deal], raw["log"], raw["out"][0]


def test_the_checker_sees_the_reported_deal_as_it_was():
    """On a hand-edited log (a win on a bao with three visible), the checker reports it."""
    wall = np.zeros(112, dtype=np.uint8)
    wall[BAO_POSITION] = 13
    log = np.array([[EV_DISCARD, 1, 13, 0, 0]] * 3 + [[EV_WIN, 0, 13, 0, -1]], dtype=np.int16)
    row = np.zeros(64, dtype=np.int64)
    row[O_BAO] = BAO_IN_BAO
    assert order_violations(wall, log, row)


@pytest.mark.parametrize(
    "seed, deals, strategies, situation",
    [
        # reported: 宝中宝 on a bao with three visible (now: replaced, again at once, while ready)
        (44, [8510, 3102, 4416, 22719], ("random",) * 4, {"replaced_while_ready", "chained_replacement"}),
        # reported: the 换宝 of a chi'd third copy came after the chi (now: 换宝, then the 宝卡)
        (43, [11347], ("greedy",) * 4, {"replaced_while_ready", "bao_kan_after_replacement"}),
    ],
)
def test_reported_deals_play_in_rule_order(seed, deals, strategies, situation):
    rules = RuleSet(bao_kan_instant=True)
    for deal, wall, log, row in _deals(seed, deals, strategies, rules):
        assert order_violations(wall, log, row) == [], deal
        assert situations(log) >= situation, f"deal {deal} no longer reaches the reported situation"


def test_the_situation_finder_needs_the_events_in_order():
    log = np.array(
        [
            [EV_READY, 0, 5, 0, 1],
            [EV_BAO_REPLACED, -1, 7, 5, 3],
            [EV_WIN, 0, 7, 0, -1],
            [EV_WIN_DETAIL, 0, -1, 3, 1],
        ],
        dtype=np.int16,
    )
    assert situations(log) == {"replaced_while_ready", "bao_kan_after_replacement"}
    assert situations(log[[1, 0, 2, 3]]) == set()  # the 宝卡 does not follow the 换宝
    log[3, 4] = 0  # a bao win after a draw, not a 宝卡
    assert situations(log) == {"replaced_while_ready"}


@pytest.mark.parametrize("strategies", [("random",) * 4, ("greedy", "random", "jia_hunter", "random")])
def test_no_deal_plays_a_due_bao(strategies):
    rules = RuleSet(bao_kan_instant=True)
    bad, seen = {}, set()
    for d, w, lg, r in _deals(5, range(1500), strategies, rules):
        if v := order_violations(w, lg, r):
            bad[d] = v
        seen |= situations(lg)
    assert bad == {}
    assert seen >= {"replaced_while_ready", "chained_replacement"}, seen
