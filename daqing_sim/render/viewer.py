"""The replay viewer: one self-contained HTML page (inline SVG, CSS and JS; no network).

:func:`viewer_page` turns a payload computed in Python (the table after every move, from
:func:`daqing_sim.render.states.table_states`, and the settlement) into the page; the script
(``viewer.js``) only draws the state it is given, with the tiles as ``<use>`` of the symbols
of :func:`daqing_sim.render.tiles.symbols_svg`.

Stable hooks for tests and scripts: ``body[data-move]`` (the move shown) and
``body[data-step]`` (its row of the deal log); ``.seat[data-seat]`` holding
``.hand[data-seat]`` (``.concealed``, ``.drawn-tile``, ``.meld[data-kind][data-tile]``) and
``.pond[data-seat]``, every tile an ``svg.tile[data-tile]`` (no ``data-tile`` on a tile shown
face down for secrecy); ``#move`` (the slider), ``#first``, ``#prev``, ``#next``, ``#last``,
``#show-hidden``, ``#bao``, ``#wall-left``, ``#move-text``, ``#offers``, ``#win``. A URL
ending ``#move=N`` opens at move N (``#move=N&hidden=0``: hands and bao hidden).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from daqing_sim.render.table import CSS
from daqing_sim.render.tiles import NAMES, symbols_svg

HERE = Path(__file__).parent


def _read(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def _seat_html(seat: int, name: str, dealer: bool) -> str:
    tag = '<span class="badge dealer">dealer 庄</span>' if dealer else ""
    return (
        f'<section class="seat" data-seat="{seat}"><h2>seat {seat} '
        f'<span class="badge">{html.escape(name)}</span>{tag}'
        f'<span class="badge ready" hidden>ready 上听</span><span class="sees-bao" hidden></span></h2>'
        f'<div class="row"><div class="hand" data-seat="{seat}"></div>'
        f'<div class="pond" data-seat="{seat}"></div></div></section>'
    )


def viewer_page(payload: dict[str, Any]) -> str:
    """The replay page of ``payload``.

    Parameters
    ----------
    payload : dict
        ``title``, ``subtitle`` (str), ``seats`` (a name per seat: four, or two), ``dealer``,
        ``states``
        (:func:`~daqing_sim.render.states.table_states`) and ``settlement`` (``winner``,
        ``payments``, ``fans`` by loser seat, ``big``, ``pays_all``; or None).

    Returns
    -------
    str
        The HTML document.
    """
    for key in ("title", "seats", "dealer", "states"):
        if key not in payload:
            raise ValueError(f"the viewer payload has no {key!r}: build it with ds.replay_html")
    if not payload["states"]:
        raise ValueError("the viewer payload has no states: a deal log has at least the deal")
    data = {"names": list(NAMES), "states": payload["states"], "settlement": payload.get("settlement")}
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    seats = "".join(_seat_html(s, n, s == payload["dealer"]) for s, n in enumerate(payload["seats"]))
    title = html.escape(payload["title"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{CSS}{_read("viewer.css")}</style></head>
<body data-move="0">
{symbols_svg()}
<header><h1>{title}</h1><div class="sub">{html.escape(payload.get("subtitle", ""))}</div></header>
<div id="controls">
<button id="first" title="first move (Home)">|◀</button><button id="prev" title="previous move (←)">◀</button>
<button id="next" title="next move (→)">▶</button><button id="last" title="last move (End)">▶|</button>
<input id="move" type="range" min="0" max="0" value="0" aria-label="move">
<span id="move-no"></span>
<label><input id="show-hidden" type="checkbox" checked> show hidden (hands, bao)</label>
</div>
<main class="dq"><div class="seats">{seats}</div>
<aside><div id="move-text"></div>
<h3>live wall</h3><div><span id="wall-left"></span> tiles left</div>
<h3>bao 宝</h3><div id="bao-box"><span id="bao" class="dq"></span>
<span>face down; a ready seat sees it</span></div>
<h3>claim offers</h3><ul id="offers" class="dq"></ul>
<div id="win" class="dq" hidden></div>
<h3>marks</h3><div class="note">grey corner: 摸打 (thrown as drawn); sideways with a red bar: the
discard that declared ready; faded: claimed; sideways in a meld: the claimed tile, pointing to
the seat it came from</div>
</aside></main>
<script type="application/json" id="replay-data">{blob}</script>
<script>{_read("viewer.js")}</script>
</body></html>
"""


__all__ = ["viewer_page"]
