"""The replay viewer in a real browser: headless Chromium opens the page of each rule family at
several ``#move=N``, and the rendered DOM must show each hand and pond as the deal log has them at
that move, and every CJK label drawn with the project's glyphs (no CJK text for a font to draw:
the test machine has no CJK font); a screenshot must show tiles.

Daqing: deal 34 of seed 0 (four expert players) has a claim (seat 2 pengs 6m), a ready
declaration (seat 2, kanchan) and a bao win (seat 2 self-draws the bao 4s, wild as 6s: 摸宝).
Beijing: deal 1597 of seed 5 (the expert field) has a 烧庄 round, a 互包 binding and a win.
Two-player: deal 0 of seed 3 (experts that pass small deal-in wins) has a flower tile, both
seats' 报听, a passed win and two extra draws of 海底捞月, the second winning. Without Chromium
the test is skipped, except in CI (``CI=true``), where a missing browser fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.game.deal_log import ACTIONS
from daqing_sim.game.simulate import simulate_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.render.labels import CJK

SEED, DEAL = 0, 34
PASSING = ({"pass_below": 6, "pass_min_left": 0},) * 2
PAGES = {  # family -> (seed, deal, ds.deal_log / ds.replay_html arguments)
    "daqing": (SEED, DEAL, {"strategies": ("expert",) * 4}),
    "beijing": (5, 1597, {"rules": ds.RuleSet(family="beijing")}),
    "two_player": (3, 0, {"rules": ds.RuleSet(family="two_player"), "knobs": PASSING}),
}
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
FACE = (0xFB, 0xF7, 0xEA)  # render.tiles.FACE, the tile's ivory
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI") == "true":
        pytest.fail("Chromium is missing in CI: .ci/run installs it (apt-get install chromium)")
    pytest.skip("Chromium not found (Debian: apt-get install chromium); the browser test needs it")


def _page(tmp_path_factory, family: str):
    browser = _browser()
    seed, deal, kw = PAGES[family]
    tmp = tmp_path_factory.mktemp(f"replay_{family}")
    path = tmp / "replay.html"
    ds.replay_html(seed, deal, path=path, **kw)
    log = ds.deal_log(seed, deal, **kw)
    return browser, path, tmp, log


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    return _page(tmp_path_factory, "daqing")


@pytest.fixture(scope="module", params=["beijing", "two_player"])
def family_page(request, tmp_path_factory):
    return _page(tmp_path_factory, request.param)


def _run(browser: str, tmp: Path, *args: str) -> str:
    cmd = [browser, *FLAGS, f"--user-data-dir={tmp / 'profile'}", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"chromium failed ({done.returncode}): {done.stderr[-800:]}"
    return done.stdout


class _Tiles(HTMLParser):
    """Every ``svg.tile`` with the classes and data attributes of its ancestors."""

    VOID = {"use", "path", "rect", "circle", "line", "meta", "input", "br"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict] = []
        self.tiles: list[dict] = []
        self.body: dict = {}
        self.text: list[str] = []  # text a font would draw (not in <title>, <script>, <style>)
        self.hrefs: set[str] = set()
        self.ids: set[str] = set()
        self.by_box: dict[str, list[tuple[str | None, str]]] = {}

    def _note(self, text: str) -> None:
        """File ``text`` under every class and #id of the elements around it, with its seat."""
        seat = next((u["seat"] for u in reversed(self.stack) if u["seat"] is not None), None)
        for u in self.stack:
            for c in u["cls"]:
                self.by_box.setdefault(c, []).append((seat, text))

    def handle_data(self, data):
        if not any(u["tag"] in ("title", "script", "style") for u in self.stack):
            self.text.append(data)
            self._note(data)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "use" and a.get("href"):
            self.hrefs.add(a["href"])
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "svg" and "cjk" in (a.get("class") or "").split():
            self._note(a.get("aria-label", ""))
        if tag == "body":
            self.body = a
        if tag == "svg" and "tile" in (a.get("class") or "").split():
            self.tiles.append({"tile": a.get("data-tile"), "cls": a["class"].split(), "up": list(self.stack)})
        if tag not in self.VOID:
            cls = (a.get("class") or "").split() + ([f"#{a['id']}"] if a.get("id") else [])
            self.stack.append({"tag": tag, "cls": cls, "seat": a.get("data-seat")})

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)  # self-closing: nothing to push
        if tag == "use" and a.get("href"):
            self.hrefs.add(a["href"])

    def drawn_with_glyphs(self) -> None:
        """No CJK character is left to a font, and every glyph used is defined in the page."""
        text = "".join(self.text)
        assert not CJK.search(text), f"CJK text drawn by a font: {CJK.findall(text)[:10]}"
        missing = {h for h in self.hrefs if h.startswith("#") and h[1:] not in self.ids}
        assert not missing, missing

    def label(self, box: str, seat: int | None = None) -> str:
        """The text in the elements of class ``box`` (``#box``: the id), its glyph labels read back
        as their characters; ``seat``: only within that seat's section."""
        return " ".join(
            " ".join(t for s, t in self.by_box.get(box, []) if seat is None or s == str(seat)).split()
        )

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                return

    def where(self, tile: dict, cls: str) -> dict | None:
        return next((u for u in reversed(tile["up"]) if cls in u["cls"]), None)

    def seat_tiles(self, seat: int, region: str, inner: str | None = None) -> list[dict]:
        out = []
        for t in self.tiles:
            box = self.where(t, region)
            if box is None or box["seat"] != str(seat):
                continue
            if inner is None or self.where(t, inner) is not None:
                out.append(t)
        return out


