"""Pictures of tiles, hands, advice and deals (daqing_sim.render), checked without a browser."""

from __future__ import annotations

import json
import re
import warnings
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim.render.frames import AdviceFrame, DealLogFrame
from daqing_sim.render.states import table_states
from daqing_sim.render.table import meld_html, pond_html
from daqing_sim.render.tiles import NAMES, tile_svg

NAMES_34 = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("中东南西北白发")


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text)


def _drawing(svg: str) -> str:
    """The picture itself: the svg without its title and data attributes."""
    svg = re.sub(r"<title>.*?</title>", "", svg)
    return re.sub(r' data-tile="\d+"', "", svg)


def _tiles_of(fragment: str) -> list[int]:
    return [int(t) for t in re.findall(r'<svg class="tile[^"]*" data-tile="(\d+)"', fragment)]


@pytest.mark.parametrize("tile", range(34))
def test_every_tile_code_renders_valid_svg_named_after_it(tile):
    root = _svg(tile_svg(tile))
    assert root.tag == "svg" and root.get("data-tile") == str(tile)
    assert root.find("title").text == NAMES_34[tile]
    assert float(root.get("width")) == 30 and float(root.get("height")) == 40
    assert len(list(root)) >= 3  # title, frame and a face
    ns = _svg(tile_svg(tile, standalone=True))
    assert ns.tag == "{http://www.w3.org/2000/svg}svg"


def test_distinct_tiles_give_distinct_pictures_and_backs_hide_them():
    faces = {_drawing(tile_svg(t)) for t in range(34)}
    assert len(faces) == 34
    backs = {_drawing(tile_svg(t, face_down=True)) for t in range(34)}
    assert len(backs) == 1 and not backs & faces


def test_the_glyph_tiles_draw_paths_not_text():
    for t in [0, 8, 27, 28, 29, 30, 31, 33]:
        svg = tile_svg(t)
        assert "<text" not in svg and "<path" in svg
    white = _svg(tile_svg(32))  # 白: an empty frame, no glyph
    assert not white.findall(".//path") and len(white.findall("rect")) == 2


def test_sideways_tile_is_turned_a_quarter():
    up, side = _svg(tile_svg(5, height=40)), _svg(tile_svg(5, height=40, sideways=True))
    assert (float(up.get("width")), float(up.get("height"))) == (30, 40)
    assert (float(side.get("width")), float(side.get("height"))) == (40, 30)
    assert "sideways" in side.get("class") and "rotate(-90)" in ET.tostring(side, encoding="unicode")


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: tile_svg(34), "tile 34 is out of range"),
        (lambda: tile_svg(-1), "tile -1 is out of range"),
        (lambda: tile_svg("5m"), "tile must be an integer code"),
        (lambda: tile_svg(True), "tile must be an integer code"),
        (lambda: tile_svg(2.0), "tile must be an integer code"),
        (lambda: tile_svg(3, height=0), "height must be"),
        (lambda: tile_svg(3, marks=["shiny"]), "unknown tile mark 'shiny'"),
        (lambda: meld_html("pair", 3), "meld kind 'pair' is unknown"),
        (lambda: meld_html("chi", 7), "a chi starts at a suited tile of rank 1-7"),
        (lambda: meld_html("chi", 27), "a chi starts"),
        (lambda: meld_html("peng", 3, claimed=4), "claimed tile 4 is not in the meld"),
        (lambda: meld_html("peng", 3, offset=0), "offset must be 1, 2 or 3"),
        (lambda: table_states(pd.DataFrame({"x": [1]})), "not a deal log"),
    ],
)
def test_bad_input_is_a_one_line_value_error(call, match):
    with pytest.raises(ValueError, match=match) as e:
        call()
    assert "\n" not in str(e.value)


def _meld_svgs(fragment: str) -> list[ET.Element]:
    return _svg(fragment).findall(".//svg")


def test_concealed_kong_shows_its_outer_tiles_face_down():
    tiles = _meld_svgs(meld_html("concealed_kong", 13))
    assert [("back" in t.get("class")) for t in tiles] == [True, False, False, True]
    assert {t.get("data-tile") for t in tiles} == {"13"}


