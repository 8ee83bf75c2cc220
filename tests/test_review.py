"""``ds.review`` and ``daqing-sim review``: a seat's decisions in one deal, valued by simulation
(daqing_sim.reviews)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.cli import main
from daqing_sim.codes import FAMILY_SEATS
from daqing_sim.game.deal_log import to_json_lines
from daqing_sim.render.states import table_states
from daqing_sim.reviews.core import read_log, review, split_loss
from daqing_sim.reviews.viewer import decision_moves, review_payload

TAKE = {
    "peng": (0, 0, 0),
    "kong": (0, 0, 0, 0),
    "chi_low": (0, 1, 2),
    "chi_mid": (-1, 0, 1),
    "chi_high": (-2, -1, 0),
    "win": (0,),
}


def _logged_move(log, step: int) -> tuple[str, list[int]]:
    """The move at row ``step`` of the deal log, as (kind, tiles), read from the log alone."""
    r = log.iloc[step]
    if r.event == "discard":
        return "discard", [int(r.tile)]
    if r.event == "claim_offer":
        return "claim", [] if r.action == "pass" else [int(r.tile) + d for d in TAKE[r.action]]
    if r.event in ("concealed_kong", "added_kong"):
        return "kong", [int(r.tile)] * 4
    raise AssertionError(f"row {step} is a {r.event}, not a move")


@pytest.mark.parametrize(
    ("family", "strategy", "deal", "seat"),
    [
        ("daqing", "greedy", 0, 1),
        ("daqing", "expert", 4, 0),
        ("beijing", "expert", 1, 2),
        ("beijing", "greedy", 2, 3),
        ("two_player", "expert", 3, 1),
        ("two_player", "greedy", 0, 0),
    ],
)
def test_every_move_of_the_seat_is_reviewed_as_the_log_has_it(family, strategy, deal, seat):
    """Each reviewed decision is a move of the seat in the deal log (its row, its tiles), every
    discard of the seat with a choice is among them, and the chosen option is one weighed."""
    rules = ds.RuleSet(family=family)
    n = FAMILY_SEATS[family]
    log = ds.deal_log(2, deal, rules=rules, strategies=(strategy,) * n)
    r = review(2, deal, seat, rules=rules, strategies=(strategy,) * n, n_worlds=4, candidates=2)
    d = r.decisions
    assert len(d) > 0 and list(d["decision"]) == list(range(len(d)))
    for _, row in d.iterrows():
        kind, tiles = _logged_move(log, int(row["step"]))
        if row["kind"] == "kong" and kind == "discard":  # no kong declared: the seat then discarded
            assert row["chosen_tiles"] == []
            continue
        assert (row["kind"], row["chosen_tiles"]) == (kind, tiles)
        assert int(log.iloc[int(row["step"])].seat) == seat
    discards = log[(log.event == "discard") & (log.seat == seat)]
    assert set(d[d["kind"] == "discard"]["step"]) <= set(discards.step)
    o = r.options
    assert (o.groupby("decision")["chosen"].sum() == 1).all() and (
        o.groupby("decision")["best"].sum() == 1
    ).all()


def test_split_loss_has_no_winners_curse():
    """Eight options of equal value (pure noise): picking the best on the worlds that measure it
    makes a loss clearly above 0; picking on one half and measuring on the other does not."""
    rng = np.random.default_rng(7)
    split, noise, same = [], [], []
    for _ in range(400):
        pays = rng.normal(0, 1, (64, 8))
        split.append(split_loss(pays, 0)[4][0])
        noise.append(split_loss(pays, 0, min_t=0)[4][0])  # the best of the picking half's means
        m = pays.mean(axis=0)
        same.append(m.max() - m[0])
    for x in (split, noise):
        assert abs(np.mean(x)) < 3 * np.std(x, ddof=1) / np.sqrt(len(x))
    assert np.mean(same) > 10 * np.std(noise, ddof=1) / np.sqrt(len(noise))
    assert np.mean(np.array(split) == 0) > 0.8  # a clear gain is needed: mostly the move made


def test_split_loss_finds_a_real_loss_and_zero_when_the_move_is_best():
    rng = np.random.default_rng(1)
    pays = rng.normal(0, 1, (200, 3))
    pays[:, 2] += 1.0  # option 2 is worth one more
    best, value, lo, hi, (loss, llo, lhi, se) = split_loss(pays, 0)
    assert best == 2 and llo < 1.0 < lhi and llo > 0
    best, _, _, _, stats = split_loss(pays, 2)
    assert best == 2 and stats == (0.0, 0.0, 0.0, 0.0)


def test_loss_is_best_minus_chosen_on_the_measuring_worlds():
    r = review(2, 0, 0, n_worlds=16)
    d = r.decisions
    assert np.allclose(d["loss"], d["best_value"] - d["chosen_value"])
    same = d["chosen"] == d["best"]
    assert (d.loc[same, ["loss", "loss_lo", "loss_hi"]] == 0).all().all()
    assert (d["loss_lo"] <= d["loss"]).all() and (d["loss"] <= d["loss_hi"]).all()


def test_same_seed_same_numbers_and_the_log_file_reviews_the_same(tmp_path, capsys):
    """A review from the JSON lines ``replay --json`` prints equals the review of the deal played
    by its strategies; the same world seed gives the same numbers."""
    assert main(["replay", "--seed", "2", "--deal", "3", "--json", "--strategies", "greedy"]) == 0
    path = tmp_path / "deal.jsonl"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    a = review(2, 3, 1, strategies=("greedy",) * 4, n_worlds=8)
    b = review(2, 3, 1, log=str(path), n_worlds=8)
    assert a.decisions.equals(b.decisions) and a.options.equals(b.options)
    c = review(2, 3, 1, log=str(path), n_worlds=8, world_seed=5)
    assert not np.allclose(a.decisions["chosen_value"], c.decisions["chosen_value"])


def test_a_log_that_stops_early_is_reviewed_to_its_end():
    log = ds.deal_log(2, 0)
    full = review(2, 0, 0, log=log, n_worlds=4)
    cut = int(full.decisions["step"].iloc[len(full.decisions) // 2])
    part = review(2, 0, 0, log=to_json_lines(log)[:cut], n_worlds=4)
    assert 0 < len(part.decisions) < len(full.decisions) and part.payment is None
    k = len(part.decisions)
    assert part.decisions.equals(full.decisions.iloc[:k])


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"log": "another"}, "the log is not deal 0 of seed 2 as replayed here (its dealt tiles differ)"),
        ({"n_worlds": 2}, "n_worlds=2: use at least 4"),
        ({"seat": 4}, "seat=4 is not a seat of this deal: use 0-3"),
        ({"rules": ds.RuleSet(family="two_player"), "seat": 2}, "seat=2 is not a seat of this deal: use 0-1"),
        ({"log": "/nonexistent/x.jsonl"}, "log file '/nonexistent/x.jsonl' does not exist"),
        ({"log": ["{not json"]}, "the log is not JSON lines"),
    ],
)
def test_bad_input_is_one_line(kw, message):
    if kw.get("log") == "another":
        kw["log"] = ds.deal_log(2, 1)
    with pytest.raises(ValueError) as e:
        review(2, 0, **{"seat": 0, **kw})
    assert message in str(e.value) and "\n" not in str(e.value)


def test_read_log_takes_a_frame_lines_or_text():
    log = ds.deal_log(1, 0)
    lines = to_json_lines(log)
    assert list(read_log(lines)["tile"]) == list(log["tile"])
    assert list(read_log("\n".join(lines))["event"]) == list(log["event"].astype(str))


def test_cli_prints_every_decision_and_the_summary(tmp_path, capsys):
    csv = tmp_path / "r.csv"
    argv = [
        "review",
        "--seed",
        "2",
        "--deal",
        "0",
        "--seat",
        "0",
        "--worlds",
        "8",
        "--all",
        "--csv",
        str(csv),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    r = review(2, 0, 0, n_worlds=8)
    assert out[0].startswith("seat 0's decisions") and len(out) >= len(r.decisions) + 3
    assert any(line.startswith("review of seat 0: ") for line in out)
    assert sum(line.startswith("value lost in all: ") for line in out) == 1
    assert len(csv.read_text().splitlines()) == len(r.decisions) + 1


def test_two_player_win_or_pass_and_the_declaration_are_reviewed():
    """Seed 2 deal 3, expert seats: seat 1 declares 报听 (the declaring discard weighed against
    the same tile undeclared) and later takes the win offered (weighed against passing); taking
    it ends the deal, so its value is the seat's payment in every world."""
    rules = ds.RuleSet(family="two_player")
    log = ds.deal_log(2, 3, rules=rules, strategies=("expert",) * 2)
    r = review(2, 3, 1, rules=rules, strategies=("expert",) * 2, n_worlds=8)
    d, o = r.decisions, r.options
    ready_step = int(log[(log.event == "ready") & (log.seat == 1)].step.iloc[0])
    declared = d[d["step"] == ready_step - 1]
    assert len(declared) == 1 and declared["chosen"].iloc[0].endswith("declaring 报听")
    tile = declared["chosen"].iloc[0].split(",")[0]
    weighed = set(o[o["decision"] == declared["decision"].iloc[0]]["option"])
    assert tile in weighed and declared["chosen"].iloc[0] in weighed
    offer = log[(log.event == "claim_offer") & (log.action == "win")]
    win = d[d["step"] == int(offer.step.iloc[0])]
    assert len(win) == 1 and win["kind"].iloc[0] == "claim" and win["n_options"].iloc[0] == 2
    row = win.iloc[0]
    assert row["chosen_lo"] == row["chosen_value"] == row["chosen_hi"] == r.payment > 0
    assert set(o[o["decision"] == row["decision"]]["option"]) == {row["chosen"], "pass"}