def _dom(page, move: int, hidden: bool = True) -> _Tiles:
    browser, path, tmp, _ = page
    url = f"{path.as_uri()}#move={move}" + ("" if hidden else "&hidden=0")
    parser = _Tiles()
    parser.feed(_run(browser, tmp, "--dump-dom", url))
    return parser


def _expected(log, step: int) -> tuple[list[Counter], list[list[int]]]:
    """Concealed tiles (the drawn one included) and ponds after row ``step``, from the log alone."""
    n = int(log.seat[log.event == "deal"].max()) + 1
    hands = [Counter() for _ in range(n)]
    ponds: list[list[int]] = [[] for _ in range(n)]
    take = {"peng": (0, 0), "kong": (0, 0, 0), "chi_low": (1, 2), "chi_mid": (-1, 1), "chi_high": (-2, -1)}
    for r in log[log.step <= step].itertuples():
        if r.event in ("deal", "draw", "kong_draw") or (r.event == "extra_draw" and r.options):
            hands[r.seat][r.tile] += 1
        elif r.event == "robbed_kong" and r.options:  # a robbed concealed kong: three go back
            hands[r.from_seat][r.tile] += 3
        elif r.event == "discard":
            hands[r.seat][r.tile] -= 1
            ponds[r.seat].append(r.tile)
        elif r.event == "claim":
            for d in take[r.action]:
                hands[r.seat][r.tile + d] -= 1
        elif r.event == "concealed_kong":
            hands[r.seat][r.tile] -= 4
        elif r.event == "added_kong":
            hands[r.seat][r.tile] -= 1
    return [+h for h in hands], ponds


def _moves(log) -> dict[str, int]:
    """Move numbers of the page (one per event; the deal is move 0; a discard's offers are one):
    each event's first move, ``last``, and ``passed_win``: a declared hand passing a win."""
    events = log[~log.event.isin(["deal", "bao", "flower", "final"])].reset_index(drop=True)
    move, moves, prev = 0, {}, None
    for r in events.itertuples():
        if not (r.event == "claim_offer" and prev == "claim_offer"):
            move += 1
        prev = r.event
        moves.setdefault(r.event, move)
        if r.event == "claim_offer" and r.options & 1 << ACTIONS.index("win") and r.action == "pass":
            moves.setdefault("passed_win", move)
    moves["last"] = move
    return moves


def _check_seats(dom, hands, ponds, move) -> None:
    for s in range(len(hands)):
        held = dom.seat_tiles(s, "hand", "concealed") + dom.seat_tiles(s, "hand", "drawn-tile")
        assert Counter(int(t["tile"]) for t in held) == hands[s], (move, s)
        pond = dom.seat_tiles(s, "pond")
        assert [int(t["tile"]) for t in pond] == ponds[s], (move, s)


