"""Beijing deals in the one engine, checked move by move (tests/beijing_deal_check.py, the plain-
Python reference of the rules) on logged deals of greedy and random fields, and on walls built
for one mechanic each.

Sizes: ``BEIJING_DEAL_CHECKS`` deals per field (default 150; ``1000`` for the full check).
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest
from beijing_deal_check import check_deal

import daqing_sim as ds
from daqing_sim.families.beijing.frame import beijing_frame
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.wall import compose_wall, generate_walls
from daqing_sim.players.registry import encode_strategies

BEIJING = ds.RuleSet(family="beijing")
N_DEALS = int(os.environ.get("BEIJING_DEAL_CHECKS", "150"))


GREEDY = ("greedy",) * 4


def _logged(wall, seed, strategies):
    names, codes, knobs = encode_strategies(strategies, None)
    raw = run_walls(
        wall[None, :],
        np.array([seed], dtype=np.uint64),
        BEIJING,
        codes,
        knobs,
        record_final=True,
        record_log=True,
    )
    row = beijing_frame(raw["out"], 0, 0, names).iloc[0]
    return raw["log"], row, raw["final"][0]


@pytest.mark.parametrize("field", [("greedy",) * 4, ("random",) * 4, ("greedy", "random") * 2])
def test_logged_deals_follow_the_rules_move_by_move(field):
    walls, _, seeds = generate_walls(N_DEALS, seed=2026, family="beijing")
    seen: Counter = Counter()
    for i in range(N_DEALS):
        log, row, final = _logged(walls[i], seeds[i], field)
        seen += check_deal(walls[i], log, row, final)
    # the mechanics every field shows in a sample this size (the rarer ones: walls built below)
    for mechanic in ("deal_in", "claim", "kong"):
        assert seen[mechanic] > 0, (mechanic, seen)
    assert seen["deal_in"] + seen["self_draw"] + seen["robbed_added_kong"] + seen["exhaustive"] == N_DEALS


def _deal(walls, seeds, i, field):
    log, row, final = _logged(walls[i], seeds[i], field)
    return check_deal(walls[i], log, row, final)


@pytest.fixture(scope="module")
def greedy_run():
    """20,000 greedy deals (seed 5), where the rarer mechanics happen often enough to pick."""
    walls, _, seeds = generate_walls(20_000, seed=5, family="beijing")
    df = ds.simulate(20_000, seed=5, rules=BEIJING, strategies=("greedy",) * 4)
    return walls, seeds, df


@pytest.mark.parametrize(
    "what, pick, mechanic",
    [
        ("a robbed added kong", lambda df: df.robbed_kong, "robbed_added_kong"),
        ("烧庄", lambda df: df.burn_rounds > 0, "burn_paid"),
        ("a win on the last discard", lambda df: df.fan_last_discard, "last_discard_win"),
        ("互包 paid", lambda df: df.mutual_payer >= 0, "mutual_payment"),
        ("the wall's end after two kongs", lambda df: (df.deal_kongs >= 2) & (df.winner < 0), "exhaustive"),
        ("a kong's replacement won (杠上开花)", lambda df: df.fan_kong_bloom, "kong_bloom"),
    ],
)
def test_rare_mechanics_follow_the_rules_where_they_happen(greedy_run, what, pick, mechanic):
    walls, seeds, df = greedy_run
    deals = df.deal[pick(df)].to_numpy()[:3]
    assert len(deals) > 0, f"no deal with {what} in 20,000"
    for i in deals:
        assert _deal(walls, seeds, int(i), ("greedy",) * 4)[mechanic] >= 1, (what, i)


# the dealer (seat 0) holds four 5p and declares the concealed kong at once; seat 1 waits on 5p
# (an honor's concealed kong can never be robbed: a hand waiting on one copy holds another)
_DEALER = "5555p2468s中南西北白发"
_OTHERS = ("123p13579s南西北白发", "2346789m56677s8s")


def _kong_wall(robber: str) -> np.ndarray:
    from reference_beijing import parse

    def tiles(text):
        counts, _ = parse(text)
        return [t for t in range(34) for _ in range(counts[t])]

    hands = [tiles(_DEALER), tiles(robber), tiles(_OTHERS[0]), tiles(_OTHERS[1])]
    return compose_wall(hands, bao=None, family="beijing")


@pytest.mark.parametrize(
    "robber, flag, robbed",
    [
        ("123456789m46p东东", True, True),  # wins on 5p with 一条龙: may rob the concealed kong
        ("123456789m46p东东", False, False),  # rob_concealed_kong_with_dragon=false
        ("123m456m789p46p东东", True, False),  # wins on 5p without the dragon: may not
    ],
)
def test_a_concealed_kong_is_robbed_only_by_a_dragon(robber, flag, robbed):
    wall = _kong_wall(robber)
    rules = ds.RuleSet(family="beijing", rob_concealed_kong_with_dragon=flag)
    names, codes, knobs = encode_strategies(("greedy",) * 4, None)
    raw = run_walls(
        wall[None, :], np.array([1], dtype=np.uint64), rules, codes, knobs, record_final=True, record_log=True
    )
    row = beijing_frame(raw["out"], 0, 0, names).iloc[0]
    assert raw["log"][0][0] == 4 and raw["log"][0][2] == 13, "the dealer's first act is the kong of 5p"
    assert bool(row.robbed_kong) == robbed
    if robbed:
        assert row.winner == 1 and row.discarder == 0 and row.fan_dragon
        assert row.pay_0 == -3 * row.value and row.pay_1 == 3 * row.value  # the declarer pays it all
    if flag:  # the checker reads the default rules
        seen = check_deal(wall, raw["log"], row, raw["final"][0])
        assert seen["robbed_concealed_kong"] == int(robbed)


@pytest.mark.parametrize(
    "flags, column, expected",
    [
        ({"rob_added_kong": False}, "robbed_kong", 0),
        ({"burn_dealer": False}, "burn_rounds", 0),
        ({"mutual_bao": False}, "mutual_bindings", 0),
        ({"mutual_bao": False}, "mutual_payer", -3000),
    ],
)
def test_switching_a_mechanic_off(flags, column, expected):
    df = ds.simulate(3000, seed=5, rules=ds.RuleSet(family="beijing", **flags), strategies=("greedy",) * 4)
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    assert df[column].sum() == expected
    on = ds.simulate(3000, seed=5, rules=BEIJING, strategies=("greedy",) * 4)
    assert on[column].sum() != expected, "the mechanic never happens with the flag on: no test"


def test_without_mutual_bao_no_pair_is_bound_in_the_log_the_replay_or_the_row():
    """互包 off: the claims that would bind a pair bind nobody (the payments never used the
    binding; the log, the replay and ``mutual_bindings`` showed it until issue 39). The same deal
    under the default rules binds seats 1 and 0, so the check can fail."""
    off = ds.RuleSet(family="beijing", mutual_bao=False)
    for rules, bound in ((BEIJING, True), (off, False)):
        log = ds.deal_log(5, 44, rules=rules, strategies=GREEDY)
        assert (log.event == "mutual_bao").any() == bound, rules
        lines = ds.replay(5, 44, rules=rules, strategies=GREEDY)
        assert any("(互包)" in line for line in lines) == bound, rules
        row = ds.simulate(45, seed=5, rules=rules, strategies=GREEDY).iloc[44]
        assert (row.mutual_bindings > 0) == bound, rules


def test_the_wall_ends_at_dead_wall_tiles_plus_two_per_kong_after_the_first():
    for dead in (14, 30):
        df = ds.simulate(
            2000, seed=3, rules=ds.RuleSet(family="beijing", dead_wall_tiles=dead), strategies=("random",) * 4
        )
        drawn = df[df.winner < 0]
        # 136 - 53 dealt = 83 to draw, of which dead + 2 * (kongs - 1) stay
        left = 83 - drawn.draws
        assert (left == dead + 2 * (drawn.deal_kongs - 1).clip(lower=0)).all()
        assert len(drawn) > 100


# --- the log and the replay show Beijing's mechanics ------------------------------------------


def test_deal_log_and_replay_show_a_robbed_kong(greedy_run):
    _, _, df = greedy_run
    deal = int(df.deal[df.robbed_kong].iloc[0])
    log = ds.deal_log(5, deal, rules=BEIJING, strategies=GREEDY)
    assert "bao" not in set(log.event) and int(log.loc[log.event == "final", "count"].sum()) == 136
    robbed = log[log.event == "robbed_kong"]
    assert len(robbed) == 1
    win = log[log.event == "win"].iloc[0]
    assert win.seat == robbed.seat.iloc[0] and win.from_seat == robbed.from_seat.iloc[0]
    lines = ds.replay(5, deal, rules=BEIJING, strategies=GREEDY)
    assert "(Beijing rules)" in lines[0] and any("(抢杠)" in line for line in lines)
    pays = df.loc[df.deal == deal, [f"pay_{s}" for s in range(4)]].iloc[0].tolist()
    expected = "  payments: " + ", ".join(f"seat {s} {p:+,}" for s, p in enumerate(pays))
    assert lines[-1].splitlines()[-1] == expected


@pytest.mark.parametrize(
    "pick, event, text",
    [
        (lambda df: df.burn_rounds > 0, "burn", "烧庄 round 1"),
        (lambda df: df.mutual_payer >= 0, "mutual_bao", "(互包)"),
    ],
)
def test_deal_log_and_replay_show_burning_and_binding(greedy_run, pick, event, text):
    _, _, df = greedy_run
    deal = int(df.deal[pick(df)].iloc[0])
    log = ds.deal_log(5, deal, rules=BEIJING, strategies=GREEDY)
    assert (log.event == event).sum() >= 1
    assert any(text in line for line in ds.replay(5, deal, rules=BEIJING, strategies=GREEDY))


def test_dealenv_plays_a_beijing_deal():
    env = ds.DealEnv(seed=5, deal=1, rules=BEIJING)
    assert env.names == ("caller", "expert", "expert", "expert")  # the family's default field
    obs = env.reset()
    assert obs.family == "beijing" and obs.n_kinds == 34 and obs.hand.shape == (34,)
    assert all(not d.declare for d in obs.legal_discards)  # nobody declares under Beijing
    while not env.done:
        obs = env.step(env.legal_actions()[-1] if obs.decision == "discard" else None)
    row = env.result().iloc[0]
    assert sum(env.payments) == 0 and list(env.payments) == [row[f"pay_{s}"] for s in range(4)]
    with pytest.raises(ValueError, match="does not play beijing yet"):
        ds.DealEnv(seed=5, rules=BEIJING, players=(None, "jia_hunter", "greedy", "greedy"))


def test_python_players_play_beijing_and_follow_the_rules():
    """Python players on the stepped engine (claims and kongs by Beijing greedy's default),
    their deals checked move by move like the built-in players'."""
    from daqing_sim.players.examples import RandomLegal
    from daqing_sim.players.examples_jitted import CAUTIOUS

    seats = (RandomLegal(), "greedy", RandomLegal(), "greedy")
    walls, _, seeds = generate_walls(40, seed=11, family="beijing")
    names, codes, knobs = encode_strategies(seats, None)
    seen: Counter = Counter()
    for i in range(40):
        raw = run_walls(
            walls[i][None, :],
            seeds[i : i + 1],
            BEIJING,
            codes,
            knobs,
            record_final=True,
            record_log=True,
            players=seats,
        )
        row = beijing_frame(raw["out"], 0, 0, names).iloc[0]
        seen += check_deal(walls[i], raw["log"], row, raw["final"][0])
    assert seen["claim"] > 0 and seen["deal_in"] + seen["self_draw"] > 0
    df = ds.simulate(40, seed=11, rules=BEIJING, strategies=seats)
    assert df.family.iloc[0] == "beijing" and (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    # a JittedPlayer plays Beijing too (tests/test_jitted_players.py), but not beside Python seats
    with pytest.raises(ValueError, match="mixes Python players and JittedPlayers"):
        ds.simulate(4, rules=BEIJING, strategies=(CAUTIOUS, seats[0], "greedy", "greedy"))


def test_cli_replay_of_a_beijing_deal(capsys):
    from daqing_sim.cli import main

    assert main(["replay", "--seed", "5", "--deal", "1", "--rules", "family=beijing"]) == 0
    out = capsys.readouterr().out
    assert "expert, expert, expert, expert (Beijing rules)" in out.splitlines()[0]  # the default field
    assert main(["replay", "--seed", "5", "--deal", "1", "--rules", "family=beijing", "--json"]) == 0
    assert '"event":"deal"' in capsys.readouterr().out


def test_a_duplicate_tournament_under_beijing(capsys):
    """ds.tournament and the CLI play Beijing: the same walls in four rotations, payments in points."""
    table = ds.tournament(["greedy", "random", "greedy", "random"], 60, seed=3, rules=BEIJING)
    assert set(table.entrant) == {"greedy", "random"}
    assert table.set_index("entrant").loc["greedy", "mean_pay"] > 0  # greedy beats random by far
    from daqing_sim.cli import main

    assert (
        main(
            [
                "tournament",
                "greedy",
                "random",
                "greedy",
                "random",
                "--walls",
                "20",
                "--seed",
                "3",
                "--rules",
                "family=beijing",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "beijing rules" in out and "points (a fan is worth 1,000" in out
