"""``daqing-sim play``: a person plays one seat against the bots (daqing_sim.game.play)."""

from __future__ import annotations

import io
import json

import pytest

import daqing_sim as ds
from daqing_sim.advisor.position import advice_lines
from daqing_sim.cli import main
from daqing_sim.codes import CHI_LOW, CLAIM_PENG, FAMILY_SEATS
from daqing_sim.game.deal_log import to_json_lines
from daqing_sim.game.play import NO_REVIEW, Question, json_log_lines, play_terminal
from daqing_sim.players.interface import Claim, Discard, Kong

ENTER = "\n" * 400  # more empty lines than any deal has decisions


def _play(family: str, seat: int, text: str, deal: int = 0, **kw):
    out = io.StringIO()
    rules = ds.RuleSet(family=family)
    game = play_terminal(
        1, deal, seat=seat, rules=rules, stdin=io.StringIO(text), stdout=out, advice=advice_lines, **kw
    )
    return game, out.getvalue()


@pytest.mark.parametrize(
    ("family", "seat", "deal"), [("daqing", 1, 0), ("beijing", 2, 1), ("two_player", 1, 2)]
)
def test_empty_lines_play_the_experts_deal(family, seat, deal):
    """Taking every suggestion plays the deal an expert plays in that seat: the same events
    (every draw, discard, claim answer and kong) and the same payments, against greedy others."""
    n = FAMILY_SEATS[family]
    others = ["greedy"] * (n - 1)
    game, text = _play(family, seat, ENTER, deal=deal, others=others)
    field = ["greedy"] * n
    field[seat] = "expert"
    rules = ds.RuleSet(family=family)
    ref = ds.deal_log(1, deal, rules=rules, strategies=field)
    assert json_log_lines(game) == to_json_lines(ref)
    assert game.env.payments == tuple(ds.simulate(1, rules=rules, strategies=field, seed=1, start=deal)
                                      [[f"pay_{s}" for s in range(n)]].iloc[0])  # fmt: skip
    assert game.suggested == len(game.answers) > 0
    flags = "" if family == "daqing" else f" --rules family={family}"
    again = f"play it again: daqing-sim play --seed 1 --deal {deal} --seat {seat}{flags}"
    again += f" --strategies {','.join(others)}"
    assert again in text.splitlines()
    assert "result by seat: seat 0 (" in text and text.rstrip().endswith(NO_REVIEW)


def test_illegal_input_gets_one_line_and_the_question_again():
    game, text = _play("daqing", 0, "9x\n99\n" + ENTER)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "your move" in line)
    assert "'9x' is not an option: give a number 1-" in lines[first]
    assert lines[first + 1].startswith("your move") and " 99 is not an option: choose 1-" in lines[first + 1]
    assert lines[first + 2].startswith("your move")  # asked a third time, then the empty line answers
    # the bad answers changed nothing: the same deal as with empty lines only
    assert json_log_lines(game) == json_log_lines(_play("daqing", 0, ENTER)[0])


def test_answers_by_number_or_tile_name():
    q = Question("discard", [Discard(0), Discard(4), Discard(4, True)], Discard(0), "daqing")
    assert q.read("1m") == (Discard(0), None)
    assert q.read("3") == (Discard(4, True), None)
    option, reason = q.read("5m")
    assert option is None and reason.startswith("5m names 2 options (2: 5m, 3: 5m, declaring ready")
    assert q.read("9s")[1] == "9s is not in your hand to throw: choose 1-3"
    assert q.read("pass")[1].startswith("you cannot pass")
    claims = Question("claim", [Claim(CHI_LOW, 3), Claim(CLAIM_PENG, 3), None], None, "daqing")
    assert claims.texts() == ["chi 456m", "peng 444m", "pass"]
    assert claims.read("peng") == (Claim(CLAIM_PENG, 3), None)
    assert claims.read("456m") == (Claim(CHI_LOW, 3), None)
    assert claims.read("pass") == (None, None)
    assert claims.read("4m")[1].startswith("4m names 2 options")
    kongs = Question("kong", [Kong(8, True), None], None, "daqing")
    assert kongs.texts() == ["concealed kong 9m", "no kong"]
    assert kongs.read("kong") == (Kong(8, True), None) and kongs.read("no") == (None, None)