@pytest.mark.parametrize("offset, position", [(3, 0), (2, 1), (1, 2)])
def test_the_claimed_tile_lies_sideways_pointing_to_its_giver(offset, position):
    tiles = _meld_svgs(meld_html("chi", 2, claimed=3, offset=offset))  # 4m claimed into 345m
    sideways = [i for i, t in enumerate(tiles) if "sideways" in t.get("class")]
    assert sideways == [position]
    assert tiles[position].get("data-tile") == "3"
    assert sorted(int(t.get("data-tile")) for t in tiles) == [2, 3, 4]


def test_added_kong_stacks_the_added_tile_on_the_claimed_one():
    m = _svg(meld_html("added_kong", 20, offset=1))
    tiles = m.findall(".//svg")
    assert len(tiles) == 4 and sum("sideways" in t.get("class") for t in tiles) == 2
    assert len(m.findall(".//span[@class='stack']/svg")) == 2


def test_pond_marks_drawn_declared_and_claimed_discards():
    pond = [
        {"tile": 1, "drawn": True, "declared": False, "claimed": False},
        {"tile": 2, "drawn": False, "declared": True, "claimed": False},
        {"tile": 3, "drawn": False, "declared": False, "claimed": True},
    ]
    tiles = _svg(pond_html(pond, seat=2)).findall("svg")
    assert [t.get("class") for t in tiles] == ["tile drawn", "tile sideways declared", "tile claimed"]


def test_hand_repr_html_draws_every_tile_and_plain_text_stays():
    h = ds.parse_hand("13m456p789s中中 [345m] 2m")
    page = h._repr_html_()
    want = [0, 2, 12, 13, 14, 24, 25, 26, 27, 27, 1, 2, 3, 4]  # concealed sorted, 2m apart, the meld
    assert _tiles_of(page) == want
    assert re.search(r'class="drawn-tile"><svg class="tile" data-tile="1"', page)
    assert repr(h).startswith("Hand(counts=") and str(h) == "123m456p789s中中 [345m]"
    k = ds.parse_hand("11m (2222p) [333s] [456m] 77m")._repr_html_()
    assert k.count('class="tile back"') == 2 and 'data-kind="concealed_kong"' in k


def test_hand_analysis_repr_html_draws_its_waits():
    a = ds.analyze_hand("23m456p789s中中 [345m]")  # waits on 1m and 4m
    page = a._repr_html_()
    waits = [int(t) for t in re.findall(r'<span class="wait" data-tile="(\d+)"', page)]
    assert sorted(waits) == sorted(w.tile_kind for w in a.waits) == [0, 3]
    assert "shanten 0 (Daqing)" in page and str(a).startswith("hand:")
    kan = ds.analyze_hand("13m456p789s中中 [345m]")._repr_html_()
    assert re.search(r'data-tile="1"[^>]*><svg class="tile highlight" data-tile="1"', kan)  # big: framed
    win = ds.analyze_hand("13m456p789s中中 [345m] 9p", bao="9p")._repr_html_()
    assert "bao (bao as 2m)" in win and re.search(r'class="tile highlight" data-tile="1"', win)


def test_advice_table_draws_each_discard_and_marks_the_best_row():
    df = ds.advise("134m456p789s中中 [345m]", k=1)
    assert isinstance(df, AdviceFrame) and type(df.head()) is pd.DataFrame
    assert repr(df) == repr(pd.DataFrame(df))
    page = df._repr_html_()
    drawn = [int(t) for t in re.findall(r'<td class="discard" data-tile="(\d+)">', page)]
    assert [NAMES[t] for t in drawn] == df["discard"].tolist()
    rows = re.findall(r'<tr class="(best)?" data-row="(\d+)">', page)
    best = [int(i) for cls, i in rows if cls]
    assert best == np.flatnonzero(df["recommended"]).tolist() == [0]
    assert page.count("★") == 1


def _final(log: pd.DataFrame, seat: int, place: str = "hand") -> list[int]:
    rows = log[(log.event == "final") & (log.place == place) & (log.seat == seat)]
    return sorted(np.repeat(rows.tile.to_numpy(), rows["count"].to_numpy()).tolist())


