"""The replay viewer in a real browser: headless Chromium opens the page at several ``#move=N``,
and the rendered DOM must show each hand and pond as the deal log has them at that move; a
screenshot must show tiles.

Deal 34 of seed 0 (four expert players) has a claim (seat 2 pengs 6m), a ready declaration
(seat 2, kanchan) and a bao win (seat 2 self-draws the bao 4s, wild as 6s: 摸宝). Without
Chromium the test is skipped, except in CI (``CI=true``), where a missing browser fails.
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

SEED, DEAL = 0, 34
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


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    browser = _browser()
    tmp = tmp_path_factory.mktemp("replay")
    path = tmp / "replay.html"
    ds.replay_html(SEED, DEAL, path=path)
    log = ds.deal_log(SEED, DEAL, strategies=("expert",) * 4)
    return browser, path, tmp, log


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

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "svg" and "tile" in (a.get("class") or "").split():
            self.tiles.append({"tile": a.get("data-tile"), "cls": a["class"].split(), "up": list(self.stack)})
        if tag not in self.VOID:
            cls = (a.get("class") or "").split() + ([f"#{a['id']}"] if a.get("id") else [])
            self.stack.append({"tag": tag, "cls": cls, "seat": a.get("data-seat")})

    def handle_startendtag(self, tag, attrs):
        pass  # self-closing: nothing to push

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
    hands = [Counter() for _ in range(4)]
    ponds: list[list[int]] = [[] for _ in range(4)]
    take = {"peng": (0, 0), "kong": (0, 0, 0), "chi_low": (1, 2), "chi_mid": (-1, 1), "chi_high": (-2, -1)}
    for r in log[log.step <= step].itertuples():
        if r.event in ("deal", "draw", "kong_draw"):
            hands[r.seat][r.tile] += 1
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
    """Move numbers of the page (one per event; the deal is move 0; a discard's offers are one)."""
    events = log[~log.event.isin(["deal", "bao", "final"])].reset_index(drop=True)
    move, moves, prev = 0, {}, None
    for r in events.itertuples():
        if not (r.event == "claim_offer" and prev == "claim_offer"):
            move += 1
        prev = r.event
        moves.setdefault(r.event, move)
    moves["last"] = move
    return moves


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
        for s in range(4):
            held = dom.seat_tiles(s, "hand", "concealed") + dom.seat_tiles(s, "hand", "drawn-tile")
            assert Counter(int(t["tile"]) for t in held) == hands[s], (move, s)
            pond = dom.seat_tiles(s, "pond")
            assert [int(t["tile"]) for t in pond] == ponds[s], (move, s)
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
