"""The HTML viewer of every family (payload, page, labels in the project's glyphs) without a
browser; tests/test_replay_browser.py draws the pages in Chromium."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim.game.replay_html import replay_payload
from daqing_sim.hand.fan_names import FAMILY_FANS
from daqing_sim.render.glyphs import GLYPHS
from daqing_sim.render.labels import CJK, glyph_symbols, label_html, missing_glyphs
from daqing_sim.render.states import table_states
from daqing_sim.render.tiles import NAMES
from daqing_sim.render.viewer import viewer_page

BEIJING = ds.RuleSet(family="beijing")
TWO = ds.RuleSet(family="two_player")
PASSING = ({"pass_below": 6, "pass_min_left": 0},) * 2


class _Text(HTMLParser):
    """Text a font would draw (outside <title>, <script>, <style>) and the ids and hrefs."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.text: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.ids.update([a["id"]] if a.get("id") else [])
        self.hrefs.update([a["href"]] if tag == "use" and a.get("href") else [])
        if tag not in ("use", "path", "meta", "input", "br", "rect", "circle", "line"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        self.hrefs.update([a["href"]] if tag == "use" and a.get("href") else [])

    def handle_endtag(self, tag):
        if tag in self.stack:
            del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag) :]

    def handle_data(self, data):
        if not {"title", "script", "style"} & set(self.stack):
            self.text.append(data)


def _static(page: str) -> _Text:
    p = _Text()
    p.feed(page)
    return p


@pytest.mark.parametrize(
    "rules, seed, deal, knobs, n_seats",
    [(BEIJING, 5, 1597, None, 4), (TWO, 3, 0, PASSING, 2), (ds.RuleSet(), 0, 34, None, 4)],
)
def test_every_family_has_a_page_with_its_log_states_and_win(rules, seed, deal, knobs, n_seats):
    payload = replay_payload(seed, deal, rules, knobs=knobs)
    log = ds.deal_log(seed, deal, rules=rules, knobs=knobs)
    fam = rules.family
    assert payload["family"] == fam and len(payload["seats"]) == n_seats
    assert payload["states"] == table_states(log)
    st = payload["settlement"]
    row = ds.simulate(1, rules=rules, seed=seed, knobs=knobs) if deal == 0 else None
    assert st["winner"] == int(log.seat[log.event.isin(["win", "bao_kan"])].iloc[0])
    assert sum(st["payments"]) == 0 and len(st["payments"]) == n_seats
    if fam != "daqing":
        assert st["fans"] and all(isinstance(n, int) and n > 0 for _, n in st["fans"])
        assert st["value"] > 0 and st["fan_total"] == sum(n for _, n in st["fans"])
        zh = [label.split()[0] for label, _ in st["fans"] if CJK.search(label)]
        assert all(z in FAMILY_FANS[fam].values() for z in zh)
    if row is not None:
        assert st["payments"] == [int(row[f"pay_{s}"].iloc[0]) for s in range(n_seats)]
    page = viewer_page(payload)
    assert page.count('<section class="seat"') == n_seats
    text = _static(page)
    assert not CJK.search("".join(text.text)), "a CJK label left to a font"
    assert {h for h in text.hrefs if h.startswith("#cjk-")} <= {f"#{i}" for i in text.ids}
    # every CJK character of the page (its data and script too) has its glyph symbol
    for ch in set(CJK.findall(page)):
        assert f'id="cjk-{ord(ch):x}"' in page, ch
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
    assert data["family"] == fam


def test_two_player_states_show_flowers_the_pass_and_the_extra_draws():
    log = ds.deal_log(3, 0, rules=TWO, knobs=PASSING)
    states = table_states(log)
    flowers = log.tile[log.event == "flower"].tolist()
    assert states[0]["flowers"] == flowers and "花牌" in states[0]["text"]
    assert all(len(s["hands"]) == 2 for s in states)
    offered = [s for s in states if s["event"] == "claim_offer" and "win" in s["offers"][0]["options"]]
    passed = [s for s in offered if s["offers"][0]["action"] == "pass"]
    assert passed and all("(报听) may win" in s["text"] and "passes" in s["text"] for s in passed)
    assert all("may be claimed" in s["public"] for s in passed)  # a pass is not seen by the table
    extra = log[log.event == "extra_draw"]
    last = states[-1]
    shown = [(x["tile"], x["won"]) for x in last["extra"]]
    assert shown == list(zip(extra.tile, extra.options.astype(bool), strict=True))
    winner = int(log.seat[log.event == "win"].iloc[0])
    assert last["drawn"][winner] == extra.tile.iloc[-1] and last["win"]["extra"]
    declared = [s for s in states if s["event"] == "ready"]
    assert declared and all("报听" in s["text"] for s in declared)


