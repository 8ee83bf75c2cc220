"""simulate(): the DataFrame contract, reproducibility, n_jobs and chunking invariance."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from daqing_sim.bench import deals_per_second
from daqing_sim.codes import WAIT_KINDS
from daqing_sim.game.simulate import simulate, simulate_walls
from daqing_sim.game.wall import BLOCK, generate_walls
from daqing_sim.rules import RuleSet

RANDOM4 = ("random",) * 4

# docs/DESIGN.md, "Results DataFrame"
EXPECTED = {
    "deal": "int64",
    "outcome": "category",
    "winner": "int8",
    "discarder": "int8",
    "dealer": "int8",
    "big": "bool",
    "bao": "category",
    "wait_kind": "category",
    "win_tile": "category",
    "draws": "int16",
    **{f"pay_{s}": "int32" for s in range(4)},
    **{f"fans_{s}": "int8" for s in range(4)},
    **{f"ready_turn_{s}": "int16" for s in range(4)},
    **{f"ready_wait_{s}": "category" for s in range(4)},
    **{f"ready_outs_{s}": "int8" for s in range(4)},
    **{f"concealed_{s}": "bool" for s in range(4)},
    "winner_kongs": "int8",
    "bao_replacements": "int8",
    **{f"own_draws_{s}": "int16" for s in range(4)},
    **{f"ready_wait_tiles_{s}": "int8" for s in range(4)},
    **{f"ready_wait_mask_{s}": "int8" for s in range(4)},
    **{f"strategy_{s}": "category" for s in range(4)},
}


def test_columns_and_dtypes():
    df = simulate(300, strategies=("greedy", "random", "jia_hunter", "defensive"), seed=2)
    assert list(df.columns) == list(EXPECTED)
    assert {c: str(t) for c, t in df.dtypes.items()} == EXPECTED
    assert df["deal"].tolist() == list(range(300))
    assert set(df["outcome"].cat.categories) == {
        "self_draw",
        "deal_in",
        "deal_in_not_ready",
        "exhaustive_draw",
    }
    assert list(df["bao"].cat.categories) == ["none", "bao", "bao_edge", "bao_in_bao"]
    assert list(df["wait_kind"].cat.categories) == [
        "kanchan",
        "edge",
        "single",
        "dual_pair",
        "two_sided",
        "none",
    ]
    assert len(df["win_tile"].cat.categories) == 28
    assert df.loc[df["winner"] < 0, "win_tile"].isna().all()
    assert df.loc[df["winner"] >= 0, "win_tile"].notna().all()
    assert (df["wait_kind"] == "none").equals(df["winner"] < 0)
    assert df["strategy_1"].eq("random").all() and df["strategy_3"].eq("defensive").all()
    never = df["ready_turn_0"] < 0
    assert (df.loc[never, "ready_wait_0"] == "none").all() and (df.loc[never, "ready_outs_0"] == -1).all()
    assert (df.loc[~never, "ready_wait_0"] != "none").all() and (df.loc[~never, "ready_outs_0"] >= 0).all()


def test_record_hands_adds_winner_hand():
    df = simulate(200, strategies=RANDOM4, seed=4, record_hands=True)
    assert list(df.columns) == [*EXPECTED, "winner_hand"]
    assert str(df["winner_hand"].dtype) == "string"
    assert df["winner_hand"].isna().equals(df["winner"] < 0)
    plain = simulate(200, strategies=RANDOM4, seed=4)
    pd.testing.assert_frame_equal(df.drop(columns="winner_hand"), plain)


def test_reproducible_and_seed_dependent():
    a = simulate(500, strategies=RANDOM4, seed=11)
    b = simulate(500, strategies=RANDOM4, seed=11)
    c = simulate(500, strategies=RANDOM4, seed=12)
    pd.testing.assert_frame_equal(a, b)
    assert not a["outcome"].equals(c["outcome"])


def test_chunking_invariance():
    whole = simulate(BLOCK + 40, strategies=("greedy", "random", "random", "random"), seed=3)
    part = simulate(60, strategies=("greedy", "random", "random", "random"), seed=3, start=BLOCK - 20)
    pd.testing.assert_frame_equal(
        part.reset_index(drop=True), whole.iloc[BLOCK - 20 :].reset_index(drop=True)
    )
    assert part["deal"].iloc[0] == BLOCK - 20


def test_n_jobs_identical():
    n = BLOCK + 500  # two chunks
    one = simulate(n, strategies=RANDOM4, seed=6, n_jobs=1)
    two = simulate(n, strategies=RANDOM4, seed=6, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)


def test_simulate_walls_matches_simulate():
    walls, _, seeds = generate_walls(50, seed=8, start=100)
    a = simulate_walls(walls, seeds, strategies=RANDOM4, first_deal=100)
    b = simulate(50, strategies=RANDOM4, seed=8, start=100)
    pd.testing.assert_frame_equal(a, b)


def test_dealer_rules_and_knobs_change_the_simulation():
    base = simulate(400, strategies=RANDOM4, seed=1)
    moved = simulate(400, strategies=RANDOM4, seed=1, dealer=2)
    assert (moved["dealer"] == 2).all() and not base["winner"].equals(moved["winner"])
    no_swap = simulate(400, strategies=RANDOM4, seed=1, rules=RuleSet(bao_replacement=False))
    assert base["bao_replacements"].sum() > 0 and no_swap["bao_replacements"].sum() == 0
    jia = [("jia_hunter", {"min_outs_fraction": f}) for f in (0.0, 1.0)]
    x = simulate(300, strategies=(jia[0], "greedy", "greedy", "greedy"), seed=1)
    y = simulate(300, strategies=(jia[1], "greedy", "greedy", "greedy"), seed=1)
    assert not x["ready_wait_0"].equals(y["ready_wait_0"])
    z = simulate(
        300,
        strategies=("jia_hunter", "greedy", "greedy", "greedy"),
        seed=1,
        knobs=[{"min_outs_fraction": 0.0}, None, None, None],
    )
    pd.testing.assert_frame_equal(x, z)


def test_empty():
    df = simulate(0)
    assert len(df) == 0 and list(df.columns) == list(EXPECTED)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_deals": -1}, "n_deals=-1"),
        ({"n_deals": 2.5}, "n_deals must be a whole number"),
        ({"seed": -3}, "seed=-3"),
        ({"seed": "x"}, "seed must be a whole number"),
        ({"start": -1}, "start=-1"),
        ({"dealer": 4}, "dealer=4 is out of range"),
        ({"n_jobs": 0}, "n_jobs=0"),
        ({"rules": {"kong_fan": True}}, "rules must be a RuleSet"),
        ({"strategies": ("greedy",) * 3}, "one per seat"),
        ({"strategies": "greedy"}, "four strategy names"),
        ({"strategies": ("greedy", "smart", "greedy", "greedy")}, "valid strategies: greedy, jia_hunter"),
        ({"strategies": (("greedy", {"fold_shanten": 1}),) * 4}, "valid knobs: none"),
        ({"strategies": (("defensive", {"fold": 1}),) * 4}, "valid knobs: fold_shanten"),
        ({"strategies": (("jia_hunter", {"min_outs_fraction": 2}),) * 4}, "min_outs_fraction=2"),
        ({"record_hands": "yes"}, "record_hands must be True or False"),
    ],
)
def test_bad_input_raises(kwargs, match):
    args = {"n_deals": 5, **kwargs}
    with pytest.raises(ValueError, match=match):
        simulate(**args)


def test_simulate_walls_validates():
    walls, _, seeds = generate_walls(2, seed=0)
    bad = walls.copy()
    bad[0, 0] = bad[0, 1] = 27
    bad[0, 2] = 27
    with pytest.raises(ValueError, match="not a full set"):
        simulate_walls(bad if (np.bincount(bad[0], minlength=28) != 4).any() else bad[:, :111], seeds)
    with pytest.raises(ValueError, match="one seed per wall"):
        simulate_walls(walls, seeds[:1])
    with pytest.raises(ValueError, match="shape"):
        simulate_walls(walls[:, :100], seeds)


def test_deals_per_second():
    rate = deals_per_second(RANDOM4, n_deals=300, repeat=2)
    assert isinstance(rate, float) and 0 < rate < float("inf")  # a rate, not a speed requirement
    with pytest.raises(ValueError, match="repeat"):
        deals_per_second(RANDOM4, n_deals=300, repeat=0)


def test_own_draws_and_whole_waits_are_consistent():
    df = simulate(1500, seed=21, strategies=("greedy", "random", "jia_hunter", "defensive"))
    own = df[[f"own_draws_{s}" for s in range(4)]].to_numpy()
    assert (own.sum(axis=1) == df["draws"]).all()  # every live-wall draw is some seat's own draw
    for s in range(4):
        ready = df[f"ready_turn_{s}"] >= 0
        assert (df.loc[ready, f"ready_turn_{s}"] <= df.loc[ready, f"own_draws_{s}"]).all()
        tiles, mask = df[f"ready_wait_tiles_{s}"], df[f"ready_wait_mask_{s}"].astype(int)
        assert ((tiles >= 1) == ready).all() and ((mask > 0) == ready).all()
        # the label is the lowest kind code present in the whole wait
        lowest = np.log2(mask[ready] & -mask[ready]).astype(int)
        labels = df.loc[ready, f"ready_wait_{s}"].astype(str).map(WAIT_KINDS.index)
        assert (lowest.to_numpy() == labels.to_numpy()).all()
        # a wait with more winning kinds than kinds of wait: bits never exceed the tiles
        bits = np.array([bin(m).count("1") for m in mask[ready]])
        assert (bits <= tiles[ready].to_numpy()).all()
    assert (df[[f"ready_wait_tiles_{s}" for s in range(4)]].to_numpy() >= 2).any()


def test_bench_evaluator_times_each_kernel_and_the_api_alternately(monkeypatch):
    from daqing_sim import bench

    calls = []
    real = bench._rates_alternated

    def spy(fns, n, repeat=7):
        calls.append(sorted(fns))
        return real(fns, n, repeat=2)

    monkeypatch.setattr(bench, "_rates_alternated", spy)
    rates = bench.bench_evaluator(2_000)
    assert calls == [["standard_shanten", "standard_shanten_api"]]
    assert set(rates) == {"standard_shanten", "standard_shanten_api", "wait_set", "daqing_shanten"}
    assert all(np.isfinite(v) and v > 0 for v in rates.values())
