"""The simulated advisor (``ds.advise(method="simulate")``) and the danger columns: agreement with
the exact model where that model holds, the worlds it samples, determinism, errors, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.advisor import simulate as S
from daqing_sim.advisor import world
from daqing_sim.advisor.table import table_view
from daqing_sim.advisor.world import PHASE_DISCARDED, WorldSpec, load_world, needed_tiles, sample_world
from daqing_sim.cli import main
from daqing_sim.codes import CHI, N_KINDS
from daqing_sim.game.external import SteppedDeal
from daqing_sim.hand.notation import Meld, hand_from_arrays
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_from_name
from daqing_sim.players.examples_jitted import FIRST_TILE
from daqing_sim.players.registry import encode_strategies

# Nobody can claim (so nobody can open the door, declare ready or win but the advised seat,
# whose hand is open, and it wins by self-draw only) and no 换宝: the exact model's world.
EXACT_WORLD = ds.RuleSet(last_tiles_no_claim=58, bao_replacement=False)
# The advised seat plays expert; the others throw their draws and never declare kongs.
IDLE_FIELD = ("expert", "scripted", "scripted", "scripted")
HAND = "134m456p789s中中 [345m]"  # 4m: kanchan on 2m, 1m: two-sided 2m-5m


def _compare(seat, dealer, seen, wall_left, n_sims):
    kw = dict(seen=seen, wall_left=wall_left, rules=EXACT_WORLD, seat=seat, dealer=dealer)
    ex = ds.advise(HAND, k=1, **kw).set_index("discard")
    sim = ds.advise(
        HAND, k=1, method="simulate", field=IDLE_FIELD[-seat:] + IDLE_FIELD[:-seat], n_sims=n_sims, seed=11,
        confidence=0.999, **kw,
    ).set_index("discard")  # fmt: skip
    return ex, sim


def _inside(ex, sim, col, rows) -> list[str]:
    return [
        f"{d} {col}: exact {ex.loc[d, col]:.4f} outside "
        f"[{sim.loc[d, col + '_lo']:.4f}, {sim.loc[d, col + '_hi']:.4f}]"
        for d in rows
        if not sim.loc[d, col + "_lo"] - 1e-12 <= ex.loc[d, col] <= sim.loc[d, col + "_hi"] + 1e-12
    ]


@pytest.mark.parametrize("seat, dealer, seen, wall_left", [(0, 0, "19m2p", 20), (2, 1, "2m5m9s", 28)])
def test_simulated_agrees_with_exact_where_the_exact_model_holds(seat, dealer, seen, wall_left):
    """p_ready_1 of every discard (the expert declares whenever it can), and p_win and ev of the
    discards that leave a ready, locked hand (no decision left to play), within the simulated
    99.9% intervals (about 14 comparisons per case)."""
    ex, sim = _compare(seat, dealer, seen, wall_left, 1500)
    assert sorted(ex.index) == sorted(sim.index)
    ready_rows = ex.index[ex["shanten"] == 0]
    assert set(ready_rows) == {"1m", "4m"}
    bad = _inside(ex, sim, "p_ready_1", ex.index)
    bad += _inside(ex, sim, "p_win", ready_rows) + _inside(ex, sim, "ev", ready_rows)
    assert not bad, "; ".join(bad)
    assert (sim.loc[ready_rows, "p_win_hi"] - sim.loc[ready_rows, "p_win_lo"] < 0.1).all()  # sharp enough


def test_with_claims_and_deal_ins_the_simulated_seat_wins_more_than_the_exact_model_says():
    """The same comparison fails when the exact model does not hold (the test can fail): with
    the classic rules the ready seat also wins on the idle seats' discards."""
    kw = dict(seen="19m2p", wall_left=20)
    ex = ds.advise(HAND, k=1, **kw).set_index("discard")
    sim = ds.advise(HAND, k=1, method="simulate", field=IDLE_FIELD, n_sims=600, seed=11, **kw)
    sim = sim.set_index("discard")
    assert (sim.loc[["1m", "4m"], "p_win_lo"] > ex.loc[["1m", "4m"], "p_win"]).all()


