"""`daqing-sim hand`: output, JSON, and one-line errors with exit status 2."""

import json

import pytest

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
        (["hand", "11111m456p789s11m"], "more than four copies"),
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
    assert "Traceback" not in err