def test_question_mark_shows_the_advisor_table():
    _, text = _play("daqing", 0, "?\n" + ENTER)
    head = text.split("advisor (exact model")[1].splitlines()[1]
    assert "discard" in head and "ev" in head and "p_win" in head
    # every discard and claim of these deals is rated: the table read from the observation is
    # consistent (a claimed discard counted once, the tile on offer not also in the pond, the
    # kinds a ready seat let pass all seen)
    for deal, seat in ((0, 0), (1, 1), (2, 2), (3, 3)):
        out = io.StringIO()
        game = play_terminal(
            3, deal, seat=seat, stdin=io.StringIO("?\n\n" * 300), stdout=out, advice=advice_lines
        )
        asked = sum(d != "kong" for d, _ in game.answers)
        assert out.getvalue().count("advisor (exact model") == asked > 0, out.getvalue()
    _, text = _play("beijing", 0, "?\n" + ENTER)
    assert "advisor (exact model" in text  # Beijing too (tests/test_advisor_families.py)


def test_end_of_input_exits_cleanly_keeping_the_log(tmp_path, monkeypatch, capsys):
    log = tmp_path / "play.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\n"))
    assert main(["play", "--seed", "1", "--deal", "0", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert (
        out.rstrip().splitlines()[-1]
        == f"end of input after 3 of your decisions: the deal stops here; the log so far is in {log}"
    )
    kept = log.read_text().splitlines()
    full = to_json_lines(ds.deal_log(1, 0))  # the default field: experts, the suggestion too
    assert 53 < len(kept) < len(full) and kept == full[: len(kept)]
    assert sum(json.loads(x)["event"] == "discard" and json.loads(x)["seat"] == 0 for x in kept) >= 2


def test_ctrl_c_exits_130_keeping_the_log(tmp_path, monkeypatch, capsys):
    class Interrupting(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    log = tmp_path / "play.jsonl"
    monkeypatch.setattr("sys.stdin", Interrupting())
    assert main(["play", "--seed", "1", "--deal", "0", "--log", str(log)]) == 130
    assert "interrupted: the deal stops here" in capsys.readouterr().err
    assert (
        log.read_text().splitlines() == to_json_lines(ds.deal_log(1, 0))[: len(log.read_text().splitlines())]
    )


def test_html_writes_the_played_deal(tmp_path):
    page, log = tmp_path / "played.html", tmp_path / "played.jsonl"
    game, text = _play("two_player", 0, "1\n" + ENTER, html_path=str(page), log_path=str(log))
    assert log.read_text(encoding="utf-8").splitlines() == json_log_lines(game)  # appended move by move
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "played by a person at seat 0" in html
    assert f"wrote {page}" in text


def test_bad_strategies_is_one_line(capsys):
    assert main(["play", "--seed", "1", "--strategies", "greedy,greedy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "give 3 comma-separated names for the other seats" in err


def test_a_random_seed_is_printed_to_play_again(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seat", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    seed = int(lines[0].split()[1])
    assert lines[0] == f"seed {seed} (chosen at random; give --seed {seed} to play this deal again)"
    assert f"play it again: daqing-sim play --seed {seed} --deal 0 --seat 2" in lines
    assert lines[-1] == "end of input after 0 of your decisions: the deal stops here"


@pytest.mark.parametrize("family", ["daqing", "two_player"])
def test_cli_play_ends_with_the_review_and_writes_it_in_the_page(family, tmp_path, monkeypatch, capsys):
    """The whole deal with the suggested moves: the review of the person's decisions follows the
    payments, and --html writes the page with it."""
    page = tmp_path / "p.html"
    monkeypatch.setattr("sys.stdin", io.StringIO(ENTER))
    argv = ["play", "--seed", "1", "--deal", "0", "--review-worlds", "8", "--html", str(page)]
    assert main([*argv, "--rules", f"family={family}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("you took the suggested move at"))
    html = page.read_text(encoding="utf-8")
    assert lines[at + 1].startswith("review of seat 0: ") and lines[at + 2].startswith("value lost in all: ")
    unit = "points" if family == "two_player" else "units"
    assert f" {unit} (" in lines[at + 2]
    assert '"review":{"seat":0' in html
