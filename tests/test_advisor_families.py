"""The advisor for Beijing and two-player hands (``ds.advise(..., rules=RuleSet(family=...))``):
its exact ``k = 1`` values against a plain-Python brute force (tests/advisor_family_reference.py),
its claims, 报听 rows, danger, errors, command line and speed."""

from __future__ import annotations

import io
import json
import time

import numpy as np
import pytest
import reference_beijing as RB
from advisor_family_reference import values_k1, waits

import daqing_sim as ds
from daqing_sim.advisor.position import advice_lines
from daqing_sim.cli import main
from daqing_sim.game.play import play_terminal

N = 34
BEIJING = ds.RuleSet(family="beijing")
TWO = ds.RuleSet(family="two_player")
LIVE = {"beijing": 69, "two_player": 44}
SEATS = {"beijing": 4, "two_player": 2}


def _free(counts, melds):
    return 4 - np.array(RB.total_counts(list(counts), list(melds)))


def _near_ready(rng, family):
    """A 13-tile hand one or two tiles from a complete shape, sometimes with an exposed meld or a
    concealed kong; seven pairs and (two-player) thirteen orphans now and then."""
    while True:
        counts = np.zeros(N, dtype=int)
        melds = []
        shape = rng.integers(10)
        if shape == 0:  # seven pairs
            for t in rng.choice(N, size=7, replace=False):
                counts[t] += 2
        elif shape == 1 and family == "two_player":  # thirteen orphans
            orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
            counts[orphans] = 1
            counts[orphans[rng.integers(13)]] += 1
        else:
            n_melds = int(rng.choice([0, 0, 0, 1, 2]))
            ok = True
            for g in range(4):
                if rng.random() < 0.6:
                    s, r = rng.integers(3), rng.integers(7)
                    tiles, kind, low = [9 * s + r + i for i in range(3)], "chi", 9 * s + r
                else:
                    t = int(rng.integers(N))
                    tiles, kind, low = [t] * 3, "peng", t
                if g < n_melds:
                    if kind == "peng" and rng.random() < 0.3:
                        kind, tiles = rng.choice(["kong", "concealed_kong"]), [low] * 4
                    melds.append((str(kind), int(low)))
                else:
                    for t in tiles:
                        counts[t] += 1
            counts[rng.integers(N)] += 2
            if not ok:
                continue
        if (_free(counts, melds) < 0).any():
            continue
        for _ in range(int(rng.integers(0, 3))):  # 0-2 exchanges away
            held = np.flatnonzero(counts)
            counts[rng.choice(held)] -= 1
            free = np.flatnonzero(_free(counts, melds) > 0)
            counts[rng.choice(free)] += 1
        held = np.flatnonzero(counts)
        counts[rng.choice(held)] -= 1  # 13 tiles: the seat draws next
        return counts, melds


def _seen(rng, counts, melds, most=30):
    free = _free(counts, melds)
    n = int(rng.integers(0, most + 1))
    picks = rng.choice(np.repeat(np.arange(N), free), size=n, replace=False)
    return np.bincount(picks, minlength=N)