def _meld_tiles(m: dict) -> list[int]:
    t = m["tile"]
    return [t, t + 1, t + 2] if m["kind"] == "chi" else [t] * (3 if m["kind"] == "peng" else 4)


@pytest.mark.parametrize("seed, deal", [(0, 3), (0, 34), (1, 5)])
def test_table_states_end_where_the_engine_left_every_tile(seed, deal):
    log = ds.deal_log(seed, deal, strategies=("expert",) * 4)
    states = table_states(log)
    last = states[-1]
    for s in range(4):
        held = last["hands"][s] + ([last["drawn"][s]] if last["drawn"][s] is not None else [])
        held += [t for m in last["melds"][s] for t in _meld_tiles(m)]
        assert sorted(held) == _final(log, s)
    pool = sorted(p["tile"] for ps in last["ponds"] for p in ps if not p["claimed"])
    assert pool == _final(log, -1, "pool")
    for st in states:  # 136 ... 112 tiles: every state holds 112 minus the live wall and the rest
        n = sum(len(h) for h in st["hands"]) + sum(d is not None for d in st["drawn"])
        n += sum(len(_meld_tiles(m)) for ms in st["melds"] for m in ms)
        n += sum(1 for ps in st["ponds"] for p in ps if not p["claimed"])
        assert n == 53 + (58 - st["wall_left"]) - sum(1 for r in log.itertuples() if r.event == "bao_replaced"
                                                       and r.step <= st["step"])  # fmt: skip


def test_table_states_mark_drawn_and_thrown_and_the_declaring_discard():
    rows = [dict(event="deal", seat=s, tile=t) for s in range(4) for t in range(s * 3, s * 3 + 13 + (s == 0))]
    rows += [
        dict(event="bao", seat=-1, tile=20),
        dict(event="discard", seat=0, tile=0),  # the dealer's first discard: nothing was drawn
        dict(event="draw", seat=1, tile=26),
        dict(event="discard", seat=1, tile=26),  # 摸打
        dict(event="draw", seat=2, tile=25),
        dict(event="discard", seat=2, tile=6),  # from the hand
        dict(event="ready", seat=2, tile=-1),
    ]
    log = pd.DataFrame([{"from_seat": -1, "action": None, "options": 0, "wall_left": 58, "bao": 20,
                         "wait": "edge", "outs": 3, "other_tile": -1, **r} for r in rows])  # fmt: skip
    ponds = table_states(log, dealer=0)[-1]["ponds"]
    assert [(p["tile"], p["drawn"], p["declared"]) for p in ponds[0] + ponds[1] + ponds[2]] == [
        (0, False, False),
        (26, True, False),
        (6, False, True),
    ]


def test_deal_log_frame_draws_the_end_of_the_deal():
    log = ds.deal_log(0, 34, strategies=("expert",) * 4)
    assert isinstance(log, DealLogFrame) and type(log[log.event == "draw"]) is pd.DataFrame
    assert repr(log) == repr(pd.DataFrame(log))
    page = log._repr_html_()
    assert "seat 2 wins by self-draw on 6s (bao)" in page and "<table" in page  # picture, then the rows
    for s in range(4):
        seat = re.search(rf'<span class="hand" data-seat="{s}">(.*?)</span> <span class="pond"', page).group(
            1
        )
        assert sorted(_tiles_of(seat)) == _final(log, s)


def test_replay_html_is_one_self_contained_page(tmp_path):
    path = tmp_path / "deal.html"
    page = ds.replay_html(0, 34, path=path)
    assert path.read_text(encoding="utf-8") == page
    assert not re.search(r"https?://", page)
    assert not re.search(r"<link|<img|<iframe|\bsrc=|@import|url\(", page)
    blob = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1)
    data = json.loads(blob)
    log = ds.deal_log(0, 34, strategies=("expert",) * 4)
    assert data["states"] == json.loads(json.dumps(table_states(log)))
    assert data["settlement"]["payments"] == [-16, -16, 48, -16]
    assert data["settlement"]["fans"]["0"] == ["dealer", "self_draw", "big", "bao"]
    for s in range(4):
        assert f'class="seat" data-seat="{s}"' in page


