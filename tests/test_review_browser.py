"""A reviewed deal in the replay viewer, in headless Chromium: the decision at a mistake's move
shows the move made and the better one as tiles with its loss, the list of biggest mistakes links
to their moves, the strip marks every decision, and every CJK label is drawn with the project's
glyphs. Skipped without Chromium (failed in CI), as tests/test_replay_browser.py."""

from __future__ import annotations

import json
import re

import pytest
from test_replay_browser import _browser, _run, _Tiles

import daqing_sim as ds

SEAT = 0
# (rules, seed, deal, strategies): seat 0 greedy makes mistakes the review finds at 32 worlds
DEALS = {
    "daqing": (ds.RuleSet(), 2, 3, ("greedy",) * 4),
    "two_player": (ds.RuleSet(family="two_player"), 3701, 3, ("greedy", "expert")),
}


@pytest.fixture(scope="module", params=list(DEALS))
def reviewed(request, tmp_path_factory):
    browser = _browser()
    rules, seed, deal, strategies = DEALS[request.param]
    tmp = tmp_path_factory.mktemp("review_page")
    path = tmp / "review.html"
    page = ds.replay_html(seed, deal, rules=rules, strategies=strategies, review=SEAT, n_worlds=32, path=path)
    blob = re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</")
    return browser, path, tmp, json.loads(blob)["review"]


def _dom(reviewed, move: int) -> _Tiles:
    browser, path, tmp, _ = reviewed
    parser = _Tiles()
    parser.feed(_run(browser, tmp, "--dump-dom", f"{path.as_uri()}#move={move}"))
    return parser


def test_a_mistake_shows_the_better_move_as_tiles(reviewed):
    review = reviewed[3]
    assert review["mistakes"], "the deal chosen has a mistake to show"
    mark = next(m for m in review["marks"] if m["decision"] == review["mistakes"][0])
    dom = _dom(reviewed, mark["move"])
    assert dom.body["data-move"] == str(mark["move"])
    best = [t for t in dom.tiles if dom.where(t, "best") and dom.where(t, "review-decision")]
    chosen = [t for t in dom.tiles if dom.where(t, "chosen") and dom.where(t, "review-decision")]
    assert sorted(int(t["tile"]) for t in best) == sorted(mark["best_tiles"]) != []
    assert sorted(int(t["tile"]) for t in chosen) == sorted(mark["chosen_tiles"])
    note = dom.label("#review-note")
    assert f"played {mark['chosen']}" in note and f"better: {mark['best']}" in note
    assert f"loses {mark['loss']:.2f}" in note
    dom.drawn_with_glyphs()


def test_the_mistakes_link_to_their_moves_and_the_strip_marks_every_decision(reviewed):
    review = reviewed[3]
    browser, path, tmp, _ = reviewed
    html = _run(browser, tmp, "--dump-dom", f"{path.as_uri()}#move=0")
    links = re.findall(r'<a class="mistake" href="#move=(\d+)" data-move="(\d+)" data-decision="(\d+)"', html)
    by_no = {m["decision"]: m for m in review["marks"]}
    assert [int(k) for _, _, k in links] == review["mistakes"]
    assert all(int(a) == int(b) == by_no[int(k)]["move"] for a, b, k in links)
    marks = re.findall(r'class="review-mark [a-z ]*" href="#move=(\d+)"', html)
    assert [int(m) for m in marks] == [m["move"] for m in review["marks"]]


def test_a_move_without_a_decision_says_so(reviewed):
    review = reviewed[3]
    moves = {m["move"] for m in review["marks"]}
    free = next(i for i in range(1, 200) if i not in moves)
    dom = _dom(reviewed, free)
    assert f"no decision of seat {SEAT} at this move" in dom.label("#review-note")