def test_cli_two_player_reviews_the_seat(capsys):
    argv = ["review", "--seed", "2", "--deal", "3", "--seat", "1", "--rules", "family=two_player"]
    assert main([*argv, "--worlds", "8", "--all"]) == 0
    out = capsys.readouterr().out.splitlines()
    r = review(2, 3, 1, rules=ds.RuleSet(family="two_player"), n_worlds=8)
    assert out[-len(r.lines()) :] == r.lines() and r.lines()[0].startswith("review of seat 1: ")
    assert "points" in r.lines()[1] and "losing more than 0.5 points" in r.lines()[1]


def test_two_player_threshold_is_half_a_fan_in_the_rooms_points():
    rules = ds.RuleSet(family="two_player", multiplier=5, points_per_fan=10)
    assert review(2, 0, 0, rules=rules, n_worlds=4, candidates=2).threshold == 25.0


def test_summary_counts_bad_moves_and_lists_the_biggest():
    r = review(2, 0, 0, n_worlds=16, strategies=("greedy",) * 4, threshold=0.0)
    s = r.summary()
    d = r.decisions
    assert s["bad"] == int((d["loss"] > 0).sum()) and s["total_loss"] == pytest.approx(d["loss"].sum())
    assert list(s["mistakes"]["loss"]) == sorted(d.loc[d["loss"] > 0, "loss"], reverse=True)[:3]
    assert s["total_lo"] <= s["total_loss"] <= s["total_hi"]


