"""replay(): the same kernel with its event log, printed move by move; CLI ``replay``."""

from __future__ import annotations

import re

import pytest

import daqing_sim as ds
from daqing_sim.cli import main
from daqing_sim.game.replay import replay
from daqing_sim.game.simulate import simulate
from daqing_sim.rules import RuleSet

MIXED = ("greedy", "random", "defensive", "jia_hunter")


def test_replay_matches_the_simulated_rows():
    df = simulate(25, strategies=MIXED, seed=4)
    for i, row in df.iterrows():
        lines = replay(4, i, strategies=MIXED)
        assert lines == replay(4, i, strategies=MIXED)  # replays identically
        assert lines[0].startswith(f"deal {i} of seed 4: dealer seat 0")
        draws = [ln for ln in lines if re.match(r"\s*\d+\. seat \d draws", ln)]
        assert len(draws) == row["draws"]
        text = "\n".join(lines)
        if row["winner"] >= 0:
            assert f"WIN ({row['outcome']}): seat {row['winner']} wins on {row['win_tile']}" in text
            assert "payments: " + " ".join(f"{int(row[f'pay_{s}']):+d}" for s in range(4)) in text
        else:
            assert lines[-1].startswith("the live wall is empty")
        for s in range(4):
            declared = f"seat {s} discards" in text and f"seat {s} is ready" in text
            assert declared == (row[f"ready_turn_{s}"] >= 0)


def test_replay_shows_hands_bao_and_flags():
    lines = replay(0, 5, rules=RuleSet(kong_fan=True))
    assert lines[1] == "rules: kong_fan=True"
    assert re.match(r"seat 0 \(dealer\): \S+", lines[2])
    assert any(ln.startswith("bao (face down") for ln in lines)


def test_replay_finds_a_bao_replacement():
    found = False
    for deal in range(40):
        lines = replay(1, deal, strategies=("random",) * 4)
        if any("the bao is replaced" in ln for ln in lines):
            found = True
            break
    assert found


