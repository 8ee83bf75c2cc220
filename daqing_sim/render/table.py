"""HTML pictures of hands, melds and ponds, built of :func:`~daqing_sim.render.tiles.tile_svg`.

Every fragment is plain HTML with inline SVG and the classes of :data:`CSS` (one ``<style>``
per picture, scoped to ``.dq``), so it shows the same in Jupyter, a browser or a saved page.
Elements carry ``data-tile`` (the code), ``data-seat``, ``data-kind`` so that tests and scripts
can read a picture back. Hands are read by duck typing (``counts``, ``melds`` of ``kind`` and
``tile``, optionally ``order``): this module imports no hand or game module, so those can call it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

import numpy as np

from daqing_sim.codes import family_title
from daqing_sim.render.tiles import N_ALL_KINDS, check_tile, tile_svg

MELD_KINDS = ("chi", "peng", "kong", "concealed_kong", "added_kong")
CSS = """
.dq{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;color:#1c1c28}
.dq .tiles,.dq .concealed,.dq .meld,.dq .hand,.dq .melds{
  display:inline-flex;align-items:flex-end;gap:1px;vertical-align:bottom}
.dq .hand{gap:0;flex-wrap:wrap}
.dq .melds{gap:7px;margin-left:9px}
.dq .drawn-tile{margin-left:7px;display:inline-flex}
.dq .stack{display:inline-flex;flex-direction:column;gap:0}
.dq .pond{display:flex;flex-wrap:wrap;gap:1px;align-items:flex-end;max-width:var(--pond-width,230px)}
.dq svg.tile{display:block;flex:none}
.dq table.advice{border-collapse:collapse}
.dq table.advice td,.dq table.advice th{
  padding:2px 7px;border-bottom:1px solid #ddd;text-align:right;vertical-align:middle}
.dq table.advice tr.best{background:#fff4cc}
.dq .note{color:#555;margin:2px 0}
.dq .label{font-weight:600;margin-right:6px}
.dq .seat{display:flex;gap:12px;align-items:flex-end;flex-wrap:wrap;margin:3px 0}
.dq .badge.ready{background:#b3262b;color:#fff;border-radius:7px;padding:0 5px;font-size:11px}
"""


def style() -> str:
    return f"<style>{CSS}</style>"


def tiles_html(tiles: Iterable[int], *, height: float = 36, cls: str = "tiles", marks: Sequence = ()) -> str:
    """A row of upright tiles (``marks[i]``: the marks of tile ``i``, see ``tile_svg``)."""
    tiles = list(tiles)
    marks = list(marks) or [()] * len(tiles)
    body = "".join(tile_svg(t, height=height, marks=m) for t, m in zip(tiles, marks, strict=True))
    return f'<span class="{cls}">{body}</span>'


def _counts_tiles(counts) -> list[int]:
    c = np.asarray(counts)
    if c.ndim != 1 or c.shape[0] > N_ALL_KINDS or (c < 0).any():
        raise ValueError(
            f"counts must be one count per tile code (at most {N_ALL_KINDS}), not shape {c.shape}"
        )
    return [t for t in range(c.shape[0]) for _ in range(int(c[t]))]


def meld_html(
    kind: str,
    tile: int,
    *,
    claimed: int | None = None,
    offset: int = 3,
    seat: int | None = None,
    height: float = 36,
) -> str:
    """One meld: its claimed tile turned sideways, a concealed kong's outer tiles face down.

    Parameters
    ----------
    kind : str
        ``"chi"``, ``"peng"``, ``"kong"``, ``"concealed_kong"`` or ``"added_kong"``.
    tile : int
        The meld's lowest tile.
    claimed : int, optional
        The tile taken from another seat (a chi's any of its three); default its lowest tile.
    offset : int
        Where the claimed tile came from, as seats after the owner: 3 is the left-hand seat
        (上家, the one before), 2 across, 1 the right-hand seat. The sideways tile points
        there: leftmost, middle, rightmost (the usual table convention).
    seat, height
        ``data-seat`` of the element, and the tile height.

    Examples
    --------
    >>> m = meld_html("concealed_kong", 4)
    >>> m.count('class="tile back"'), m.count('<svg class="tile')
    (2, 4)
    """
    if kind not in MELD_KINDS:
        raise ValueError(f"meld kind {kind!r} is unknown: use {', '.join(MELD_KINDS)}")
    tile = check_tile(tile)
    if kind == "chi" and (tile >= 27 or tile % 9 > 6):
        raise ValueError(f"a chi starts at a suited tile of rank 1-7, not code {tile}")
    if offset not in (1, 2, 3):
        raise ValueError(f"offset must be 1, 2 or 3 (seats after the owner), not {offset!r}")
    tiles = [tile, tile + 1, tile + 2] if kind == "chi" else [tile] * (3 if kind == "peng" else 4)
    claimed = tile if claimed is None else check_tile(claimed)
    if claimed not in tiles:
        raise ValueError(f"claimed tile {claimed} is not in the meld {kind} of {tiles}")
    data = f' data-kind="{kind}" data-tile="{tile}"' + ("" if seat is None else f' data-seat="{seat}"')
    if kind == "concealed_kong":
        body = "".join(tile_svg(t, height=height, face_down=i in (0, 3)) for i, t in enumerate(tiles))
        return f'<span class="meld"{data}>{body}</span>'
    rest = list(tiles)
    rest.remove(claimed)
    if kind == "added_kong":
        rest = rest[:2]
    side = tile_svg(claimed, height=height, sideways=True)
    if kind == "added_kong":
        side = f'<span class="stack">{tile_svg(claimed, height=height, sideways=True)}{side}</span>'
    pos = {3: 0, 2: 1, 1: len(rest)}[offset]
    parts = [tile_svg(t, height=height) for t in rest]
    parts.insert(pos, side)
    return f'<span class="meld"{data}>{"".join(parts)}</span>'


def hand_html(
    hand, *, height: float = 36, drawn: int | None = None, seat: int | None = None, wrap: bool = True
) -> str:
    """A hand: its concealed tiles in order, the drawn tile apart, then its melds.

    ``hand`` is a :class:`daqing_sim.Hand` or anything with ``counts`` and ``melds``. For a
    hand written with 14 tiles, the tile written last stands apart (it is the drawn or winning
    tile). Melds without a source turn their lowest tile sideways, as if from the left.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> html = hand_html(ds.parse_hand("13m456p789s中中 [345m]"))
    >>> html.count("<svg"), 'data-kind="chi"' in html
    (13, True)
    """
    tiles = _counts_tiles(hand.counts)
    melds = list(getattr(hand, "melds", ()))
    order = tuple(getattr(hand, "order", ()) or ())
    if drawn is None and order and len(tiles) + 3 * len(melds) == 14:
        drawn = order[-1]
    if drawn is not None:
        drawn = check_tile(drawn)
        if drawn not in tiles:
            raise ValueError(f"drawn tile {drawn} is not among the hand's concealed tiles")
        tiles.remove(drawn)
    body = tiles_html(tiles, height=height, cls="concealed")
    if drawn is not None:
        body += f'<span class="drawn-tile">{tile_svg(drawn, height=height)}</span>'
    if melds:
        body += (
            '<span class="melds">'
            + "".join(meld_html(m.kind, int(m.tile), height=height) for m in melds)
            + "</span>"
        )
    out = f'<span class="hand"{"" if seat is None else f" data-seat={chr(34)}{seat}{chr(34)}"}>{body}</span>'
    return f'<div class="dq">{style()}{out}</div>' if wrap else out


def pond_html(pond: Sequence[dict], *, height: float = 30, seat: int | None = None) -> str:
    """A pond in order: ``{"tile", "drawn", "declared", "claimed"}`` per discard (as
    :func:`daqing_sim.render.states.table_states` gives them). 摸打 discards carry a grey corner,
    the ready-declaring discard lies sideways with a red bar, claimed ones are faded."""
    parts = []
    for p in pond:
        marks = [m for m in ("drawn", "declared", "claimed") if p.get(m)]
        parts.append(tile_svg(p["tile"], height=height, sideways=bool(p.get("declared")), marks=marks))
    data = "" if seat is None else f' data-seat="{seat}"'
    return f'<span class="pond"{data}>{"".join(parts)}</span>'


def analysis_html(a) -> str:
    """A :class:`~daqing_sim.HandAnalysis` drawn: the hand, shanten, and its waits as tiles."""
    rows = [hand_html(a.hand, wrap=False)]
    family = family_title(str(getattr(a.rules, "family", "daqing")))
    family = family[0].upper() + family[1:]
    rows.append(f'<div class="note">shanten {a.shanten} ({family}), {a.standard_shanten} (standard)</div>')
    if a.hand.size == 13:
        ready = "ready" if a.ready else ("a ready shape; may not declare" if a.waits else "not ready")
        waits = "".join(
            f'<span class="wait" data-tile="{w.tile_kind}" title="{html.escape(str(w))}">'
            f"{tile_svg(w.tile_kind, height=30, marks=['highlight'] if w.big else [])}</span>"
            for w in a.waits
        )
        kinds = ", ".join(f"{w.tile} {w.kind}{' (夹, big)' if w.big else ''}" for w in a.waits) or "none"
        rows.append(f'<div class="note"><span class="label">{ready}; waits</span>'
                    f'<span class="tiles waits">{waits}</span> {html.escape(kinds)}</div>')  # fmt: skip
    else:
        if a.win is None:
            rows.append(f'<div class="note">no win on {html.escape(str(a.win_tile))}</div>')
        else:
            size = "big (夹)" if a.win.big else "small"
            bao = "" if a.bao_kind == "none" else f", {a.bao_kind} (bao as {a.win.tile})"
            yes = "wins" if a.may_declare else "a winning shape it may not declare"
            pic = tile_svg(a.win.tile_kind, height=30, marks=["highlight"])
            rows.append(
                f'<div class="note"><span class="label">{yes}</span>'
                f"{pic} {a.win.kind}, {size}{html.escape(bao)}</div>"
            )
    return f'<div class="dq analysis">{style()}{"".join(rows)}</div>'


def _tile_code(name: str) -> int | None:
    from daqing_sim.render.tiles import NAMES

    name = str(name).strip()
    name = "中" if name == "C" else name
    return NAMES.index(name) if name in NAMES else None


def advice_html(df, *, max_rows: int = 40) -> str:
    """The advisor's table (:func:`daqing_sim.advise`) with each discard drawn as its tile and the
    recommended row marked; numbers as pandas shows them."""
    cols = [c for c in df.columns if c != "recommended"]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in ["", *cols])
    body = []
    for i, (_, row) in enumerate(df.head(max_rows).iterrows()):
        best = bool(row.get("recommended", False))
        cells = ['<td class="mark">★</td>' if best else "<td></td>"]
        for c in cols:
            v = row[c]
            code = _tile_code(v) if c == "discard" else None
            if code is not None:
                pic = tile_svg(code, height=30, marks=["highlight"] if best else [])
                cells.append(f'<td class="discard" data-tile="{code}">{pic}</td>')
            elif isinstance(v, float | np.floating):
                cells.append(f"<td>{v:.4g}</td>")
            else:
                cells.append(f"<td>{html.escape(str(v))}</td>")
        body.append(f'<tr class="{"best" if best else ""}" data-row="{i}">{"".join(cells)}</tr>')
    more = "" if len(df) <= max_rows else f'<div class="note">{len(df) - max_rows} more rows</div>'
    hand = df.attrs.get("hand")
    top = f'<div class="note"><span class="label">hand</span>{html.escape(hand)}</div>' if hand else ""
    return (
        f'<div class="dq advice">{style()}{top}<table class="advice"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>{more}</div>"
    )


def _offset(giver: int | None, owner: int, n_seats: int) -> int:
    """Where a claimed tile came from, as :func:`meld_html` takes it (two seats: across)."""
    if giver is None:
        return 3
    return 2 if n_seats == 2 else (giver - owner) % n_seats


def seat_html(state: dict, seat: int, *, height: float = 32) -> str:
    """One seat of a :func:`~daqing_sim.render.states.table_states` state: hand, melds, pond."""
    drawn = state["drawn"][seat]
    body = tiles_html(state["hands"][seat], height=height, cls="concealed")
    if drawn is not None:
        body += f'<span class="drawn-tile">{tile_svg(drawn, height=height)}</span>'
    melds = "".join(
        meld_html(m["kind"], m["tile"], claimed=m["claimed"], seat=seat, height=height,
                  offset=_offset(m["from"], seat, len(state["hands"])))
        for m in state["melds"][seat]
    )  # fmt: skip
    body += f'<span class="melds">{melds}</span>' if melds else ""
    ready = ' <span class="badge ready">ready 上听</span>' if state["ready"][seat] else ""
    return (
        f'<div class="seat" data-seat="{seat}"><span class="label">seat {seat}{ready}</span>'
        f'<span class="hand" data-seat="{seat}">{body}</span> '
        f"{pond_html(state['ponds'][seat], height=height * 0.8, seat=seat)}</div>"
    )


def deal_end_html(df) -> str:
    """The table at the end of a :func:`daqing_sim.deal_log` deal, and how it ended."""
    from daqing_sim.render.states import table_states

    last = table_states(df)[-1]
    seats = "".join(seat_html(last, s) for s in range(len(last["hands"])))
    a = df.attrs
    head = f"deal {a['deal']} of seed {a['seed']}: " if "deal" in a and "seed" in a else ""
    end = html.escape(head + last["text"])
    bao = tile_svg(last["bao"], height=26) if last["bao"] >= 0 else ""
    wall = f"wall {last['wall_left']} left" + ("; bao" if bao else "")  # no bao but under Daqing
    return (
        f'<div class="dq deal-end">{style()}<div class="note"><span class="label">{end}</span> '
        f"{wall}</div>{bao}{seats}</div>"
    )


__all__ = [
    "hand_html",
    "seat_html",
    "deal_end_html",
    "meld_html",
    "pond_html",
    "tiles_html",
    "analysis_html",
    "advice_html",
    "CSS",
]
