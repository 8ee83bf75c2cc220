"""Invariants over many simulated deals (>= 20,000 in all, seconds of run time).

Every deal conserves the 112 tiles and payments sum to zero. Every recorded win is
re-checked against the plain-Python reference of ``tests/reference.py`` (written from
RULES.md; it imports no kernel, table or scorer of the package): the winner's 13-tile hand
has the winning tile in its brute-force wait set with the recorded kind and size, a bao win
is the one ``ref_bao_win`` gives, no claimed win comes from the last tiles of the wall, and
the payments are those of ``ref_settle``. Each test also counts the rule paths its deals
took (every bao kind, every wait kind, 点黑炮, the 对倒 exception, ...) and asserts they all
ran, so a sample that stops reaching a rule fails instead of passing silently.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from reference import BAO, hand_facts, may_declare, ref_bao_win, ref_fans, ref_settle, ref_wait_set

from daqing_sim.codes import OUTCOMES, WAIT_KINDS
from daqing_sim.game.engine import (
    H_MK,
    H_MT,
    H_NM,
    O_BAO,
    O_BAO_REPLACEMENTS,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_DRAWS,
    O_FANS,
    O_FINAL_BAO,
    O_OUTCOME,
    O_PAY,
    O_READY_TURN,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
)
from daqing_sim.game.simulate import results_frame, run_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet, unrestricted

LIVE_WALL = 58
BAO_NAMES = ("none", "bao", "bao_edge", "bao_in_bao")
COMMON = {f"outcome:{o}" for o in OUTCOMES[:3]} | {f"wait:{k}" for k in WAIT_KINDS} | {"bao:bao"}

CASES = [
    # (rules, strategies, n_deals, rule paths that must occur besides COMMON)
    (RuleSet(), ("random",) * 4, 12_000, {"bao:bao_edge", "bao:bao_in_bao", "dual_pair_exception"}),
    (
        RuleSet(lock_after_ready=False, chi_any_seat_for_ready=True, kong_fan=True),
        ("random",) * 4,
        4_000,
        {"bao:bao_edge", "kong_fan"},
    ),
    (RuleSet(), ("greedy", "jia_hunter", "defensive", "random"), 2_000, {"bao:bao_edge", "bao:bao_in_bao"}),
    (
        RuleSet(bao_kan_instant=True, jia_includes_edge=True, last_tiles_no_claim=0),
        ("greedy",) * 4,
        1_000,
        {"bao:bao_edge", "bao:bao_in_bao", "big_edge", "claim_from_last_tiles"},
    ),
    (
        RuleSet(lock_after_ready=False, bao_replacement=False, kong_fan=True),
        ("jia_hunter", "greedy") * 2,
        500,
        {"kong_fan"},
    ),
    (unrestricted(), ("greedy", "random", "defensive", "greedy"), 500, set()),
]


def _run(rules, strategies, n, seed):
    names, codes, knobs = encode_strategies(strategies)
    walls, _, seeds = generate_walls(n, seed=seed)
    raw = run_walls(walls, seeds, rules, codes, knobs, dealer=seed % 4, record_hands=True, record_final=True)
    df = results_frame(raw["out"], 0, seed % 4, names, raw["hands"])
    return df, raw


@pytest.mark.parametrize("case", range(len(CASES)))
def test_invariants(case):
    rules, strategies, n, paths = CASES[case]
    df, raw = _run(rules, strategies, n, seed=100 + case)
    out = raw["out"].astype(np.int64)
    final = raw["final"].astype(np.int64)
    assert (final.sum(axis=1) == 4).all(), "tiles lost or duplicated"
    pays = out[:, O_PAY : O_PAY + 4]
    assert (pays.sum(axis=1) == 0).all()
    assert (out[:, O_DRAWS] <= LIVE_WALL).all() and (
        out[:, O_DRAWS] + out[:, O_BAO_REPLACEMENTS] <= LIVE_WALL
    ).all()
    won = out[:, O_WINNER] >= 0
    assert won.sum() > n // 20
    assert (out[~won, O_OUTCOME] == OUTCOMES.index("exhaustive_draw")).all()
    assert (pays[~won] == 0).all()
    seen = check_wins(out, raw["hands"], rules, dealer=(100 + case) % 4)
    missing = (COMMON | paths) - set(seen)
    assert not missing, f"rule paths never taken: {sorted(missing)} (taken: {dict(seen)})"
    # the frame shows the same wins the raw rows hold
    assert (df["winner"].to_numpy() == out[:, O_WINNER]).all()


def check_wins(out: np.ndarray, hands: np.ndarray, rules: RuleSet, dealer: int) -> Counter:
    """Re-check every win of the engine's ``out`` rows (with their ``hands`` rows) against
    the reference; return how often each rule path was taken."""
    seen: Counter = Counter()
    for i in np.flatnonzero(out[:, O_WINNER] >= 0):
        _check_win(out[i].astype(np.int64), hands[i], rules, dealer, seen)
    return seen


def _check_win(o: np.ndarray, h: np.ndarray, rules: RuleSet, dealer: int, seen: Counter) -> None:
    w, bao, tile = int(o[O_WINNER]), int(o[O_FINAL_BAO]), int(o[O_WIN_TILE])
    outcome, bao_kind = OUTCOMES[int(o[O_OUTCOME])], int(o[O_BAO])
    counts = [int(x) for x in h[:28]]
    melds = [(int(h[H_MK + j]), int(h[H_MT + j])) for j in range(int(h[H_NM]))]
    where = f"winner {w}, counts {counts}, melds {melds}, win tile {tile}, bao {bao}"
    assert o[O_READY_TURN + w] >= 0, f"only a ready player may win ({where})"
    if rules.lock_after_ready:  # the hand is the one declared: open door and 手把一 held
        assert may_declare(counts, melds, rules), where
    waits = ref_wait_set(counts, melds, rules)
    assert waits, f"the winner's hand was not ready ({where})"
    got = (int(o[O_WAIT]), bool(o[O_BIG]))
    self_draw = outcome == "self_draw"
    if bao_kind == 0:
        assert tile in waits and waits[tile] == got, f"{where}: reference {waits}, engine {got}"
        assert not (self_draw and tile == bao), f"a ready self-draw of the bao is a bao win ({where})"
    else:
        assert self_draw, f"a bao win is self-drawn ({where})"
        want = ref_bao_win(waits, bao)
        assert (want[1], want[2], want[3]) == (*got, bao_kind), f"{where}: reference {want}, engine {got}"
        if want[3] == BAO:  # wild: it stands for a best-scoring tile of the wait set
            assert waits.get(tile) == got, where
        else:
            assert tile == bao, where
    discarder = int(o[O_DISCARDER])
    ready_discarder = True
    if not self_draw:
        assert discarder not in (-1, w), where
        ready_discarder = bool(o[O_READY_TURN + discarder] >= 0)
        assert ready_discarder == (outcome == "deal_in") == bool(o[O_DISCARDER_READY]), where
        # RULES: last tiles — nothing discarded after a draw from a wall of <= L tiles is claimed
        wall_before_draw = LIVE_WALL - (int(o[O_DRAWS]) - 1) - int(o[O_BAO_REPLACEMENTS])
        assert wall_before_draw > rules.last_tiles_no_claim, f"a claim from the last tiles ({where})"
        seen["claim_from_last_tiles"] += wall_before_draw <= 4
    concealed = [bool(o[O_CONCEALED + s]) for s in range(4)]
    kongs = int(o[O_WINNER_KONGS])
    fans = ref_fans(
        w, dealer, self_draw, discarder, ready_discarder, got[1], bao_kind, concealed, kongs, rules
    )
    pay = ref_settle(
        w, dealer, self_draw, discarder, ready_discarder, got[1], bao_kind, concealed, kongs, rules
    )
    assert o[O_PAY : O_PAY + 4].tolist() == pay, f"{where}: reference pays {pay}"
    assert [int(o[O_FANS + s]) for s in range(4)] == [fans.get(s, -1) for s in range(4)], where
    # rule paths taken
    seen[f"outcome:{outcome}"] += 1
    seen[f"bao:{BAO_NAMES[bao_kind]}"] += 1
    seen[f"wait:{WAIT_KINDS[got[0]]}"] += 1
    seen["big_edge"] += got == (WAIT_KINDS.index("edge"), True)
    seen["kong_fan"] += rules.kong_fan and kongs > 0
    seen["dual_pair_exception"] += rules.require_triplet and not hand_facts(counts, melds)["has_triplet"]
