"""The replay viewer: one self-contained HTML page (inline SVG, CSS and JS; no network).

:func:`viewer_page` turns a payload computed in Python (the table after every move, from
:func:`daqing_sim.render.states.table_states`, and the settlement; any rule family: four seats
or two, 28 or 34 tile kinds) into the page; the script
(``viewer.js``) only draws the state it is given, with the tiles as ``<use>`` of the symbols
of :func:`daqing_sim.render.tiles.symbols_svg`.

Stable hooks for tests and scripts: ``body[data-move]`` (the move shown) and
``body[data-step]`` (its row of the deal log); ``.seat[data-seat]`` holding
``.hand[data-seat]`` (``.concealed``, ``.drawn-tile``, ``.meld[data-kind][data-tile]``) and
``.pond[data-seat]``, every tile an ``svg.tile[data-tile]`` (no ``data-tile`` on a tile shown
face down for secrecy); ``#move`` (the slider), ``#first``, ``#prev``, ``#next``, ``#last``,
``#show-hidden``, ``#bao``, ``#wall-left``, ``#move-text``, ``#offers``, ``#win``; Beijing's
``#burn`` and ``.badge.bound``, two-player's ``#flowers`` and ``#extra``; with a review,
``#review`` (``#review-note``: the decisions at this move, ``.review-decision[data-decision]``
with ``.chosen`` and ``.best`` tiles; ``#mistakes`` of ``a.mistake[data-move]``) and
``#review-strip`` of ``.review-mark[data-move]``. A URL ending
``#move=N`` opens at move N (``#move=N&hidden=0``: hands and bao hidden). Every CJK label is
an ``svg.cjk`` of the project's glyphs (:mod:`daqing_sim.render.labels`), never text.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from daqing_sim.codes import FAMILIES
from daqing_sim.families import family_spec
from daqing_sim.render.labels import CSS as LABEL_CSS
from daqing_sim.render.labels import glyph_symbols, label_html
from daqing_sim.render.table import CSS
from daqing_sim.render.tiles import NAMES, symbols_svg

HERE = Path(__file__).parent


def _read(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def _seat_html(seat: int, name: str, dealer: bool, family: str) -> str:
    tag = f'<span class="badge dealer">{label_html("dealer 庄")}</span>' if dealer else ""
    labels = family_spec(family).labels
    ready = label_html(labels.ready_badge)
    extra = labels.seat_badge
    return (
        f'<section class="seat" data-seat="{seat}"><h2>seat {seat} '
        f'<span class="badge">{html.escape(name)}</span>{tag}'
        f'<span class="badge ready" hidden>{ready}</span>{extra}</h2>'
        f'<div class="row"><div class="hand" data-seat="{seat}"></div>'
        f'<div class="pond" data-seat="{seat}"></div></div></section>'
    )


def _aside(family: str, payload: dict[str, Any]) -> str:
    """The side panel: the wall, the family's own boxes, the offers, the win and the marks."""
    L = label_html
    labels = family_spec(family).labels
    wall = labels.viewer_wall.format(dead_wall=int(payload.get("dead_wall", 14)))
    own = "".join(f"<h3>{L(heading)}</h3>{body}" for heading, body in labels.viewer_boxes)
    marks = "grey corner: 摸打 (thrown as drawn); " + labels.declare_mark
    marks += "faded: claimed; sideways in a meld: the claimed tile, pointing to the seat it came from"
    return (
        f'<aside><div id="move-text"></div>{wall}{own}'
        '<h3>claim offers</h3><ul id="offers" class="dq"></ul>'
        '<div id="win" class="dq" hidden></div>'
        f"{_review_box(payload)}"
        f'<h3>marks</h3><div class="note">{L(marks)}</div></aside>'
    )


def _review_strip(payload: dict[str, Any]) -> str:
    """The marks of a review's decisions under the controls (drawn by the script)."""
    if not payload.get("review"):
        return ""
    return '<div id="review-strip" title="reviewed decisions: click one to go to it"></div>'


def _review_box(payload: dict[str, Any]) -> str:
    """The side panel's review: the decision at this move, the summary, the biggest mistakes."""
    r = payload.get("review")
    if not r:
        return ""
    return (
        f'<section id="review" data-seat="{int(r["seat"])}"><h3>review of seat {int(r["seat"])}</h3>'
        '<div id="review-note"></div><div id="review-summary" class="note"></div>'
        '<h3>biggest mistakes</h3><ol id="mistakes"></ol></section>'
    )


def viewer_page(payload: dict[str, Any]) -> str:
    """The replay page of ``payload``.

    Parameters
    ----------
    payload : dict
        ``title``, ``subtitle`` (str), ``family`` (``"daqing"`` when absent, ``"beijing"`` or
        ``"two_player"``), ``seats`` (a name per seat: four, or two), ``dealer``, ``states``
        (:func:`~daqing_sim.render.states.table_states`) and ``settlement`` (None, or the win:
        Daqing ``winner``, ``payments``, ``fans`` by loser seat, ``big``, ``pays_all``; the other
        families ``winner``, ``payments``, ``fans`` as ``[label, fans]`` pairs, ``fan_total``,
        ``value``, ``how``, Beijing's ``burn_rounds`` and ``mutual_payer``); optionally
        ``review`` (:func:`daqing_sim.reviews.viewer.review_payload`: one seat's decisions marked on
        their moves, the biggest mistakes listed, each a link to its move).

    Returns
    -------
    str
        The HTML document; every CJK character of it is drawn with the project's glyphs
        (:mod:`~daqing_sim.render.labels`), so the page needs no CJK font.
    """
    for key in ("title", "seats", "dealer", "states"):
        if key not in payload:
            raise ValueError(f"the viewer payload has no {key!r}: build it with ds.replay_html")
    if not payload["states"]:
        raise ValueError("the viewer payload has no states: a deal log has at least the deal")
    family = payload.get("family", "daqing")
    if family not in FAMILIES:
        raise ValueError(
            f"the viewer payload's family {family!r} is unknown: use one of {', '.join(FAMILIES)}"
        )
    data = {
        "family": family,
        "names": list(NAMES),
        "states": payload["states"],
        "settlement": payload.get("settlement"),
        "review": payload.get("review"),
    }
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    seats = "".join(_seat_html(s, n, s == payload["dealer"], family) for s, n in enumerate(payload["seats"]))
    title = html.escape(payload["title"])
    hidden_what = family_spec(family).labels.hidden
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{CSS}{LABEL_CSS}{_read("viewer.css")}</style></head>
<body data-move="0" data-family="{family}">
{symbols_svg()}
<header><h1>{label_html(payload["title"])}</h1>
<div class="sub">{label_html(payload.get("subtitle", ""))}</div></header>
<div id="controls">
<button id="first" title="first move (Home)">|◀</button><button id="prev" title="previous move (←)">◀</button>
<button id="next" title="next move (→)">▶</button><button id="last" title="last move (End)">▶|</button>
<input id="move" type="range" min="0" max="0" value="0" aria-label="move">
<span id="move-no"></span>
<label><input id="show-hidden" type="checkbox" checked> show hidden ({hidden_what})</label>
</div>
{_review_strip(payload)}
<main class="dq"><div class="seats">{seats}</div>
{_aside(family, payload)}</main>
<script type="application/json" id="replay-data">{blob}</script>
<script>{_read("viewer.js")}</script>
</body></html>
"""
    symbols = symbols_svg()
    return page.replace(symbols, symbols + glyph_symbols(page), 1)


__all__ = ["viewer_page"]