@pytest.mark.parametrize("family", ["beijing", "two_player"])
def test_exact_k1_matches_the_brute_force_on_300_hands(family):
    rules = ds.RuleSet(family=family)
    rng = np.random.default_rng(36 if family == "beijing" else 37)
    extra = rules.extra_draws if family == "two_player" else 0
    n_ready = n_win = 0
    for _ in range(300):
        counts, melds = _near_ready(rng, family)
        seen = _seen(rng, counts, melds)
        unseen = list(_free(counts, melds) - seen)
        wall = int(rng.integers(0, min(LIVE[family], sum(unseen)) + 1))
        flowers = ""
        if family == "two_player" and rng.random() < 0.5:
            f = int(rng.choice(np.flatnonzero(np.array(unseen) > 0)))
            flowers = RB.tile_name(f)
            unseen[f] -= 1
        hand = RB.notation(list(counts), melds)
        df = ds.advise(hand, seen=seen, wall_left=wall, k=1, rules=rules, flowers=flowers)
        row = df.iloc[0]
        n = SEATS[family]
        draws = -(-wall // n)  # the seat draws next: wall tiles 1, 1 + n, ...
        last = wall > 0 and (wall - 1) % n == 0  # ... and the last one is its own
        assert row["action"] == "draw" and row["draws"] == draws
        fl = (RB.tile_kind(flowers),) if flowers else ()
        p_ready, p_win, ev = values_k1(counts, tuple(melds), unseen, draws, family, last, extra, True, fl)
        assert row["p_ready_1"] == pytest.approx(p_ready, abs=1e-9), hand
        assert row["p_win"] == pytest.approx(p_win, abs=1e-9), hand
        assert row["ev"] == pytest.approx(ev, rel=1e-9, abs=1e-9), hand
        assert (row["shanten"] == 0) == bool(waits(tuple(counts), tuple(melds), family))
        n_ready += 0 < p_ready
        n_win += 0 < p_win
    assert n_ready > 100 and n_win > 50  # the hands exercise both parts of the model


def test_discard_rows_match_the_brute_force_and_declare_adds_the_riichi_fan():
    rng = np.random.default_rng(38)
    for family in ("beijing", "two_player"):
        rules = ds.RuleSet(family=family)
        extra = rules.extra_draws if family == "two_player" else 0
        for _ in range(6):
            counts, melds = _near_ready(rng, family)
            free = np.flatnonzero(_free(counts, melds) > 0)
            counts[rng.choice(free)] += 1  # 14 tiles
            seen = _seen(rng, counts, melds, 20)
            unseen = list(_free(counts, melds) - seen)
            df = ds.advise(RB.notation(list(counts), melds), seen=seen, k=1, rules=rules)
            wall = min(LIVE[family] - int(seen.sum()), sum(unseen))
            n = SEATS[family]
            draws, last = wall // n, wall >= n and wall % n == 0  # wall tiles n, 2n, ... are its own
            for _, row in df.iterrows():
                c = counts.copy()
                c[RB.tile_kind(row["discard"])] -= 1
                declared = row["action"] == "declare"
                want = values_k1(c, tuple(melds), unseen, draws, family, last, extra, declared)
                assert (row["p_ready_1"], row["p_win"]) == pytest.approx(want[:2], abs=1e-9)
                assert row["ev"] == pytest.approx(want[2], rel=1e-9, abs=1e-9)
            if family == "two_player" and all(kind == "concealed_kong" for kind, _ in melds):
                dec = df[df["action"] == "declare"].set_index("discard")
                plain = df[df["action"] == "discard"].set_index("discard")
                assert set(dec.index) == set(plain.index[plain["shanten"] == 0])
                for t in dec.index:  # one fan more on every win: a higher ev, the same odds
                    assert dec.loc[t, "p_win"] == plain.loc[t, "p_win"]
                    assert dec.loc[t, "ev"] >= plain.loc[t, "ev"]


def test_beijing_values_are_points_with_fans_and_the_open_half():
    # ready on 南 and 西 (2 unseen each of 122): 3 losers x 1,000 x F=1 on every win
    df = ds.advise("234m456p678s2233z9m", rules=BEIJING, k=1).set_index("discard")
    row = df.loc["9m"]
    assert row["shanten"] == 0 and row["ev"] == pytest.approx(3000 * row["p_win"])
    open_ = ds.advise("234m678s2233z9m [456p]", rules=BEIJING, k=1).set_index("discard").loc["9m"]
    assert open_["ev"] == pytest.approx(1500 * open_["p_win"])
    # 清一色 + 一条龙 (F = 9) on 1m, 4m, 7m and 9m waits of a 九莲 shape: far above a plain win
    nine = ds.advise("1112345678999m南", rules=BEIJING, k=1).set_index("discard").loc["南"]
    assert nine["ev"] > 3000 * 6 * nine["p_win"]


def test_two_player_values_are_fans_times_the_multiplier():
    base = ds.advise("234m456p678s2233z9m", rules=TWO, k=1).set_index(["action", "discard"])
    x5 = ds.advise("234m456p678s2233z9m", rules=ds.RuleSet(family="two_player", multiplier=5), k=1)
    x5 = x5.set_index(["action", "discard"])
    assert x5.loc[("declare", "9m"), "ev"] == pytest.approx(5 * base.loc[("declare", "9m"), "ev"])
    # a flower tile of a kind held twice: two more fans on every win
    fl = ds.advise("234m456p678s2233z9m", rules=TWO, k=1, flowers="7s").set_index(["action", "discard"])
    assert fl.loc[("discard", "9m"), "ev"] > base.loc[("discard", "9m"), "ev"]


def test_claims_win_pass_chi_peng_kong():
    df = ds.advise("46m55p789s东东南 [345m]", claim="5m", rules=BEIJING, k=1)
    assert df["action"].tolist()[0] == "chi [456m]" and "pass" in df["action"].tolist()
    # a tile that completes the hand is won at once (the engine takes every undeclared win)
    win = ds.advise("234m456p678s2233z", claim="南", claim_from=2, rules=BEIJING, k=1)
    assert win.iloc[0]["action"] == "win" and win.iloc[0]["ev"] == 1000
    assert "peng [南南南]" in win["action"].tolist()
    assert "chi" not in " ".join(win["action"])  # 南 is an honor
    tp = ds.advise("234m456p678s2233z", claim="南", rules=TWO, k=1)
    assert tp.iloc[0]["action"] == "win" and tp.iloc[0]["ev"] == 1  # 门清 only: F = 1
    last = ds.advise("234m456p678s2233z", claim="南", wall_left=0, rules=BEIJING, k=1)
    assert last["action"].tolist() == ["win", "pass"]  # only a win may claim the last discard
    assert last.iloc[0]["ev"] == 2000  # plain win + last discard: F = 2
    kong = ds.advise("222m456p678s233z9m", claim="2m", claim_from=1, rules=BEIJING, k=1)
    assert {"pass", "peng [222m]", "kong [2222m]"} <= set(kong["action"])


def test_danger_is_the_experts_reading():
    # Beijing: a seat with three open melds and a long pond is likely ready
    df = ds.advise("234m456p678s2233z9m", rules=BEIJING, k=1, melds={1: "[111s] [999p] [东东东]"},
                   ponds={1: "1m2m3m9s8s7s白白发", 2: "19m", 3: "19p", 0: "1s"})  # fmt: skip
    d = df.set_index("discard")
    assert d["danger_s1"].max() > 10 * max(d["danger_s2"].max(), d["danger_s3"].max())
    assert d["danger"].max() > 0.01 and (d["danger"] >= d["danger_s1"]).all()
    # two-player: only a declared opponent; a tile it let pass is safe
    tp = ds.advise("234m456p678s2233z9m", rules=TWO, k=1, ready=(1,), ponds={1: "9m1p"}, passed={1: "9m"})
    t = tp.set_index(["action", "discard"])
    assert t.loc[("discard", "9m"), "danger"] == 0.0 and t.loc[("discard", "2m"), "danger"] > 0
    quiet = ds.advise("234m456p678s2233z9m", rules=TWO, k=1)
    assert (quiet["danger"] == 0).all()


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"rules": BEIJING, "concealed": (True,) * 4}, "concealed= is not a Beijing option"),
        ({"rules": BEIJING, "ready": (1,)}, "ready= is not a Beijing option"),
        ({"rules": BEIJING, "flowers": "5p"}, "flowers= is not a Beijing option"),
        ({"rules": TWO, "seat": 2}, "seat=2 is out of range: the seats are 0, 1"),
        ({"rules": TWO, "flowers": "5p5s"}, "2 flower tiles given"),
        ({"rules": BEIJING, "method": "nope"}, "method='nope' is unknown"),
        ({"rules": TWO, "method": "simulate", "field": ("expert",) * 4}, "field must be two built-in"),
        ({"rules": BEIJING, "k": 5}, "k=5 is too deep"),
        ({"rules": BEIJING, "wall_left": 80}, "wall_left=80 is impossible"),
        ({"flowers": "5p"}, "flowers= is a two-player option"),
    ],
)
def test_bad_input_gets_one_line_errors(kwargs, words):
    with pytest.raises(ValueError, match=words) as e:
        ds.advise("234m456p678s2233z9m", **kwargs)
    assert "\n" not in str(e.value)


