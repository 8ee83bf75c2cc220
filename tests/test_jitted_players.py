"""User jitted players (``ds.JittedPlayer``): written outside the package, run in the engine as
first-class functions, legal and reproducible, from seat lists and experiment files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim.codes import PASS
from daqing_sim.game.simulate import CHUNK
from daqing_sim.game.state import new_deal_state
from daqing_sim.players.examples_jitted import CAUTIOUS, FIRST_TILE
from daqing_sim.players.observation import make_observation

PAY = [f"pay_{s}" for s in range(4)]


def highest_tile(kn, obs, rules, tabs):
    """A user's discard: the highest tile kind held."""
    for t in range(27, -1, -1):
        if obs.hand[t] > 0:
            return np.int64(t), False
    return np.int64(0), False


def never(kn, obs, rules, tabs, t, options):
    return np.int64(PASS)


HIGHEST = ds.JittedPlayer(highest_tile, never, name="highest")


def test_jitted_players_play_legal_reproducible_deals():
    seats = (HIGHEST, "greedy", CAUTIOUS, FIRST_TILE)
    start = CHUNK - 20
    one = ds.simulate(40, strategies=seats, seed=4, start=start)
    two = ds.simulate(40, strategies=seats, seed=4, start=start, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert (one[PAY].sum(axis=1) == 0).all()
    assert [str(one[f"strategy_{s}"].iloc[0]) for s in range(4)] == [
        "highest",
        "greedy",
        "cautious",
        "first_tile",
    ]


def test_a_jitted_player_decides_what_its_function_says():
    # CAUTIOUS folds at fold_shanten; at a huge fold_shanten it is greedy move for move
    same = ds.simulate(150, strategies=(("greedy",) * 3 + ("greedy",)), seed=6)
    twin = ds.simulate(150, strategies=(CAUTIOUS,) * 4, seed=6, knobs=({"fold_shanten": 99},) * 4)
    pd.testing.assert_frame_equal(
        twin.drop(columns=[f"strategy_{s}" for s in range(4)]),
        same.drop(columns=[f"strategy_{s}" for s in range(4)]),
    )
    folding = ds.simulate(150, strategies=(CAUTIOUS,) * 4, seed=6, knobs=({"fold_shanten": 0},) * 4)
    assert not folding[PAY].equals(same[PAY])
    # the highest-tile player throws 中 first whenever it holds one: its first discards show it
    with_zhong = 0
    for deal in range(12):
        lines = ds.replay(6, deal, strategies=(HIGHEST, "greedy", "greedy", "greedy"))
        if "中" not in lines[1]:  # seat 0's dealt hand
            continue
        first = next(line for line in lines if "seat 0 discards" in line)
        assert "discards 中" in first, (deal, lines[1], first)
        with_zhong += 1
    assert with_zhong >= 3


def test_observation_types_match_the_documented_signature():
    import numba

    _, obs = new_deal_state()
    assert numba.typeof(obs) == numba.typeof(make_observation(np.zeros(28, np.uint8)))


def test_bad_jitted_players_are_one_line_errors():
    def wrong(kn, obs, rules, tabs):
        return obs.no_such_field, False

    with pytest.raises(ValueError, match="does not compile for the documented signature") as err:
        ds.simulate(2, strategies=(ds.JittedPlayer(wrong, name="wrong"), "greedy", "greedy", "greedy"))
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="unknown knob"):
        ds.simulate(2, strategies=(CAUTIOUS,) * 4, knobs=({"nope": 1},) * 4)
    with pytest.raises(ValueError, match="plain name"):
        ds.JittedPlayer(highest_tile, name="a:b")
    from daqing_sim.players.examples import RandomLegal

    with pytest.raises(ValueError, match="mixes Python players and JittedPlayers"):
        ds.simulate(2, strategies=(CAUTIOUS, RandomLegal(), "greedy", "greedy"))


def test_jitted_player_from_a_module_spec():
    df = ds.simulate(
        5, strategies=("daqing_sim.players.examples_jitted:CAUTIOUS", "greedy", "greedy", "greedy")
    )
    assert str(df["strategy_0"].iloc[0]) == "cautious"


def test_the_engine_is_one_specialization_typed_with_first_class_functions():
    # With or without JittedPlayers the engine's ufns argument is first-class functions, so one
    # specialization serves both and no cache index holds a dispatcher type (whose re-pickling
    # failed with "ReferenceError: underlying object has vanished" when a later process added an
    # entry to the cache index).
    from numba import types

    from daqing_sim.game.engine import play_batch_k

    ds.simulate(3, strategies=("greedy",) * 4, seed=1)
    ds.simulate(3, strategies=(HIGHEST, "greedy", "greedy", "greedy"), seed=1)
    ds.deal_log(1, 0)
    assert play_batch_k.signatures
    for sig in play_batch_k.signatures:
        ufns = sig[-1]
        assert all(isinstance(f, types.FunctionType) for group in ufns for f in group), ufns
    assert len({sig[:-1] for sig in play_batch_k.signatures}) == len(play_batch_k.signatures)


def highest_of_any_family(kn, obs, rules, tabs):
    """The highest kind held, on the observation's own width (28 Daqing, 34 Beijing kinds)."""
    for t in range(obs.hand.shape[0] - 1, -1, -1):
        if obs.hand[t] > 0:
            return np.int64(t), False
    return np.int64(0), False


def test_a_jitted_player_plays_beijing_and_sees_its_34_kinds():
    """Under Beijing a JittedPlayer gets the 34-kind observation (the same numba type as
    Daqing's, so the same compiled function plays both) and its choices are the deal's."""
    bj = ds.RuleSet(family="beijing")
    player = ds.JittedPlayer(highest_of_any_family, never, name="highest_any")
    seats = (player, "greedy", "greedy", "greedy")
    df = ds.simulate(200, seed=2, rules=bj, strategies=seats)
    assert (df.strategy_0 == "highest_any").all() and (df[PAY].sum(axis=1) == 0).all()
    assert df.pay_0.mean() < df.pay_1.mean()  # throwing its best tiles loses
    log = ds.deal_log(2, 0, rules=bj, strategies=seats)
    held = np.zeros(34, int)
    n_discards = 0
    for e in log.itertuples():  # every discard of seat 0 is the highest kind it holds
        if e.seat != 0:
            continue
        if e.event in ("deal", "draw", "kong_draw"):
            held[e.tile] += 1
        elif e.event == "discard":
            assert e.tile == np.flatnonzero(held).max(), (e.step, e.tile)
            held[e.tile] -= 1
            n_discards += 1
        elif e.event in ("claim", "concealed_kong", "added_kong"):
            break  # the hand changes by a meld: the check stops there
    assert n_discards >= 3 and log[(log.seat == 0) & (log.event == "discard")].tile.max() >= 27