def _beijing_log(rows: list[dict]) -> pd.DataFrame:
    base = {"from_seat": -1, "action": None, "options": 0, "wall_left": 60, "bao": -1, "wait": None,
            "outs": -1, "other_tile": -1, "count": 1, "bao_kind": None}  # fmt: skip
    log = pd.DataFrame([{**base, **r} for r in rows])
    log.attrs["family"] = "beijing"
    return log


@pytest.mark.parametrize("concealed", [False, True])
def test_a_robbed_kong_is_undone_and_the_win_names_it(concealed):
    hands = {s: list(range(s * 3, s * 3 + 13)) for s in range(4)}
    hands[1][:4] = [30, 30, 30, 30] if concealed else [30, 30, 30, 1]
    hands[0].append(30 if not concealed else 33)
    rows = [dict(event="deal", seat=s, tile=t) for s, ts in hands.items() for t in ts]
    if concealed:  # seat 1 declares a concealed kong of 西; seat 2 (with 一条龙) robs it
        rows += [dict(event="discard", seat=0, tile=0), dict(event="draw", seat=1, tile=27),
                 dict(event="concealed_kong", seat=1, tile=30)]  # fmt: skip
    else:  # seat 1 pengs 西 from seat 0, draws the fourth and adds it; seat 2 robs it
        hands[1][3] = 1
        rows += [dict(event="discard", seat=0, tile=30),
                 dict(event="claim", seat=1, tile=30, from_seat=0, action="peng"),
                 dict(event="discard", seat=1, tile=1), dict(event="draw", seat=2, tile=27),
                 dict(event="discard", seat=2, tile=27), dict(event="draw", seat=3, tile=28),
                 dict(event="discard", seat=3, tile=28), dict(event="draw", seat=0, tile=31),
                 dict(event="discard", seat=0, tile=31), dict(event="draw", seat=1, tile=30),
                 dict(event="added_kong", seat=1, tile=30)]  # fmt: skip
    rows += [
        dict(event="robbed_kong", seat=2, tile=30, from_seat=1, options=int(concealed)),
        dict(event="win", seat=2, tile=30, from_seat=1, action="deal_in"),
    ]
    states = table_states(_beijing_log(rows), dealer=0)
    robbed, win = states[-2], states[-1]
    assert "(抢杠)" in robbed["text"] and ("一条龙" in robbed["text"]) == concealed
    if concealed:
        assert robbed["melds"][1] == [] and sorted(robbed["hands"][1]).count(30) == 3
    else:
        assert [m["kind"] for m in robbed["melds"][1]] == ["peng"]
    assert win["win"]["robbed"] and "robbing seat 1's kong" in win["text"]


def test_labels_are_glyphs_and_a_missing_glyph_is_a_one_line_error():
    html = label_html("dealer 庄 <b>")
    assert html.startswith('dealer <svg class="cjk"') and html.endswith(" &lt;b&gt;")
    assert 'aria-label="庄"' in html and f'href="#cjk-{ord("庄"):x}"' in html
    assert not CJK.search(re.sub(r'aria-label="[^"]*"', "", html))
    symbols = glyph_symbols("上听 宝")
    assert symbols.count("<symbol") == 3 and GLYPHS["宝"]["d"] in symbols
    assert missing_glyphs("庄㐀") == ["㐀"]
    with pytest.raises(ValueError, match="no glyph for '㐀'") as info:
        glyph_symbols("庄㐀")
    assert "\n" not in str(info.value)


def test_every_label_the_viewer_may_show_has_a_glyph():
    """The fan names, the tile names and the viewer's own words (its sources): tools/extract_glyphs.py
    extracts exactly these."""
    from pathlib import Path

    import daqing_sim

    root = Path(daqing_sim.__file__).parent
    text = "".join(NAMES) + "".join(n for fans in FAMILY_FANS.values() for n in fans.values())
    for rel in ("render/viewer.py", "render/viewer.js", "render/states.py", "game/replay_html.py"):
        text += (root / rel).read_text(encoding="utf-8")
    assert missing_glyphs(text) == []