def _spec(hand, seen, ready, melds, passed, ponds, wall_left):
    rules = ds.RuleSet()
    h = ds.parse_hand(hand)
    seen_c = ds.parse_hand(seen, require_full=False).total_counts().astype(np.int64)
    view = table_view(h, seen_c, ponds=ponds, melds=melds, passed=passed, ready=ready, seat=0)
    visible = view.seen.copy()
    for m in h.melds:
        for t in m.tiles:
            visible[t] += 1
    mk, mt, nm = h.meld_arrays()
    unseen = 4 - h.total_counts().astype(np.int64) - view.seen
    return WorldSpec(
        0, 0, h.counts.astype(np.uint8), mk, mt, nm, unseen,
        view.seen - view.pond_counts() - view.meld_counts(), visible.astype(np.uint8), view.ponds,
        view.melds, view.passed, view.ready, wall_left, rules.encode(), rules.require_open,
    )  # fmt: skip


def test_worlds_are_consistent_with_the_view_and_the_engine_accepts_them():
    spec = _spec(
        "14m456p789s中中5p [345m]", "99m22s3s4s2p", ready=(1, 3), melds={3: "[777p]"},  # seen: all 9m, 2s
        passed={1: "9m1s", 3: "1s"}, ponds={1: "9m5s", 3: "1s2s"}, wall_left=30,
    )  # fmt: skip
    tabs = get_tables()
    rules = spec.rules
    deal = SteppedDeal(rules, np.full(4, 5), np.zeros((4, 40)), 0)
    for i in range(40):
        w = sample_world(np.random.default_rng(i), spec, tabs)
        total = w.conc.sum(axis=0).astype(int) + w.pool + w.dead + np.bincount(w.wall, minlength=N_KINDS)
        total[w.bao] += 1
        for s in range(4):
            for j in range(w.nm[s]):
                m = Meld("chi" if w.mk[s, j] == CHI else "peng", int(w.mt[s, j]))
                for t in m.tiles:
                    total[t] += 1
        assert (total == 4).all()
        assert [int(w.conc[s].sum()) + 3 * int(w.nm[s]) for s in range(4)] == [14, 13, 13, 13]
        assert w.nm[3] == 1 and w.mt[3, 0] == tile_from_name("7p")  # the given meld
        assert (w.nm[1], w.mk[1, 0], w.mt[1, 0]) == (1, CHI, tile_from_name("2s"))  # 开门 from seen tiles
        for r, passed in ((1, ("9m", "1s")), (3, ("1s",))):
            assert (w.wk[r] >= 0).any()  # actually ready
            assert all(w.wk[r, tile_from_name(t)] < 0 for t in passed)
            assert ds.daqing_shanten(hand_from_arrays(w.conc[r], w.mk[r], w.mt[r], int(w.nm[r]))) == 0
        assert len(w.wall) == 30
        load_world(deal, w, spec, PHASE_DISCARDED)
        deal.resume(tile_from_name("中"), False)
        assert deal.done
        assert (deal.frow.sum(axis=0) == 4).all()  # tile conservation at the end of the deal


def test_a_ready_seat_needs_no_melds_in_either_model():
    # nothing seen makes a meld: the ready seat's open meld is drawn from the unseen tiles and
    # shown from then on (the simulated model used to demand melds=, the exact one never did)
    tabs = get_tables()
    no_meld = _spec(HAND, "", ready=(1,), melds=None, passed=None, ponds=None, wall_left=20)
    deal = SteppedDeal(no_meld.rules, np.full(4, 5), np.zeros((4, 40)), 0)
    for i in range(10):
        w = sample_world(np.random.default_rng(i), no_meld, tabs)
        assert w.nm[1] == 1 and w.visible.sum() == no_meld.visible.sum() + 3  # its meld, now shown
        total = w.conc.sum(axis=0).astype(int) + w.pool + w.dead + np.bincount(w.wall, minlength=N_KINDS)
        total[w.bao] += 1
        for s in range(4):
            for j in range(w.nm[s]):
                m = Meld("chi" if w.mk[s, j] == CHI else "peng", int(w.mt[s, j]))
                for t in m.tiles:
                    total[t] += 1
        assert (total == 4).all()
        load_world(deal, w, no_meld, PHASE_DISCARDED)
        deal.resume(tile_from_name("中"), False)
        assert deal.done and (deal.frow.sum(axis=0) == 4).all()
    # its three tiles are needed from the unseen ones when the seen tiles make no meld
    assert needed_tiles(((), (), (), ()), 0, (1,), True, np.zeros(N_KINDS)) == 1 + 10 + 13 + 13 + 3
    meldable = np.zeros(N_KINDS)
    meldable[:3] = 1
    assert needed_tiles(((), (), (), ()), 0, (1,), True, meldable) == 1 + 10 + 13 + 13
    kw = dict(ready=(1,), k=1)
    exact = ds.advise(HAND, **kw)
    sim = ds.advise(HAND, method="simulate", n_sims=20, **kw)
    assert set(exact["discard"]) == set(sim["discard"])


