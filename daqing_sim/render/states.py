"""The table after every move of a deal, computed from its :func:`daqing_sim.deal_log` frame.

One JSON-ready dict per move (:func:`table_states`): each seat's concealed tiles (and the tile it
has just drawn), melds (with the claimed tile and whom it came from), pond (with the 摸打,
declaring and claimed marks), ready flags, the wall count and the bao, the move's text and the
claim offers of the discard; Beijing's 烧庄 rounds and 互包 bindings, the two-player flower
tiles and extra draws. The replay viewer and the deal log's HTML only draw these states. Every
family: four seats or two, 28 or 34 tile kinds.
Only the frame's columns are read (no engine, no second rules implementation): a discard is
摸打 when it is the tile its seat drew that turn, as the engine marks its ponds.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from daqing_sim.codes import FAMILIES as CODE_FAMILIES
from daqing_sim.families import family_spec
from daqing_sim.render.tiles import NAMES

# the claim actions of the log's ``action`` column, by their bit in ``options``
ACTION_BITS = ("pass", "peng", "kong", "chi_low", "chi_mid", "chi_high", "win")
FAMILIES = CODE_FAMILIES
_CHI_OFFSET = {"chi_low": 0, "chi_mid": 1, "chi_high": 2}
REQUIRED = ("event", "seat", "tile", "from_seat", "action", "options", "wall_left", "bao")


def _name(t: int) -> str:
    return NAMES[t]


class _Table:
    def __init__(self, dealer: int, n_seats: int) -> None:
        self.dealer = dealer
        self.n_seats = n_seats
        self.flowers: list[int] = []
        self.extra: list[dict] = []
        self.burn = 0
        self.bound: list[list[int]] = []
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.drawn: list[int | None] = [None] * n_seats
        self.melds: list[list[dict]] = [[] for _ in range(n_seats)]
        self.ponds: list[list[dict]] = [[] for _ in range(n_seats)]
        self.ready = [False] * n_seats
        self.wall_left = 0
        self.bao = -1
        self.offers: list[dict] = []
        self.win: dict | None = None

    def take(self, seat: int, tile: int, n: int = 1) -> None:
        for _ in range(n):
            if self.drawn[seat] == tile:
                self.drawn[seat] = None
            else:
                self.hands[seat].remove(tile)

    def settle_drawn(self, seat: int) -> None:
        if self.drawn[seat] is not None:
            self.hands[seat].append(self.drawn[seat])
            self.drawn[seat] = None

    def snapshot(
        self, step: int, event: str, text: str, seat: int, public: str | None = None
    ) -> dict[str, Any]:
        return {
            "step": step,
            "event": event,
            "seat": seat,
            "text": text,
            "public": text if public is None else public,
            "hands": [sorted(h) for h in self.hands],
            "drawn": list(self.drawn),
            "melds": [[dict(m) for m in ms] for ms in self.melds],
            "ponds": [[dict(p) for p in ps] for ps in self.ponds],
            "ready": list(self.ready),
            "wall_left": self.wall_left,
            "bao": self.bao,
            "offers": [dict(o) for o in self.offers],
            "win": self.win,
            "flowers": list(self.flowers),
            "extra": [dict(x) for x in self.extra],
            "burn": self.burn,
            "bound": [list(b) for b in self.bound],
        }


def _claim_meld(t: _Table, seat: int, tile: int, action: str, from_seat: int) -> str:
    if action in ("peng", "kong"):
        t.take(seat, tile, 2 if action == "peng" else 3)
        t.melds[seat].append({"kind": action, "tile": tile, "claimed": tile, "from": from_seat})
        return f"seat {seat} {action}s {_name(tile)} from seat {from_seat}"
    if action not in _CHI_OFFSET:
        raise ValueError(f"claim action {action!r} is unknown: a deal log has {', '.join(ACTION_BITS)}")
    low = tile - _CHI_OFFSET[action]
    for x in range(low, low + 3):
        if x != tile:
            t.take(seat, x)
    t.melds[seat].append({"kind": "chi", "tile": low, "claimed": tile, "from": from_seat})
    return f"seat {seat} chis {_name(tile)} from seat {from_seat}"


def _rob_kong(t: _Table, robber: int, tile: int, declarer: int, concealed: bool) -> str:
    """抢杠: the declarer's kong is undone (an added kong back to its peng; a concealed one, robbed
    by a hand with 一条龙, back into the hand but the robbed tile)."""
    melds = t.melds[declarer]
    if concealed:
        j = max(j for j, m in enumerate(melds) if m["kind"] == "concealed_kong" and m["tile"] == tile)
        del melds[j]
        t.hands[declarer].extend([tile] * 3)
    else:
        for m in melds:
            if m["kind"] == "added_kong" and m["tile"] == tile:
                m["kind"] = "peng"
    kind = "concealed kong (with 一条龙)" if concealed else "added kong"
    return f"seat {robber} robs seat {declarer}'s {kind} of {_name(tile)} (抢杠)"


def options_names(options: int) -> list[str]:
    """The claim actions a seat was offered, from the ``options`` bit mask."""
    return [a for i, a in enumerate(ACTION_BITS) if int(options) >> i & 1]


def family_of(df: pd.DataFrame) -> str:
    """The rule family of a deal log: ``attrs["family"]``, else the family of as many seats as
    were dealt to, with a bao when the log sets one aside (two seats: two-player; no bao:
    Beijing; else Daqing)."""
    fam = df.attrs.get("family")
    if fam in FAMILIES:
        return str(fam)
    seats = len(set(df.loc[df["event"] == "deal", "seat"].astype(int)))
    with_bao = bool((df["event"] == "bao").any())
    found = [f for f in FAMILIES if family_spec(f).seats == seats]
    return next((f for f in found if (family_spec(f).bao_position >= 0) == with_bao), (found or FAMILIES)[0])


def _win_offer_text(t: _Table, offer: dict, tile: int) -> str:
    answer = "takes it" if offer["action"] == "win" else "passes and stays declared"
    return f"seat {offer['seat']} (报听) may win on {_name(tile)} or pass: it {answer}"


def table_states(
    df: pd.DataFrame, dealer: int | None = None, family: str | None = None
) -> list[dict[str, Any]]:
    """The table after the deal and after every move of a :func:`daqing_sim.deal_log` frame.

    Parameters
    ----------
    df : pandas.DataFrame
        A deal log (``ds.deal_log(seed, deal)``).
    dealer : int, optional
        Default ``df.attrs["dealer"]``, else the seat dealt 14 tiles.
    family : str, optional
        ``"daqing"``, ``"beijing"`` or ``"two_player"``; default :func:`family_of` the log.

    Returns
    -------
    list of dict
        One entry per seat (as many as the log deals to: four, or two) in ``hands``,
        ``drawn``, ``melds``, ``ponds`` and ``ready`` (上听; 报听 for two players). State 0 is
        the deal (hands dealt, the bao set aside, the flower tiles face up: ``flowers``); then
        one state per draw, discard, declaration, claim, kong, bao replacement, robbed kong,
        互包 binding (``bound``: pairs of seats), 烧庄 round (``burn``), extra draw of 海底捞月
        (``extra``: tile, seat, whether it won) and the end; the claim offers of one discard are
        one state (``offers``: seat, the actions offered, its answer). ``step`` is the last row
        of ``df`` the state includes; ``text`` describes the move, ``public`` as the other
        seats see it (no drawn tile, wait or offers). Tile codes as in :mod:`daqing_sim.render.tiles`.

    Raises
    ------
    ValueError
        When ``df`` is not a deal log (a required column is missing, or a move is impossible).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> states = table_states(ds.deal_log(0, 3, strategies=("random",) * 4))
    >>> [len(h) for h in states[0]["hands"]], states[0]["wall_left"]
    ([14, 13, 13, 13], 58)
    """
    if not isinstance(df, pd.DataFrame) or any(c not in df.columns for c in REQUIRED):
        missing = [c for c in REQUIRED if not isinstance(df, pd.DataFrame) or c not in df.columns]
        raise ValueError(
            f"not a deal log (missing columns {', '.join(missing)}): pass ds.deal_log(seed, deal)"
        )
    records = df.to_dict("records")
    if dealer is None:
        dealer = df.attrs.get("dealer")
        if dealer is None:
            dealer = next((r["seat"] for r in records if r["event"] == "deal"), 0)
    n_seats = 1 + max((int(r["seat"]) for r in records if r["event"] == "deal"), default=-1)
    if n_seats < 2:
        raise ValueError("the deal log deals no tiles to two or more seats: pass ds.deal_log(seed, deal)")
    family = family_of(df) if family is None else family
    if family not in FAMILIES:
        raise ValueError(f"family={family!r} is unknown: use one of {', '.join(FAMILIES)}")
    labels = family_spec(family).labels
    t = _Table(int(dealer), n_seats)
    states: list[dict] = []
    dealt = False
    try:
        for i, r in enumerate(records):
            ev, seat, tile = str(r["event"]), int(r["seat"]), int(r["tile"])
            t.wall_left = int(r["wall_left"])
            if ev == "deal":
                t.hands[seat].append(tile)
                continue
            if ev == "bao":
                t.bao = tile
                continue
            if ev == "flower":
                t.flowers.append(tile)
                continue
            if ev == "final":
                break
            if not dealt:
                dealt = True
                text = f"dealt; seat {t.dealer} deals (14 tiles)"
                if t.flowers:
                    text += "; face up (花牌): " + " ".join(_name(f) for f in t.flowers)
                states.append(t.snapshot(i - 1, "deal", text, -1))
            public = None  # the move as the other seats see it, when that says less
            if ev != "claim_offer":
                t.offers = []
            if ev in ("draw", "kong_draw"):
                for s in range(t.n_seats):
                    t.settle_drawn(s)
                t.drawn[seat] = tile
                back = " from the back (kong replacement)" if ev == "kong_draw" else ""
                text = f"seat {seat} draws {_name(tile)}{back}"
                public = f"seat {seat} draws{back}"
            elif ev == "discard":
                thrown = t.drawn[seat] == tile
                t.take(seat, tile)
                t.settle_drawn(seat)
                t.ponds[seat].append({"tile": tile, "drawn": thrown, "declared": False, "claimed": False})
                text = f"seat {seat} discards {_name(tile)}" + (
                    " (摸打: the tile just drawn)" if thrown else ""
                )
            elif ev == "ready":
                t.ready[seat] = True
                if t.ponds[seat]:
                    t.ponds[seat][-1]["declared"] = True
                wait = r["wait"] if isinstance(r["wait"], str) else "no"
                text = labels.move_ready.format(seat=seat, wait=wait, outs=int(r["outs"]))
                public = labels.move_ready_public.format(seat=seat)
            elif ev == "claim_offer":
                offered = options_names(int(r["options"]))
                t.offers.append({"seat": seat, "tile": tile, "options": offered, "action": str(r["action"])})
                if i + 1 < len(records) and str(records[i + 1]["event"]) == "claim_offer":
                    continue
                if "win" in offered:  # two-player: a declared hand may win or pass
                    text = _win_offer_text(t, t.offers[-1], tile)
                    public = text if t.offers[-1]["action"] == "win" else None
                    if public is None:
                        public = f"{_name(tile)} may be claimed (who may, and who passes, is hidden)"
                    states.append(t.snapshot(i, ev, text, seat, public))
                    continue
                text = (
                    "claim offers on "
                    + _name(tile)
                    + ": "
                    + "; ".join(
                        f"seat {o['seat']} may {'/'.join(o['options'])}, {o['action']}" for o in t.offers
                    )
                )
                public = f"{_name(tile)} may be claimed (who may, and who passes, is hidden)"
            elif ev == "claim":
                from_seat = int(r["from_seat"])
                if t.ponds[from_seat]:
                    t.ponds[from_seat][-1]["claimed"] = True
                t.settle_drawn(seat)
                text = _claim_meld(t, seat, tile, str(r["action"]), from_seat)
            elif ev == "concealed_kong":
                t.take(seat, tile, 4)
                t.settle_drawn(seat)
                t.melds[seat].append({"kind": "concealed_kong", "tile": tile, "claimed": None, "from": None})
                text = f"seat {seat} declares a concealed kong of {_name(tile)}"
                public = f"seat {seat} declares a concealed kong"
            elif ev == "added_kong":
                t.take(seat, tile)
                t.settle_drawn(seat)
                for m in t.melds[seat]:
                    if m["kind"] == "peng" and m["tile"] == tile:
                        m["kind"] = "added_kong"
                text = f"seat {seat} adds {_name(tile)} to its peng (added kong)"
            elif ev == "bao_replaced":
                t.bao = tile
                text = f"three {_name(int(r['other_tile']))} visible: the bao is replaced (换宝)"
            elif ev == "robbed_kong":
                text = _rob_kong(t, seat, tile, int(r["from_seat"]), bool(int(r["options"])))
            elif ev == "mutual_bao":
                pair = sorted((seat, int(r["from_seat"])))
                t.bound.append(pair)
                text = (
                    f"seats {pair[0]} and {pair[1]} are bound (互包): three claims from one player; "
                    "either's win is paid by the other"
                )
            elif ev == "burn":
                t.burn = int(r["count"])
                text = (
                    f"烧庄 round {t.burn}: all three followed the dealer's {_name(tile)}; the dealer "
                    "owes each of them if the deal is won"
                )
            elif ev == "extra_draw":
                won = bool(int(r["options"]))
                for s in range(t.n_seats):
                    t.settle_drawn(s)
                t.extra.append({"tile": tile, "seat": seat, "won": won})
                if won:
                    t.drawn[seat] = tile
                n = int(r["count"])
                text = f"extra draw {n} (海底捞月): seat {seat} draws {_name(tile)}" + (
                    "" if won else "; no win: put aside"
                )
            elif ev in ("win", "bao_kan"):
                t.win = {
                    "seat": seat,
                    "tile": tile,
                    "method": str(r["action"]),
                    "from": int(r["from_seat"]),
                    "wait": r["wait"] if isinstance(r["wait"], str) else None,
                    "bao_kind": r["bao_kind"] if isinstance(r["bao_kind"], str) else "none",
                    "bao_kan": ev == "bao_kan",
                    "drawn": int(r["other_tile"]) if int(r["other_tile"]) >= 0 else None,
                    "robbed": i > 0 and str(records[i - 1]["event"]) == "robbed_kong",
                    "extra": bool(t.extra) and t.extra[-1]["won"],
                }
                how = (
                    "by self-draw" if t.win["method"] == "self_draw" else f"on seat {t.win['from']}'s discard"
                )
                if t.win["robbed"]:
                    how = f"by robbing seat {t.win['from']}'s kong (抢杠)"
                elif t.win["extra"]:
                    how = "by self-draw on an extra draw (海底捞月)"
                text = f"seat {seat} wins {how} on {_name(tile)}"
                if t.win["bao_kind"] != "none":
                    text += f" ({t.win['bao_kind']})"
            elif ev == "exhaustive_draw":
                text = labels.exhaustive_draw.format(wall_left=t.wall_left)
            else:
                raise ValueError(f"unknown deal log event {ev!r}")
            states.append(t.snapshot(i, ev, text, seat, public))
    except (IndexError, ValueError) as e:
        if "unknown" in str(e):
            raise
        raise ValueError(
            f"the deal log is inconsistent at row {i} ({ev}): pass an unmodified ds.deal_log frame"
        ) from None
    return states


__all__ = ["table_states", "family_of", "options_names", "ACTION_BITS", "FAMILIES"]