def test_replay_html_refuses_a_folder_or_a_missing_one(tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        ds.replay_html(0, 3, path=tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        ds.replay_html(0, 3, path=tmp_path / "no" / "x.html")


def test_cli_replay_html_writes_the_page(tmp_path, capsys):
    from daqing_sim.cli import main

    out = tmp_path / "r.html"
    assert main(["replay", "--seed", "0", "--deal", "3", "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "strategies expert, expert, expert, expert" in page


def test_plots_draw_zhong_with_the_shipped_font():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    import daqing_sim.analysis.plots  # noqa: F401 (registers the font)

    def ink(text: str) -> int:
        fig = Figure(figsize=(1, 1), dpi=100)
        fig.text(0.5, 0.5, text, fontsize=40, ha="center", va="center")
        canvas = FigureCanvasAgg(fig)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would fail here
            canvas.draw()
        return int((np.asarray(canvas.buffer_rgba())[..., :3] < 128).any(axis=2).sum())

    assert ink("中") > 100
    assert Counter(ink(c) > 100 for c in "东南西北发白宝夹") == Counter({True: 8})


def test_the_public_text_of_a_move_hides_what_other_seats_cannot_see():
    states = table_states(ds.deal_log(0, 34, strategies=("expert",) * 4))
    draws = [s for s in states if s["event"] == "draw"]
    assert draws and all(not any(n in s["public"] for n in NAMES) for s in draws)
    assert all(NAMES[s["drawn"][s["seat"]]] in s["text"] for s in draws)
    ready = next(s for s in states if s["event"] == "ready")
    assert "kanchan" in ready["text"] and "kanchan" not in ready["public"]
    offers = next(s for s in states if s["event"] == "claim_offer")
    assert "seat 2 may peng" in offers["text"] and "seat" not in offers["public"]


def test_two_seat_deals_drop_in_states_and_pictures():
    from daqing_sim.render.table import deal_end_html
    from daqing_sim.render.viewer import viewer_page

    hands = {
        0: [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 28, 28, 33, 32],
        1: [28, 9, 10, 11, 12, 13, 14, 15, 16, 17, 29, 30, 31],
    }
    rows = [dict(event="deal", seat=s, tile=t) for s, ts in hands.items() for t in ts]
    rows += [
        dict(event="bao", seat=-1, tile=20),
        dict(event="discard", seat=1, tile=28),  # 东 from seat 1, pengs by seat 0
        dict(event="claim", seat=0, tile=28, from_seat=1, action="peng"),
        dict(event="discard", seat=0, tile=32),
    ]
    base = {
        "from_seat": -1,
        "action": None,
        "options": 0,
        "wall_left": 36,
        "bao": 20,
        "wait": None,
        "outs": -1,
    }
    log = pd.DataFrame([{**base, "other_tile": -1, **r} for r in rows])
    states = table_states(log, dealer=0)
    last = states[-1]
    assert len(last["hands"]) == len(last["ponds"]) == 2
    assert last["melds"][0] == [{"kind": "peng", "tile": 28, "claimed": 28, "from": 1}]
    assert [p["claimed"] for p in last["ponds"][1]] == [True] and last["ponds"][0][0]["tile"] == 32
    end = deal_end_html(log)
    meld = _svg(re.search(r'<span class="meld".*?</span>', end).group(0)).findall("svg")
    assert ["sideways" in m.get("class") for m in meld] == [False, True, False]  # across: the middle
    page = viewer_page({"title": "t", "seats": ["a", "b"], "dealer": 0, "states": states})
    assert page.count('<section class="seat"') == 2


def test_a_beijing_hand_draws_its_winds_and_dragons():
    beijing = ds.RuleSet(family="beijing")
    h = ds.parse_hand("23m456p东东东南南 [白白白] 7z", family="beijing")
    assert _tiles_of(h._repr_html_()) == [1, 2, 12, 13, 14, 28, 28, 28, 29, 29, 27, 32, 32, 32]
    page = ds.analyze_hand("23m456p东东东南南 [白白白]", rules=beijing)._repr_html_()
    assert "(Beijing)" in page and re.findall(r'class="wait" data-tile="(\d+)"', page) == ["0", "3"]