def test_impossible_worlds_are_one_line_errors(monkeypatch):
    tabs = get_tables()
    # every kind passed: no wait is left (a lower try limit keeps the test fast)
    every = "123456789m123456789p123456789s中"
    spec = _spec(HAND, every, ready=(1,), melds={1: "[999p]"}, passed={1: every}, ponds=None, wall_left=5)
    with monkeypatch.context() as m:
        m.setattr(world, "MAX_TRIES", 300)
        with pytest.raises(ValueError, match="no ready hand for seat 1 could be drawn"):
            sample_world(np.random.default_rng(0), spec, tabs)
    assert needed_tiles(((), (), (), ()), 0, (1,), True) == 1 + 10 + 13 + 13


def test_danger_is_zero_for_a_passed_tile_and_positive_for_a_live_middle_tile():
    hand = "14m456p789s中中5p [345m]"
    df = ds.advise(hand, seen="9s1m", ready=(1,), passed={1: "9s"}, k=1).set_index("discard")
    assert df.loc["9s", "danger"] == 0.0 and df.loc["9s", "danger_s1"] == 0.0
    assert df.loc["5p", "danger"] > df.loc["1m", "danger"] > 0.0  # a middle tile beats a terminal
    two = ds.advise(hand, seen="9s1m", ready=(1, 2), passed={1: "9s"}, k=1).set_index("discard")
    p1, p2 = two.loc["5p", "danger_s1"], two.loc["5p", "danger_s2"]
    assert two.loc["5p", "danger"] == pytest.approx(1 - (1 - p1) * (1 - p2))
    assert (
        two.loc["9s", "danger"] == pytest.approx(two.loc["9s", "danger_s2"])
        and two.loc["9s", "danger_s2"] > 0
    )
    none = ds.advise(hand, k=1)
    assert (none["danger"] == 0.0).all() and not any(c.startswith("danger_s") for c in none.columns)
    # the ready seat's own discards make the shapes waiting on them rarer (its pond)
    pond = ds.advise(hand, seen="9s1m", ready=(1,), ponds={1: "1p7p"}, k=1).set_index("discard")
    free = ds.advise(hand, seen="9s1m1p7p", ready=(1,), k=1).set_index("discard")
    assert pond.loc["4p", "danger"] < free.loc["4p", "danger"]


def test_simulated_is_deterministic_for_a_seed_and_independent_of_n_jobs():
    kw = dict(seen="9m", ready=(1,), melds={1: "[222p]"}, method="simulate", n_sims=40)
    a = ds.advise("14m456p789s中中5p [345m]", seed=4, **kw)
    b = ds.advise("14m456p789s中中5p [345m]", seed=4, **kw)
    c = ds.advise("14m456p789s中中5p [345m]", seed=5, **kw)
    assert a.equals(b) and not a.equals(c)
    d = ds.advise("14m456p789s中中5p [345m]", seed=4, n_jobs=2, **kw)  # worker processes
    assert a.equals(d)
    spec = _spec("14m456p789s中中5p [345m]", "9m", (1,), {1: "[222p]"}, None, None, 40)
    cands = [(PHASE_DISCARDED, tile_from_name(t), True) for t in ("1m", "中")]
    codes, knobs = np.full(4, 5), encode_strategies(["expert"] * 4)[2]
    whole = S.run_worlds(spec, cands, 0, 12, 9, codes, knobs, [None] * 4)
    parts = [S.run_worlds(spec, cands, a, b, 9, codes, knobs, [None] * 4) for a, b in ((0, 5), (5, 12))]
    assert (whole == np.concatenate(parts)).all()