def test_a_15_tile_hand_and_an_unknown_family_get_one_line_errors():
    with pytest.raises(ValueError, match="15 in all") as e:
        ds.advise("234m456p678s2233z99m", rules=BEIJING)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="unknown rule family 'riichi'") as e:
        ds.RuleSet(family="riichi")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="kong_fan is a Daqing flag") as e:
        ds.RuleSet(family="beijing", kong_fan=True)


def test_command_line_families(capsys):
    assert main(["advise", "234m456p678s2233z9m", "--k", "1", "--rules", "family=beijing", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["discard"] == "9m" and rows[0]["recommended"]
    assert main(["advise", "234m456p678s2233z9m", "--k", "1", "--rules", "family=two_player",
                 "--flowers", "2z"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "declare" in out and "F x multiplier" in out
    assert main(["advise", "234m456p678s2233z9m", "--rules", "family=beijing", "--ready", "1"]) == 2
    err = capsys.readouterr().err
    assert "--ready is not a Beijing option" in err and len(err.strip().splitlines()) == 1
    for argv, words in [
        (["--rules", "family=riichi"], "unknown rule family 'riichi'"),
        (["--rules", "family=beijing", "--rules", "kong_fan=true"], "kong_fan is a Daqing flag"),
        (["--rules", "family=two_player", "--seat", "3"], "--seat 3 is out of range: the seats are 0, 1"),
        (["--rules", "family=beijing", "--flowers", "5p"], "--flowers is not a Beijing option"),
    ]:
        assert main(["advise", "234m456p678s2233z9m", *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, err
    with pytest.raises(SystemExit) as e:  # argparse's own exit, one line too
        main(["advise", "234m456p678s2233z9m", "--rules", "family=beijing", "--bogus", "3"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--bogus 3: no such option" in err and len(err.strip().splitlines()) == 1
    assert main(["advise", "234m456p678s2233z99m", "--rules", "family=beijing"]) == 2
    err = capsys.readouterr().err
    assert "15 in all" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("family, seats", [("beijing", (0, 1, 2, 3)), ("two_player", (0, 1))])
def test_play_question_mark_rates_every_decision_of_the_families(family, seats):
    # the table read from each observation of real deals is consistent: every discard and claim
    # is rated (the wall's undrawn tiles, melds, ponds and a declared opponent read right)
    rules = ds.RuleSet(family=family)
    for seat in seats:
        out = io.StringIO()
        game = play_terminal(
            5, seat, seat=seat, rules=rules, stdin=io.StringIO("?\n\n" * 300), stdout=out, advice=advice_lines
        )
        asked = sum(d != "kong" for d, _ in game.answers)
        assert out.getvalue().count("advisor (exact model") == asked > 0, out.getvalue()[-2000:]


def test_drawn_as_tiles_in_jupyter():
    html = ds.advise("234m456p678s2233z9m", rules=BEIJING, k=1)._repr_html_()
    assert 'data-tile="29"' in html and "★" in html  # 南 drawn as its tile


def test_exact_advice_median_under_a_second():
    rng = np.random.default_rng(39)
    ds.advise("234m456p678s2233z9m", rules=BEIJING, k=3)  # compiled before the clock starts
    times = []
    for i in range(12):
        family = ("beijing", "two_player")[i % 2]
        counts, melds = _near_ready(rng, family)
        counts[rng.choice(np.flatnonzero(_free(counts, melds) > 0))] += 1
        t = time.perf_counter()
        ds.advise(RB.notation(list(counts), melds), k=3, rules=ds.RuleSet(family=family))
        times.append(time.perf_counter() - t)
    assert np.median(times) < 1.0
