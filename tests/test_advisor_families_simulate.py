"""The simulated advisor under Beijing rules (``ds.advise(..., method="simulate")``, the search
evaluator playing the position out): its ``ev`` and ``p_win`` against the exact model where both
models agree, its rows, its determinism and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.cli import main

BEIJING = ds.RuleSet(family="beijing")
TWO = ds.RuleSet(family="two_player")

# ready 13-tile hands, with their winning tiles
READY = [
    "234m456p678s2233z",  # 南 西
    "123456789m1122p",  # 1p 2p (一条龙)
    "1133m2255p7799s1z",  # 东 (seven pairs)
    "234m567m45p678s99s",  # 3p 6p
    "111222333m77p55z",  # 7p 白 (对对和)
]


def test_simulated_ev_is_within_its_interval_of_the_exact_one_when_the_seat_draws_the_last_tile():
    # wall_left=1 and the seat to draw: nobody acts before its draw, which is the wall's last
    # tile, so both models give the same chance of the win and the same 海底捞月 value; the
    # simulation alone can lose the last discard to another seat (a rare deal-in among uniform
    # hands), well inside the interval
    for i, hand in enumerate(READY):
        seen = "19m19p19s" if i % 2 else None
        exact = ds.advise(hand, rules=BEIJING, k=1, wall_left=1, seen=seen).iloc[0]
        sim = ds.advise(hand, rules=BEIJING, k=1, wall_left=1, seen=seen, method="simulate", n_sims=1500,
                        seed=100 + i, confidence=0.99).iloc[0]  # fmt: skip
        assert exact["draws"] == 1 and exact["ev"] > 0
        assert sim["ev_lo"] <= exact["ev"] <= sim["ev_hi"], (hand, exact["ev"], sim["ev_lo"], sim["ev_hi"])
        assert sim["p_win_lo"] <= exact["p_win"] <= sim["p_win_hi"], hand


def test_simulated_rows_are_deterministic_and_ranked():
    kw = dict(rules=BEIJING, k=2, method="simulate", n_sims=60, seed=7, ponds={1: "19m", 2: "9p", 3: "1s"})
    a = ds.advise("234m456p678s2233z9m", **kw)
    b = ds.advise("234m456p678s2233z9m", **kw)
    assert a.equals(b)
    assert a["ev"].is_monotonic_decreasing and a.iloc[0]["ev_vs_best"] == 0
    assert a["p_ready_1"].isna().all() and a.attrs["method"] == "simulate"
    assert set(a["discard"]) == {"2m", "3m", "4m", "9m", "4p", "5p", "6p", "6s", "7s", "8s", "南", "西"}
    assert (a["ev_vs_best_lo"] <= a["ev_vs_best"]).all()


def test_command_line_simulated(capsys):
    argv = [
        "advise",
        "234m456p678s2233z9m",
        "--rules",
        "family=beijing",
        "--method",
        "simulate",
        "--sims",
        "30",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "ev_vs_best" in out and "nan" not in out and "p_ready_i: not measured" in out


def test_simulated_refusals_are_one_line():
    with pytest.raises(ValueError, match="claim with method='simulate'") as e:
        ds.advise("234m456p678s2233z", claim="南", rules=BEIJING, method="simulate", n_sims=5)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="field must be four built-in strategy names") as e:
        ds.advise("234m456p678s2233z9m", rules=BEIJING, method="simulate", n_sims=5, field=("expert",) * 3)
    with pytest.raises(ValueError, match="field must be two built-in strategy names under two-player") as e:
        ds.advise("234m456p678s2233z9m", rules=TWO, method="simulate", n_sims=5, field=("expert",) * 4)
    assert "\n" not in str(e.value)


def test_the_loaded_hidden_tiles_do_not_change_the_numbers():
    # the evaluator deals the others' hands and the wall again from their multiset: how the
    # loader placed the unseen tiles (sorted) never shows in the answer for the same seed
    from daqing_sim.advisor.family_advise import advise_family
    from daqing_sim.advisor.family_simulate import paused_deal
    from daqing_sim.game.engine import C_FRONT
    from daqing_sim.players.registry import encode_strategies
    from daqing_sim.search.evaluator import Evaluator

    _, pos = advise_family("234m456p678s2233z9m", rules=BEIJING, k=1, ponds={1: "19m", 2: "9p"})
    hand = ds.parse_hand("234m456p678s2233z9m", family="beijing")
    _, codes, knobs = encode_strategies(["expert"] * 4, None, "beijing")
    cands = [(8, False), (29, False), (1, False)]  # 9m, 南, 2m
    deal, enc = paused_deal(pos, hand, codes, knobs)
    first = Evaluator(enc, "expert", family="beijing").evaluate(deal, cands, 40, 3).pays
    other, _ = paused_deal(pos, hand, codes, knobs)
    rng = np.random.default_rng(0)
    front = int(other.ctl[C_FRONT])
    hidden = np.concatenate(
        [np.repeat(np.arange(34), other.st.conc[s]) for s in (1, 2, 3)] + [other.wall[front:]]
    )
    rng.shuffle(hidden)
    i = 0
    for s in (1, 2, 3):
        n = int(other.st.conc[s].sum())
        other.st.conc[s] = np.bincount(hidden[i : i + n], minlength=34)
        i += n
    other.wall[front:] = hidden[i:]
    assert not np.array_equal(other.st.conc[1], deal.st.conc[1])
    again = Evaluator(enc, "expert", family="beijing").evaluate(other, cands, 40, 3).pays
    np.testing.assert_array_equal(first, again)


def test_two_player_simulated_ev_is_within_its_interval_of_the_exact_one_at_the_last_tile():
    # wall_left=1, the seat to draw: it draws the last tile in play, then (waiting longest: the
    # opponent is not known to wait) the extra draws of 海底捞月, as the exact model counts them
    for i, hand in enumerate(READY):
        seen = "19m19p19s" if i % 2 else None
        exact = ds.advise(hand, rules=TWO, k=1, wall_left=1, seen=seen).iloc[0]
        sim = ds.advise(hand, rules=TWO, k=1, wall_left=1, seen=seen, method="simulate", n_sims=1500,
                        seed=100 + i, confidence=0.99).iloc[0]  # fmt: skip
        assert exact["ev"] > 0
        assert sim["ev_lo"] <= exact["ev"] <= sim["ev_hi"], (hand, exact["ev"], sim["ev_lo"], sim["ev_hi"])
        assert sim["p_win_lo"] <= exact["p_win"] <= sim["p_win_hi"], hand


def test_two_player_simulated_rows_weigh_the_declaration():
    a = ds.advise("234m456p678s2233z9m", rules=TWO, k=2, method="simulate", n_sims=60, seed=7)
    b = ds.advise("234m456p678s2233z9m", rules=TWO, k=2, method="simulate", n_sims=60, seed=7)
    assert a.equals(b) and a["ev"].is_monotonic_decreasing and a.attrs["family"] == "two_player"
    declared = a[a["action"] == "declare"]
    assert set(declared["discard"]) == {"9m"} and (declared["shanten"] == 0).all()
    assert len(a) == 13  # the 12 kinds held, 9m twice (declared or not)


@pytest.mark.parametrize("declared", [False, True])
def test_two_player_hidden_tiles_do_not_change_the_numbers(declared):
    # the opponent's concealed tiles, the live wall and the extra draws as loaded, shuffled among
    # themselves: the same sampling seed gives the same payments
    from daqing_sim.advisor.family_advise import advise_family
    from daqing_sim.advisor.family_simulate_tp import paused_deal_tp
    from daqing_sim.game.engine import C_BACK, C_FRONT
    from daqing_sim.players.registry import encode_strategies
    from daqing_sim.search.evaluator import Evaluator

    kw = {"ready": [1], "passed": {1: "19m"}} if declared else {}
    _, pos = advise_family("234m456p678s2233z9m", rules=TWO, k=1, ponds={1: "19m1p"}, wall_left=20, **kw)
    hand = ds.parse_hand("234m456p678s2233z9m", family="two_player")
    _, codes, knobs = encode_strategies(["expert"] * 2, None, "two_player")
    cands = [(8, False), (8, True), (29, False), (1, False)]  # 9m, 9m declaring 报听, 南, 2m
    deal, enc = paused_deal_tp(pos, hand, codes, knobs)
    first = Evaluator(enc, "expert", family="two_player").evaluate(deal, cands, 40, 3).pays
    other, _ = paused_deal_tp(pos, hand, codes, knobs)
    front, back = int(other.ctl[C_FRONT]), int(other.ctl[C_BACK])
    hidden = np.concatenate([np.repeat(np.arange(34), other.st.conc[1]), other.wall[front : back + 1]])
    np.random.default_rng(0).shuffle(hidden)
    n = int(other.st.conc[1].sum())
    other.st.conc[1] = np.bincount(hidden[:n], minlength=34)
    other.wall[front : back + 1] = hidden[n:]
    assert not np.array_equal(other.st.conc[1], deal.st.conc[1])
    again = Evaluator(enc, "expert", family="two_player").evaluate(other, cands, 40, 3).pays
    np.testing.assert_array_equal(first, again)
    assert np.ptp(first) > 0


def test_command_line_simulated_two_player(capsys):
    argv = ["advise", "234m456p678s2233z9m", "--rules", "family=two_player", "--method", "simulate"]
    assert main([*argv, "--sims", "30", "--k", "1"]) == 0
    out = capsys.readouterr().out
    assert "ev_vs_best" in out and "nan" not in out and "expert, expert (seed 0)" in out
    assert sum(line.split()[:2] == ["declare", "9m"] for line in out.splitlines()) == 1