def test_viewer_marks_each_decision_on_the_position_before_its_move():
    log = ds.deal_log(2, 0, strategies=("greedy",) * 4)
    r = review(2, 0, 1, log=log, n_worlds=4)
    states = table_states(log)
    moves = decision_moves(r.decisions, states)
    for move, step in zip(moves, r.decisions["step"], strict=True):
        assert states[move]["step"] < step <= states[move + 1]["step"]
    pay = review_payload(r, states)
    assert [m["move"] for m in pay["marks"]] == moves and pay["seat"] == 1
    assert set(pay["mistakes"]) <= {m["decision"] for m in pay["marks"] if m["loss"] > 0}


def test_replay_html_review_option(tmp_path, capsys):
    page = tmp_path / "r.html"
    argv = ["replay", "--seed", "2", "--deal", "0", "--html", str(page), "--review", "1", "--worlds", "4"]
    assert main(argv) == 0
    html = page.read_text(encoding="utf-8")
    assert 'id="review"' in html and '"review":{"seat":1' in html
    two = tmp_path / "two.html"
    argv = ["replay", "--seed", "2", "--deal", "3", "--rules", "family=two_player", "--html", str(two)]
    assert main([*argv, "--review", "1", "--worlds", "4"]) == 0
    assert '"review":{"seat":1' in two.read_text(encoding="utf-8")
    assert main(["replay", "--seed", "2", "--deal", "0", "--review", "1"]) == 2
    assert "give --html FILE too" in capsys.readouterr().err


def test_play_ends_with_the_review_of_the_persons_decisions(tmp_path):
    """Empty lines play the expert's moves; the review at the end is the review of the expert in
    that seat, and the page written carries it."""
    from daqing_sim.game.play import play_terminal
    from daqing_sim.reviews.play import review_played

    out, page = io.StringIO(), tmp_path / "p.html"
    play_terminal(
        2, 0, seat=1, stdin=io.StringIO("\n" * 400), stdout=out, html_path=str(page),
        review=lambda g: review_played(g, n_worlds=8),
    )  # fmt: skip
    expected = review(2, 0, 1, strategies=("expert",) * 4, n_worlds=8).lines()
    text = out.getvalue().splitlines()
    at = text.index(expected[0])
    assert text[at : at + len(expected)] == expected
    assert '"review":{"seat":1' in page.read_text(encoding="utf-8")


def test_candidates_weighs_the_search_players_first_options_and_the_move_made():
    """With ``candidates=2`` an expert seat's decisions weigh its own move and one other (the
    expert's move is the search's first); a greedy seat's, at most three (the move made added)."""
    expert = review(2, 1, 0, strategies=("expert",) * 4, n_worlds=4, candidates=2).decisions
    assert len(expert) > 0 and (expert["n_options"] == 2).all()
    greedy = review(2, 1, 0, strategies=("greedy",) * 4, n_worlds=4, candidates=2).decisions
    assert len(greedy) > 0 and (greedy["n_options"] <= 3).all() and (greedy["n_options"] >= 2).all()
    full = review(2, 1, 0, strategies=("greedy",) * 4, n_worlds=4).decisions
    assert (full["n_options"] >= greedy["n_options"]).all() and (full["n_options"] > 3).any()