def test_the_viewer_shows_the_deal_log_at_every_move_asked(page):
    log = page[3]
    moves = _moves(log)
    assert {"claim", "ready", "win"} <= set(moves)
    assert log.loc[log.event == "win", "bao_kind"].tolist() == ["bao"]  # 摸宝
    for move in sorted({0, moves["claim"], moves["ready"], moves["ready"] + 3, moves["last"]}):
        dom = _dom(page, move)
        assert dom.body.get("data-move") == str(move)
        step = int(dom.body["data-step"])
        hands, ponds = _expected(log, step)
        _check_seats(dom, hands, ponds, move)
        dom.drawn_with_glyphs()
    # the claim: the claimed discard is faded in the pond and lies sideways in the meld
    claim = log[log.event == "claim"].iloc[0]
    dom = _dom(page, moves["claim"])
    giver = dom.seat_tiles(int(claim.from_seat), "pond")
    assert "claimed" in giver[-1]["cls"] and giver[-1]["tile"] == str(claim.tile)
    meld = dom.seat_tiles(int(claim.seat), "meld")
    assert [t["tile"] for t in meld if "sideways" in t["cls"]] == [str(claim.tile)]
    # the ready declaration: that seat's last discard is marked, and it is shown as seeing the bao
    ready = log[log.event == "ready"].iloc[0]
    dom = _dom(page, moves["ready"])
    mine = dom.seat_tiles(int(ready.seat), "pond")
    assert "declared" in mine[-1]["cls"] and "sideways" in mine[-1]["cls"]
    assert sum("declared" in t["cls"] for s in range(4) for t in dom.seat_tiles(s, "pond")) == 1


def test_show_hidden_off_keeps_the_hands_and_the_bao_secret(page):
    log = page[3]
    dom = _dom(page, _moves(log)["ready"], hidden=False)
    assert dom.body.get("data-hidden") == "0"
    for s in range(4):
        held = dom.seat_tiles(s, "hand", "concealed")
        assert held and all(t["tile"] is None and "back" in t["cls"] for t in held)
        assert all(t["tile"] is not None for t in dom.seat_tiles(s, "pond"))  # discards are public
    bao = [t for t in dom.tiles if dom.where(t, "#bao") or dom.where(t, "sees-bao")]
    assert bao and all(t["tile"] is None for t in bao)
    shown = _dom(page, _moves(log)["ready"])
    assert [t["tile"] for t in shown.tiles if shown.where(t, "#bao")] == [str(log.bao.iloc[-1])]


def test_the_screenshot_shows_tiles(page):
    from matplotlib.image import imread

    browser, path, tmp, log = page
    shots = Path(os.environ.get("DAQING_SHOTS", tmp))
    shots.mkdir(parents=True, exist_ok=True)
    png = shots / f"replay_seed{SEED}_deal{DEAL}_win.png"
    url = f"{path.as_uri()}#move={_moves(log)['last']}"
    _run(browser, tmp, "--window-size=1280,900", f"--screenshot={png}", url)
    img = (imread(png)[..., :3] * 255).round().astype(np.uint8)
    assert img.shape[:2] == (900, 1280)
    colours = np.unique(img.reshape(-1, 3), axis=0)
    assert len(colours) > 200  # tiles, glyphs and text: no blank or error page
    face = (np.abs(img.astype(int) - FACE).sum(axis=2) <= 6).mean()
    assert face > 0.01, f"the tile face colour covers {face:.2%} of the page"
    red = ((img[..., 0] > 170) & (img[..., 1] < 80) & (img[..., 2] < 80)).sum()
    assert red > 200  # the 萬 and 中 glyphs are drawn (red paths)