def test_simulated_columns_and_a_13_tile_hand():
    df = ds.advise(HAND, ready=(2,), k=2, method="simulate", n_sims=30, melds={2: "[888s]"})
    assert list(df.columns[:6]) == ["action", "discard", "shanten", "outs", "out_tiles", "draws"]
    for col in ("p_ready_1", "p_ready_2", "p_win", "ev", "ev_vs_best"):
        assert ((df[col + "_lo"] <= df[col] + 1e-12) & (df[col] <= df[col + "_hi"] + 1e-12)).all()
    assert list(df.columns[-3:]) == ["danger", "danger_s2", "recommended"]
    assert df["ev"].is_monotonic_decreasing and df.loc[0, "ev_vs_best"] == 0.0
    assert df.attrs["field"] == ("expert",) * 4 and df.attrs["n_sims"] == 30
    one = ds.advise("13m456p789s中中 [345m]", method="simulate", n_sims=30, wall_left=8)
    assert one["action"].tolist() == ["draw"] and one.loc[0, "p_ready_1"] == 1.0  # ready: declares


class _Idle(ds.Player):
    """Throws its draw (else its first tile), never declares, claims or kongs."""

    def discard(self, obs):
        d = obs.drawn if obs.drawn is not None else int(np.flatnonzero(obs.hand)[0])
        return next(o for o in obs.legal_discards if o.tile == d and not o.declare)

    def claim(self, obs, options):
        return None


def test_python_players_in_the_field():
    idle = _Idle()
    df = ds.advise(
        HAND, seen="19m2p", wall_left=12, rules=EXACT_WORLD, k=1, method="simulate", n_sims=40,
        field=("expert", idle, idle, idle),
    )  # fmt: skip
    assert df.attrs["field"][1] == idle.label and (df.loc[df["shanten"] == 0, "p_ready_1"] == 1.0).all()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_sims": 0}, "too small"),
        ({"seed": -1}, "too small"),
        ({"confidence": 1.5}, "between 0 and 1"),
        ({"field": ("expert",)}, "four"),
        ({"field": "expert"}, "four seat strategies"),
        ({"field": ("expert", "nope", "expert", "expert")}, "unknown strategy"),
        ({"field": (FIRST_TILE,) * 4}, "JittedPlayer"),
        ({"claim": "5m"}, "13-tile hand"),
        ({"wall_left": 58, "seen": "19m"}, "impossible with the others' hands"),
        ({"ponds": {5: "1m"}}, "seats are 0, 1, 2, 3"),
        ({"ponds": "1m"}, "must be a dict"),
        ({"ponds": {1: "[345p]"}}, "use melds="),
        ({"melds": {1: "19m"}}, "loose tiles"),
        ({"melds": {0: "[222p]"}}, "advised seat"),
        ({"passed": {1: "9m"}}, "not ready"),
        ({"passed": {1: "9m"}, "ready": (1,)}, "not seen"),
        ({"ponds": {1: "2222p"}, "melds": {2: "[222p]"}}, "more than four copies of 2p"),
    ],
)
def test_bad_input_is_a_one_line_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message) as e:
        ds.advise(HAND, **{"method": "simulate", "n_sims": 5, **kwargs})
    assert "\n" not in str(e.value)


def test_simulated_claims_are_refused_in_one_line():
    with pytest.raises(ValueError, match="not available yet") as e:
        ds.advise("46m55p789s1s中中 [345m]", claim="5m", method="simulate")
    assert "\n" not in str(e.value)


def test_cli_simulated_table_and_json(capsys):
    argv = ["advise", "14m456p789s中中5p [345m]", "--ready", "1", "--melds", "1:[222p]", "--passed", "1:9m"]
    argv += ["--seen", "9m", "--method", "simulate", "--sims", "30", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "simulated: 30 deals" in out and "best first" in out and "±" in out  # ± half-widths
    assert max(sum(2 if ch == "中" else 1 for ch in x) for x in out.splitlines()) <= 100
    assert "out_tiles" in out and "so its p_ready_1 is higher" in " ".join(out.splitlines()[-3:])
    assert main([*argv, "--wide"]) == 0
    out = capsys.readouterr().out
    assert "danger_s1" in out and "% [" in out and "<- best" in out  # an interval beside its value
    assert main([*argv, "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert {"p_win_lo", "ev_hi", "danger", "danger_s1"} <= set(records[0]) and records[0]["recommended"]
    for bad in (["--ponds", "x:1m"], ["--sims", "0"], ["--passed", "1"]):
        assert main([*argv, *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
