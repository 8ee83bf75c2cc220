"""tools/calibrate_danger.py, the experts' calibration for a rule family: its replay of logged
deals rebuilds what the engine holds, for Daqing and Beijing alike."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from daqing_sim.codes import FAMILIES, FAMILY_KINDS
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.layout import MAX_MELDS
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("calibrate_danger", ROOT / "tools" / "calibrate_danger.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("family", ["daqing", "beijing"])
def test_replay_rebuilds_the_winners_hand(family: str) -> None:
    """At a deal's end the rebuilt hand of the winner is the engine's (``record_hands``: the
    13 tiles it won with and its melds; a self-drawn win holds the drawn tile besides)."""
    tool, rules, n, seed = _tool(), RuleSet(family=family), 24, 3
    strategies = ("greedy",) * 4
    _, codes, knobs = encode_strategies(strategies, family=family)
    walls, _, seeds = generate_walls(n, seed=seed, family=family)
    hands = run_walls(walls, seeds, rules, codes, knobs, 0, record_hands=True)["hands"]
    nk = FAMILY_KINDS[FAMILIES.index(family)]
    deal, st, wins = 0, None, 0
    for item in tool.replay(n, seed, strategies, rules):
        if isinstance(item, tool.Discard):
            st = item.st
            continue
        if item >= 0:
            row, w = hands[deal], item
            m = int(row[nk + 2 * MAX_MELDS])
            assert int(st.nm[w]) == m
            assert st.mk[w, :m].tolist() == row[nk : nk + m].tolist()
            assert st.mt[w, :m].tolist() == row[nk + MAX_MELDS : nk + MAX_MELDS + m].tolist()
            extra = st.conc[w, :nk].astype(int) - row[:nk].astype(int)
            assert extra.min() >= 0 and extra.sum() in (0, 1)
            wins += 1
        deal += 1
    assert deal == n and wins > n // 3


@pytest.mark.parametrize("family, n", [("daqing", 30), ("beijing", 8)])
def test_table_runs_and_no_passed_tile_is_a_winning_tile(family: str, n: int, capsys) -> None:
    """The table of each family; a tile that passed a ready seat is never in its waits (the
    replay's safe tiles agree with the wait sets it rebuilds)."""
    _tool().main(["table", "--family", family, "--n", str(n), "--seed", "7"])
    out = capsys.readouterr().out
    found = re.search(r"passed tiles (\d+), of them in a wait set (\d+)", out)
    assert found and int(found[1]) > 0 and found[2] == "0", out
    assert out.count("| decile | n | mean predicted | observed | 95% Wilson |") == (
        2 if family == "daqing" else 5
    )