def test_beijing_and_two_player_pages_show_their_deal_logs(family_page):
    """Each family's page against its log at the deal, its own mechanics' moves and the end;
    every label in the project's glyphs."""
    browser, path, tmp, log = family_page
    family = log.attrs["family"]
    moves = _moves(log)
    own = ["burn", "mutual_bao"] if family == "beijing" else ["ready", "passed_win", "extra_draw"]
    assert set(own) <= set(moves)
    asked = sorted({0, moves["last"], *(moves[e] for e in own), moves[own[0]] + 2})
    doms = {}
    for move in asked:
        dom = doms[move] = _dom(family_page, move)
        step = int(dom.body["data-step"])
        hands, ponds = _expected(log, step)
        assert len(hands) == (2 if family == "two_player" else 4)
        _check_seats(dom, hands, ponds, move)
        dom.drawn_with_glyphs()
        assert dom.body.get("data-family") == family
    end = doms[moves["last"]]
    win = log[log.event == "win"].iloc[0]
    assert "和" in end.label("#win") and f"seat {win.seat} wins" in end.label("#win")
    seed, deal, kw = PAGES[family]
    walls, _, seeds = generate_walls(1, seed, deal, family=family)
    sim = simulate_walls(walls, seeds, first_deal=deal, **kw).iloc[0]
    pays = [int(sim[f"pay_{s}"]) for s in range(len(hands))]
    shown = [end.label("pays", s).split()[-1] for s in range(len(hands))]
    assert [int(x.replace(",", "")) for x in shown] == pays
    fans = [c[4:] for c in sim.index if c.startswith("fan_") and c != "fan_total" and sim[c]]
    assert fans and all(code in end.label("fans") for code in fans)
    if family == "beijing":
        burn = log[log.event == "burn"].iloc[0]
        assert f"round {burn['count']}" in doms[moves["burn"]].label("#burn")
        assert ("烧庄" in end.label("#win")) == (sim.burn_rounds > 0 and sim.winner >= 0)
        bound = log[log.event == "mutual_bao"].iloc[0]
        for a, b in ((bound.seat, bound.from_seat), (bound.from_seat, bound.seat)):
            assert end.label("bound", a) == f"互包 with seat {b}"
        others = set(range(4)) - {bound.seat, bound.from_seat}
        assert all(end.label("bound", s) == "" for s in others)
    else:
        assert "报听" in doms[moves["ready"]].label("#move-text")
        flowers = [t for t in doms[0].tiles if doms[0].where(t, "#flowers")]
        assert [int(t["tile"]) for t in flowers] == log.tile[log.event == "flower"].tolist()
        extra = log[log.event == "extra_draw"]
        shown = [t for t in end.tiles if end.where(t, "#extra")]
        assert [int(t["tile"]) for t in shown] == extra.tile.tolist()
        assert [("highlight" in t["cls"]) for t in shown] == [bool(x) for x in extra.options]
        passed = doms[moves["passed_win"]].label("#move-text")
        assert "报听" in passed and "passes" in passed


def test_each_family_screenshot_shows_tiles_and_red_glyphs(family_page):
    from matplotlib.image import imread

    browser, path, tmp, log = family_page
    shots = Path(os.environ.get("DAQING_SHOTS", tmp))
    shots.mkdir(parents=True, exist_ok=True)
    png = shots / f"replay_{log.attrs['family']}_seed{log.attrs['seed']}_deal{log.attrs['deal']}_end.png"
    _run(
        browser,
        tmp,
        "--window-size=1280,900",
        f"--screenshot={png}",
        f"{path.as_uri()}#move={_moves(log)['last']}",
    )
    img = (imread(png)[..., :3] * 255).round().astype(np.uint8)
    assert img.shape[:2] == (900, 1280) and len(np.unique(img.reshape(-1, 3), axis=0)) > 200
    assert (np.abs(img.astype(int) - FACE).sum(axis=2) <= 6).mean() > 0.01
    assert ((img[..., 0] > 170) & (img[..., 1] < 80) & (img[..., 2] < 80)).sum() > 200


def test_the_win_is_drawn_by_its_settlements_kind_not_the_familys_name(page, tmp_path):
    """The viewer draws a win settled per loser (Daqing's: each seat's fans and payment) or by F
    and a value from the settlement itself, so a family settled as Daqing is, under another
    name, shows its win table: here Daqing's deal on a page labelled Beijing."""
    from daqing_sim.game.replay_html import replay_payload
    from daqing_sim.render.viewer import viewer_page

    browser, _, _, log = page
    payload = replay_payload(SEED, DEAL, **PAGES["daqing"][2])
    payload["family"] = "beijing"
    path = tmp_path / "relabelled.html"
    path.write_text(viewer_page(payload), encoding="utf-8")
    dom = _dom((browser, path, tmp_path, log), _moves(log)["last"])
    assert dom.body.get("data-family") == "beijing"
    pays = payload["settlement"]["payments"]
    shown = [dom.label("#win", s).split() for s in range(4)]
    assert all(len(words) >= 3 for words in shown), f"no win table per seat: {shown}"
    assert [int(words[2].replace(",", "")) for words in shown] == pays, shown
