"""`daqing-sim hand`: output, JSON, and one-line errors with exit status 2."""

import json

import pytest

import daqing_sim as ds
from daqing_sim.cli import main


def test_hand_json_ready_kanchan(capsys):
    assert main(["hand", "13m456p789s中中 [345m]", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ready"] is True and out["shanten"] == 0
    assert out["waits"] == [{"tile": "2m", "kind": "kanchan", "big": True}]


def test_hand_fourteen_tiles_win(capsys):
    assert main(["hand", "13m456p789s中中 [345m] 2m"]) == 0
    out = capsys.readouterr().out
    assert "win on 2m" in out and "kanchan" in out and "big" in out


def test_hand_rules_override_changes_result(capsys):
    main(["hand", "123m4p789s中中中 [345m] 4p", "--json"])
    plain = json.loads(capsys.readouterr().out)
    main(["hand", "123m4p789s中中中 [345m] 4p", "--json", "--rules", "jia_includes_single=true"])
    single = json.loads(capsys.readouterr().out)
    assert plain["win"] == {"tile": "4p", "kind": "single", "big": False, "bao": "none"}
    assert single["win"] == {"tile": "4p", "kind": "single", "big": True, "bao": "none"}


def test_hand_bao_option(capsys):
    assert main(["hand", "13m456p789s中中 [345m] 9p", "--bao", "9p", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["win"] == {"tile": "2m", "kind": "kanchan", "big": True, "bao": "bao"}


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["hand", "13m456p789x"], "suit letter"),
        (["hand", "11111m456p789s11m"], "7 copies of 1m"),
        (["hand", "1" * 257 + "3m456p789s中中 [345m]"], "257 copies of 1m"),  # once wrapped to 1 copy
        (["hand", "13m456p789s中中 [345m]", "--bao", "zz"], "--bao 'zz' is not a tile"),
        (["hand", "13m456p789s中中 [345m]", "--win-tile", "qq"], "--win-tile 'qq' is not a tile"),
        (["hand", "13m456p789s中中 [345m] 2m", "--win-tile", "1p"], "--win-tile 1p is not one of the"),
        (["hand", "123m456p789s11m中中 " + "x" * 60_000], "60,018 characters"),
        (["hand", "123m"], "13 (or 14"),
        (["hand", "13m456p789s中中 [345m]", "--rules", "no_such_flag=1"], "unknown rule flag"),
        (["hand", "13m456p789s中中 [345m]", "--rules", "kong_fan"], "flag=value"),
    ],
)
def test_hand_errors_are_one_line(capsys, args, fragment):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and "win_tile=" not in err
    assert len(err) < 400  # a long input is not echoed whole


def test_rules_option_before_the_hand_does_not_swallow_it(capsys):
    argv = ["hand", "--rules", "jia_includes_single=true", "123m4p789s中中中 [345m] 4p", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["win"]["big"] is True
    argv = ["hand", "--rules", "jia_includes_single=true", "--rules", "jia_includes_edge=true"]
    assert main([*argv, "12m中中 [777s] [456p] [345m] 3m", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"] == {
        "tile": "3m",
        "kind": "edge",
        "big": True,
        "bao": "none",
    }


def test_a_closed_hand_is_not_won_as_held(capsys):
    # Complete shape, but concealed: it may not declare ready under the classic rules (open door).
    assert main(["hand", "123m456p789s11m中中中"]) == 0
    out = capsys.readouterr().out
    assert "win on 中:        no: it cannot be won as held" in out and ": yes" not in out
    assert "may declare:      no" in out and "开门" in out
    assert main(["hand", "123m456p789s11m中中中", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["may_declare"] is False
    assert main(["hand", "123m456p789s11m中中中", "--rules", "require_open=false"]) == 0
    assert "win on 中:        yes" in capsys.readouterr().out


def test_hand_analysis_text_says_a_closed_hand_is_not_won_as_held():
    # str() of the library's own result says it, not only the CLI
    text = str(ds.analyze_hand("123m456p789s11m中中中"))
    assert "cannot be won as held" in text and "yes" not in text.split("win on")[1].split("\n")[0]
    assert "开门" in text
    opened = str(ds.analyze_hand("123m456p11m中中 [789s] 中"))
    assert "win on 中:        yes" in opened


def test_hand_under_beijing_shows_tenpai_and_the_fans(capsys):
    assert main(["hand", "1122334567899m", "--rules", "family=beijing"]) == 0
    text = capsys.readouterr().out
    assert "ready:            yes (听牌)" in text and "may declare" not in text
    assert "waits:            3m:edge, 6m:two_sided, 9m:single" in text
    assert main(["hand", "1122334567899m9m", "--rules", "family=beijing", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["is_win"] and out["scores"]["self-drawn"]["fans"] == {"dragon": 3, "one_suit": 6}
    assert out["scores"]["self-drawn"]["total"] == 27000 and out["scores"]["on a discard"]["total"] == 9000


@pytest.mark.parametrize(
    "argv, message",
    [
        (["hand", "1122334567899m东"], "东 is not a Daqing tile: Daqing plays m, p, s and 中"),
        (["hand", "123m456p789s11m22z", "--rules", "family=beijing", "--win-tile", "8z"], "--win-tile '8z'"),
        (["hand", "123m456p789s11m中中", "--win-tile", "东"], "--win-tile: 东 is not a Daqing tile"),
        (["hand", "123m456p789s11m中中", "--rules", "family=beijing,kong_fan=1"], "a Daqing flag"),
    ],
)
def test_hand_family_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("option", ["--win-tile", "--bao"])
def test_a_win_option_on_a_thirteen_tile_hand_is_an_error_not_ignored(capsys, option):
    assert main(["hand", "13m456p789s中中 [345m]", option, "5s"]) == 2
    err = capsys.readouterr().err
    assert f"{option} is for a 14-tile hand" in err and "has 13" in err
    assert 'daqing-sim hand "13m456p789s中中 [345m] 5s"' in err and "win_tile" not in err
    with pytest.raises(ValueError, match="is for a 14-tile hand"):
        ds.analyze_hand("13m456p789s中中 [345m]", win_tile="5s")


def test_a_hand_that_does_not_win_says_why(capsys):
    # nine gates in one suit: the standard shape waits on every 1m-9m, but one suit is no win
    assert main(["hand", "1112345678999m5p"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("win on 5p"))
    assert "5p does not complete four sets and a pair" in line
    assert "1m, 2m, 3m, 4m, 5m, 6m, 7m, 8m, 9m" in line and "second suit" in line
    # a ready hand: the tile is not one of its waits
    a = ds.analyze_hand("13m456p789s中中 [345m] 5s")
    assert a.no_win_reason == "5s is not a winning tile: the other 13 tiles wait on 2m"
    assert a.to_dict()["no_win_reason"] == a.no_win_reason
    # no terminal anywhere: every standard completion lacks one
    why = ds.analyze_hand("234m456p66p68s [345s] 5m").no_win_reason
    assert "not ready under the Daqing rules" in why and "a terminal or 中" in why
    assert ds.analyze_hand("13m456p789s中中 [345m] 2m").no_win_reason is None