def test_cli_replay(capsys):
    assert main(["replay", "--seed", "0", "--deal", "3", "--strategies", "random"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "deal 3 of seed 0: dealer seat 0, strategies random, random, random, random"
    assert (
        main(
            [
                "replay",
                "--seed",
                "0",
                "--deal",
                "3",
                "--strategies",
                "greedy,random,greedy,random",
                "--rules",
                "bao_replacement=false",
                "--rules",
                "last_tiles_no_claim=0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "rules: bao_replacement=False, last_tiles_no_claim=0" in out


def test_cli_replay_rules_take_one_flag_each_or_commas(capsys):
    # the shared --rules option: repeated or comma-separated, never a list that eats what follows
    assert (
        main(
            ["replay", "--rules", "bao_replacement=false,last_tiles_no_claim=0", "--seed", "0", "--deal", "3"]
        )
        == 0
    )
    assert "rules: bao_replacement=False, last_tiles_no_claim=0" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # a second flag needs its own --rules (or a comma)
        main(["replay", "--seed", "0", "--deal", "3", "--rules", "bao_replacement=false", "kong_fan=true"])


@pytest.mark.parametrize(
    "args, match",
    [
        (["--rules", "kong_fan=maybe"], "must be true/false or a number"),
        (["--rules", "no_such_flag=true"], "unknown rule flag"),
        (["--strategies", "greedy,smart,greedy,greedy"], "valid strategies"),
        (["--strategies", "greedy,greedy"], "one per seat"),
    ],
)
def test_cli_replay_errors(capsys, args, match):
    assert main(["replay", "--seed", "0", "--deal", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("daqing-sim replay: error:") and re.search(match, err)
    assert "Traceback" not in err


def test_replay_bad_numbers():
    with pytest.raises(ValueError, match="deal=-1"):
        replay(0, -1)


def test_cli_replay_and_deal_log_play_the_default_field(capsys):
    # one default field (four experts) for simulate, ds.replay, ds.deal_log and the CLI replay
    assert main(["replay", "--seed", "0", "--deal", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "deal 3 of seed 0: dealer seat 0, strategies expert, expert, expert, expert"
    assert out == "\n".join(replay(0, 3)).splitlines()
    log = ds.deal_log(0, 3)
    assert log.attrs["strategies"] == ["expert"] * 4
    row = ds.simulate(4, seed=0).iloc[3]
    end = log[log.event.isin(["win", "bao_kan", "exhaustive_draw"])].iloc[-1]
    assert (end.event == "exhaustive_draw") == (row.outcome == "exhaustive_draw")
    if end.event != "exhaustive_draw":
        assert int(end.seat) == int(row.winner)


# --- two-player games --------------------------------------------------------------------------

TWO = RuleSet(family="two_player")
PASSING = ({"pass_below": 6, "pass_min_left": 0},) * 2  # declared experts pass small deal-in wins


def test_a_two_player_replay_tells_flowers_the_declaration_the_pass_and_the_extra_draws():
    """Deal 0 of seed 3 (PASSING): a flower, both seats declare (报听), seat 1 passes the win on the
    last discard, then draws extra tiles (海底捞月) until one wins; every line is read against the log."""
    log = ds.deal_log(3, 0, rules=TWO, knobs=PASSING)
    lines = replay(3, 0, rules=TWO, knobs=PASSING)
    text = "\n".join(lines)
    assert lines[0] == "deal 0 of seed 3: dealer seat 0, strategies expert, expert (two-player rules)"
    assert [ln.split(":")[0] for ln in lines[1:3]] == ["seat 0 (dealer)", "seat 1"]
    for f in log[log.event == "flower"].itertuples():
        assert f"flower tile {f.count} turned face up (花牌): {f.tile_name}" in text
    for r in log[log.event == "ready"].itertuples():
        assert f"seat {r.seat} has declared (报听)" in text
    passed = log[(log.event == "claim_offer") & (log.action == "pass") & (log.options & 64 != 0)]
    assert len(passed) >= 1
    for o in passed.itertuples():
        assert f"seat {o.seat} (报听) may win on {o.tile_name} or pass: it passes" in text
    extra = log[log.event == "extra_draw"]
    assert len(extra) >= 2 and extra.options.tolist()[-1] == 1 and extra.options.iloc[0] == 0
    for x in extra.itertuples():
        end = "it wins" if x.options else "no win: put aside"
        assert f"extra draw {x.count} (海底捞月): seat {x.seat} draws {x.tile_name}; {end}" in text
    row = ds.simulate(1, rules=TWO, seed=3, knobs=PASSING).iloc[0]
    win = next(ln for ln in lines if ln.startswith("WIN"))
    assert win.startswith(f"WIN (self draw, extra draw): seat {row.winner} wins on {row.win_tile}: ")
    assert "海底捞月 extra_draw 1" in win and f"F = {row.fan_total}, value {row.value:,}" in win
    assert lines[-1].endswith(", ".join(f"seat {s} {row[f'pay_{s}']:+,}" for s in range(2)))


def test_two_player_replays_match_the_simulated_rows():
    df = simulate(30, rules=TWO, seed=1)
    for i, row in df.iterrows():
        lines = replay(1, i, rules=TWO)
        draws = [ln for ln in lines if re.match(r"\s*\d+\. seat \d draws", ln)]
        assert len(draws) == row["draws"]
        text = "\n".join(lines)
        for s in range(2):
            assert (f"seat {s} has declared (报听)" in text) == (row[f"declared_turn_{s}"] >= 0)
        if row["winner"] >= 0:
            assert f"seat {row['winner']} wins on {row['win_tile']}: " in text
            pays = ", ".join(f"seat {s} {row[f'pay_{s}']:+,}" for s in range(2))
            assert text.splitlines()[-1] == "  payments: " + pays
        else:
            assert lines[-1] == "the tiles are used up and nobody wins (流局): nobody pays"


def test_cli_replay_of_a_two_player_game(capsys):
    assert main(["replay", "--seed", "3", "--deal", "0", "--rules", "family=two_player"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == "\n".join(replay(3, 0, rules=TWO)).splitlines()
    args = ["replay", "--seed", "3", "--deal", "0", "--rules", "family=two_player", "--strategies", "greedy"]
    assert main(args) == 0  # one strategy: every seat, both of them
    assert capsys.readouterr().out.splitlines()[0].endswith("strategies greedy, greedy (two-player rules)")


def test_beijing_wins_name_their_fans_in_chinese():
    from daqing_sim.hand.fan_names import BEIJING

    df = simulate(300, rules=RuleSet(family="beijing"), seed=5)
    fans = [c for c in df.columns if c.startswith("fan_") and c[4:] in BEIJING]
    deal = int(df.deal[df[fans].any(axis=1)].iloc[0])
    win = next(ln for ln in replay(5, deal, rules=RuleSet(family="beijing")) if ln.startswith("WIN"))
    for c in fans:
        if df.loc[deal, c]:
            assert f"{BEIJING[c[4:]]} {c[4:]} " in win
