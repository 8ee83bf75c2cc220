"""Invariants over many simulated deals (>= 20,000 in all, seconds of run time).

Every deal conserves the 112 tiles, payments sum to zero, and every recorded win is
re-checked with the public evaluator (the winner's 13-tile hand was ready and the winning
tile is in its wait set with the recorded kind, size and bao) and paid exactly what
``daqing_sim.game.scoring.settle`` gives for its recorded attributes.
"""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.game.engine import O_FINAL_BAO
from daqing_sim.game.scoring import settle
from daqing_sim.game.simulate import results_frame, run_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.evaluator import analyze_hand
from daqing_sim.hand.tiles import tile_name
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet, unrestricted

CASES = [
    # (rules, strategies, n_deals)
    (RuleSet(), ("random",) * 4, 12_000),
    (RuleSet(lock_after_ready=False, chi_any_seat_for_ready=True, kong_fan=True), ("random",) * 4, 4_000),
    (RuleSet(), ("greedy", "jia_hunter", "defensive", "random"), 2_000),
    (RuleSet(bao_kan_instant=True, jia_includes_edge=True, last_tiles_no_claim=0), ("greedy",) * 4, 1_000),
    (
        RuleSet(lock_after_ready=False, bao_replacement=False, kong_fan=True),
        ("jia_hunter", "greedy") * 2,
        500,
    ),
    (unrestricted(), ("greedy", "random", "defensive", "greedy"), 500),
]


def _run(rules, strategies, n, seed):
    names, codes, knobs = encode_strategies(strategies)
    walls, _, seeds = generate_walls(n, seed=seed)
    raw = run_walls(walls, seeds, rules, codes, knobs, dealer=seed % 4, record_hands=True, record_final=True)
    df = results_frame(raw["out"], 0, seed % 4, names, raw["hands"])
    return df, raw


@pytest.mark.parametrize("case", range(len(CASES)))
def test_invariants(case):
    rules, strategies, n = CASES[case]
    df, raw = _run(rules, strategies, n, seed=100 + case)
    final = raw["final"].astype(np.int64)
    assert (final.sum(axis=1) == 4).all(), "tiles lost or duplicated"
    pays = df[[f"pay_{s}" for s in range(4)]].to_numpy(np.int64)
    assert (pays.sum(axis=1) == 0).all()
    assert (df["draws"] <= 58).all() and (df["draws"] + df["bao_replacements"] <= 58).all()
    wins = df[df["winner"] >= 0]
    assert len(wins) > n // 20
    assert (df.loc[df["winner"] < 0, "outcome"] == "exhaustive_draw").all()
    assert (pays[df["winner"].to_numpy() < 0] == 0).all()
    for i, row in wins.iterrows():
        _check_win(row, raw["out"][i, O_FINAL_BAO], rules)


def _check_win(row, bao, rules):
    w = int(row["winner"])
    assert row[f"ready_turn_{w}"] >= 0, "only a ready player may win"
    analysis = analyze_hand(row["winner_hand"], rules)
    assert analysis.ready, f"winner hand {row['winner_hand']} was not ready"
    waits = {x.tile: x for x in analysis.waits}
    assert row["win_tile"] in waits
    win = waits[row["win_tile"]]
    assert win.kind == row["wait_kind"] and win.big == row["big"]
    bao_name = tile_name(int(bao))
    if row["bao"] == "bao":  # 摸宝: the bao was wild, so not itself a winning tile
        assert bao_name not in waits and row["outcome"] == "self_draw"
        best = max(
            waits.values(),
            key=lambda x: (x.big, -["kanchan", "edge", "single", "dual_pair", "two_sided"].index(x.kind)),
        )
        assert (best.big, best.kind) == (win.big, win.kind)
    elif row["bao"] in ("bao_edge", "bao_in_bao"):
        assert row["win_tile"] == bao_name and row["outcome"] == "self_draw"
        assert (row["bao"] == "bao_in_bao") == bool(row["big"])
    method = "self_draw" if row["outcome"] == "self_draw" else "deal_in"
    discarder = None if method == "self_draw" else int(row["discarder"])
    if discarder is not None:
        was_ready = row[f"ready_turn_{discarder}"] >= 0
        assert was_ready == (row["outcome"] == "deal_in")
    expected = settle(
        w,
        int(row["dealer"]),
        method,
        discarder=discarder,
        discarder_ready=row["outcome"] != "deal_in_not_ready",
        big=bool(row["big"]),
        bao=row["bao"],
        concealed=[bool(row[f"concealed_{s}"]) for s in range(4)],
        winner_kongs=int(row["winner_kongs"]),
        rules=rules,
    )
    assert [int(row[f"pay_{s}"]) for s in range(4)] == expected.tolist()
    assert row[f"fans_{w}"] == -1


def test_total_deals_at_least_20000():
    assert sum(c[2] for c in CASES) >= 20_000