def test_the_fan_names_agree_with_the_analysis_tables():
    from daqing_sim.analysis.families import BEIJING_FANS, TWO_PLAYER_FANS
    from daqing_sim.hand.fan_names import BEIJING as BJ_NAMES
    from daqing_sim.hand.fan_names import TWO_PLAYER

    assert TWO_PLAYER == {c: zh for c, (zh, _) in TWO_PLAYER_FANS.items()}
    assert BJ_NAMES == {c: zh for c, (zh, _) in BEIJING_FANS.items() if CJK.search(zh)}


def test_a_two_player_deal_log_draws_its_end_in_jupyter():
    log = ds.deal_log(3, 0, rules=TWO, knobs=PASSING)
    page = log._repr_html_()
    assert page.count('<span class="hand" data-seat=') == 2 and "; bao" not in page
    assert "wins by self-draw on an extra draw" in page
    assert "; bao" in ds.deal_log(0, 34)._repr_html_()


def _meld_tiles(m: dict) -> list[int]:
    t = m["tile"]
    return [t, t + 1, t + 2] if m["kind"] == "chi" else [t] * (3 if m["kind"] == "peng" else 4)


@pytest.mark.parametrize(
    "rules, seed, deal, kw, shows",
    [
        (BEIJING, 5, 992, {"strategies": ("greedy",) * 4}, "robbed_kong"),
        (BEIJING, 5, 1597, {}, "mutual_bao"),  # and 烧庄
        (TWO, 3, 0, {"knobs": PASSING}, "extra_draw"),  # a passed win, a win on an extra draw
        (TWO, 0, 3, {}, "win offer taken"),
    ],
)
def test_the_last_state_holds_the_tiles_where_the_engine_left_them(rules, seed, deal, kw, shows):
    log = ds.deal_log(seed, deal, rules=rules, **kw)
    taken = (log.event == "claim_offer") & (log.action == "win")
    assert (log.event == shows).any() or (shows == "win offer taken" and taken.any())
    states = table_states(log)
    last = states[-1]
    final = log[log.event == "final"]
    for s in range(len(last["hands"])):
        held = last["hands"][s] + ([last["drawn"][s]] if last["drawn"][s] is not None else [])
        held += [t for m in last["melds"][s] for t in _meld_tiles(m)]
        rows = final[(final.place == "hand") & (final.seat == s)]
        assert sorted(held) == sorted(
            t for t, c in zip(rows.tile, rows["count"], strict=True) for _ in range(c)
        )
    pool = sorted(p["tile"] for ps in last["ponds"] for p in ps if not p["claimed"])
    rows = final[final.place == "pool"]
    robbed = log.tile[log.event == "robbed_kong"].tolist()  # the robbed tile lies with the discards
    assert sorted(pool + robbed) == sorted(
        t for t, c in zip(rows.tile, rows["count"], strict=True) for _ in range(c)
    )
    if robbed:
        assert states[-2]["event"] == "robbed_kong" and last["win"]["robbed"]
        assert "(抢杠)" in states[-2]["text"]


def test_a_won_deal_is_settled_by_its_familys_scoring_module(monkeypatch):
    """``deal_log.settlement`` (the replay's and the viewer's per-loser settlement) reaches the
    family's ``scoring`` module through the registry, so a family settled as Daqing is (a
    test-only one, tests/no_chi_family) supplies its own, with no edit here."""
    import numpy as np

    from daqing_sim.codes import OUTCOMES
    from daqing_sim.game import deal_log as dl
    from daqing_sim.game.engine import N_OUT, O_OUTCOME

    asked = []

    class Scoring:
        @staticmethod
        def settle_detail(**how):
            return how

    def module(family, role):
        asked.append((family, role))
        return Scoring

    monkeypatch.setattr(dl, "family_module", module)
    row = np.zeros(N_OUT, dtype=np.int32)
    row[O_OUTCOME] = OUTCOMES.index("self_draw")
    rules = ds.RuleSet(kong_fan=True)
    how = dl.settlement(row, 2, rules, 1)
    assert asked == [("daqing", "scoring")]
    assert (how["winner"], how["dealer"], how["method"], how["rules"]) == (2, 1, "self_draw", rules)
