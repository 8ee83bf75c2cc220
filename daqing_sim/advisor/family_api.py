"""The advisor's rows for the 34-kind families (Beijing, two-player): the exact single-player
model of :mod:`daqing_sim.advisor.family_exact`, claims, two-player's 报听 and the danger of
each family's expert. :func:`daqing_sim.advise` checks the common arguments and calls
:func:`family_rows`; the family modules (:mod:`.beijing`, :mod:`.two_player`) hold what
differs: the live wall, the seats, the payments and the danger.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from daqing_sim.advisor import family_exact as FX
from daqing_sim.codes import CHI, KONG, N_KINDS_ALL, PENG, ZHONG
from daqing_sim.hand.notation import Hand, Meld
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet

NO_DISCARD = "no discard"


class Family(Protocol):
    """What the rows need of a family (:mod:`.beijing`, :mod:`.two_player`)."""

    n_seats: int
    live_wall: int  # drawable tiles after the deal

    def contexts(self, pos: Position, mk, nm, declare: bool) -> tuple[int, int]: ...

    def win_on_discard(self, pos: Position, counts14: np.ndarray, mk, mt, nm, tile: int) -> float: ...

    def dangers(self, pos: Position, counts14: np.ndarray, mk, mt, nm) -> dict[int, np.ndarray]: ...


@dataclass
class Position:
    """The advised position: the pool of unseen tiles, the wall, the seats and the rules."""

    rules: RuleSet
    enc: np.ndarray
    pool: np.ndarray  # int64 (34,)
    wall_left: int
    draws_left: int | None
    k: int
    seat: int
    dealer: int
    n_seats: int
    extra: int  # draws after the wall's end (two-player 海底捞月)
    view: object  # advisor.table.TableView
    flowers: tuple[int, ...] = ()
    declared_opponent: bool = False
    attrs: dict = field(default_factory=dict)

    def draws(self, default: int) -> int:
        return default if self.draws_left is None else self.draws_left

    def own_draws(self, tiles_before: int) -> tuple[int, int]:
        """Own draws when the seat's next draw is the ``tiles_before + 1``-th wall tile, and 1
        when the last of them is the wall's last tile (its fan; not known under ``draws_left``)."""
        w = self.wall_left
        if w <= tiles_before:
            return self.draws(0), 0
        last = 1 if (w - tiles_before - 1) % self.n_seats == 0 and self.draws_left is None else 0
        return self.draws((w - tiles_before - 1) // self.n_seats + 1), last


def _shape_cols(pos: Position, counts, mk, mt, nm, draws: int) -> dict:
    """Shanten, outs and own draws of one 13-tile state."""
    lower = np.zeros(N_KINDS_ALL, dtype=np.uint8)
    shanten = FX.outs_k(np.ascontiguousarray(counts, dtype=np.uint8), mk, mt, nm, pos.pool, pos.enc,
                        get_tables(), lower)  # fmt: skip
    outs = [t for t in range(N_KINDS_ALL) if lower[t]]
    return {
        "shanten": int(shanten),
        "outs": int(sum(pos.pool[t] for t in outs)),
        "out_tiles": " ".join(f"{tile_name(t)}x{pos.pool[t]}" for t in outs),
        "draws": draws,
    }


def _value_cols(pos: Position, vals: np.ndarray) -> dict:
    row = {f"p_ready_{i + 1}": float(vals[i]) for i in range(pos.k)}
    row["p_win"] = float(vals[pos.k])
    row["ev"] = float(vals[pos.k + 1])
    return row


def _danger_cols(dangers: dict[int, np.ndarray], t: int | None) -> dict[str, float]:
    """``danger`` (to any opponent, as if independent) and ``danger_s{r}`` of discarding ``t``."""
    per = {r: (0.0 if t is None else float(d[t])) for r, d in dangers.items()}
    row = {"danger": float(1.0 - np.prod([1.0 - p for p in per.values()])) if per else 0.0}
    row.update({f"danger_s{r}": p for r, p in per.items()})
    return row


def single_row(fam: Family, pos: Position, counts, mk, mt, nm, draws: tuple[int, int], action: str) -> dict:
    """The row of a 13-tile state (no discard to choose): ``draws`` its own draws and whether
    the last is the wall's last tile."""
    vals = np.zeros(pos.k + 2)
    ctx_now, ctx = fam.contexts(pos, mk, nm, True)
    draws, last = draws
    FX.state_value_k(np.ascontiguousarray(counts, dtype=np.uint8), mk, mt, nm, pos.pool, pos.k, draws, last,
                     pos.extra, pos.enc, get_tables(), ctx_now, ctx, vals)  # fmt: skip
    return {
        "action": action,
        "discard": NO_DISCARD,
        **_shape_cols(pos, counts, mk, mt, nm, draws),
        **_value_cols(pos, vals),
    }


def discard_rows(fam: Family, pos: Position, counts14, mk, mt, nm, action: str) -> list[dict]:
    """One row per kind held in the 14-tile ``counts14``: the state after discarding it; under
    two-player a discard leaving a ready concealed hand has a second row, ``declare`` (报听)."""
    c14 = np.ascontiguousarray(counts14, dtype=np.uint8)
    draws, last = pos.own_draws(pos.n_seats - 1)  # the others draw first
    tabs = get_tables()
    dangers = fam.dangers(pos, c14, mk, mt, nm)
    declare = pos.rules.family == "two_player" and not FX.is_open(mk, nm) and action == "discard"
    rows = []
    ctx_now, ctx = fam.contexts(pos, mk, nm, False)
    vals = np.zeros((N_KINDS_ALL, pos.k + 2))
    FX.discard_values_k(
        c14, mk, mt, nm, pos.pool, pos.k, draws, last, pos.extra, pos.enc, tabs, ctx_now, ctx, vals
    )
    for d in range(N_KINDS_ALL):
        if c14[d] == 0:
            continue
        c = c14.copy()
        c[d] -= 1
        shape = _shape_cols(pos, c, mk, mt, nm, draws)
        rows.append({"action": action, "discard": tile_name(d), **shape, **_value_cols(pos, vals[d]),
                     **_danger_cols(dangers, d)})  # fmt: skip
        if declare and shape["shanten"] == 0:  # 报听: the same ready hand, the fan on every win
            now, later = fam.contexts(pos, mk, nm, True)
            v = np.zeros(pos.k + 2)
            FX.state_value_k(
                c, mk, mt, nm, pos.pool, pos.k, draws, last, pos.extra, pos.enc, tabs, now, later, v
            )
            rows.append({**rows[-1], "action": "declare", **_value_cols(pos, v)})
    return rows


def rank_key(row: dict, k: int) -> tuple:
    """Best first: a win at once, then ev, p_win, p_ready_k .. p_ready_1, shanten, outs."""
    return (
        row["action"] != "win",
        -round(row["ev"], 9),
        -round(row["p_win"], 12),
        *(-round(row[f"p_ready_{i}"], 12) for i in range(k, 0, -1)),
        row["shanten"],
        -row["outs"],
        row["action"] == "declare",
    )


def _with_meld(counts, mk, mt, nm, kind, low, used) -> tuple:
    c = counts.astype(np.int64).copy()
    for t in used:
        c[t] -= 1
    mk2, mt2 = mk.copy(), mt.copy()
    mk2[nm], mt2[nm] = kind, low
    return c, mk2, mt2, nm + 1


def claim_melds(
    counts, mk, mt, nm, tile: int, from_previous: bool, wall_left: int
) -> list[tuple[str, tuple]]:
    """The melds the 13 tiles may make of a discarded ``tile`` with no condition (推倒和): chi
    from the previous seat, peng with two copies, kong with three and a tile left to draw; none
    on the last discard (``wall_left`` 0: only a win may claim it).

    Examples
    --------
    >>> import numpy as np
    >>> from daqing_sim.hand.notation import parse_hand
    >>> h = parse_hand("46m55p789s东东南 [345m]", family="beijing")
    >>> [label for label, _ in claim_melds(h.counts, *h.meld_arrays(), 4, True, 40)]
    ['chi [456m]']
    """
    out = []
    if wall_left <= 0:
        return out
    if tile < ZHONG and from_previous:
        base = 9 * (tile // 9)
        for low in (tile - 2, tile - 1, tile):
            if low < base or low - base > 6:
                continue
            used = [t for t in (low, low + 1, low + 2) if t != tile]
            if all(counts[t] > 0 for t in used):
                out.append((f"chi {Meld('chi', low)}", _with_meld(counts, mk, mt, nm, CHI, low, used)))
    if counts[tile] >= 2:
        out.append((f"peng {Meld('peng', tile)}", _with_meld(counts, mk, mt, nm, PENG, tile, [tile, tile])))
    if counts[tile] >= 3 and wall_left >= 1:
        out.append((f"kong {Meld('kong', tile)}", _with_meld(counts, mk, mt, nm, KONG, tile, [tile] * 3)))
    return out


def claim_rows(fam: Family, pos: Position, hand: Hand, tile: int, claim_from: int) -> list[dict]:
    """Rows for a discarded ``tile``: win (when it completes the hand: taken at once, as the
    engine does for an undeclared hand), pass, and each chi, peng, kong (chi and peng with their
    best discard)."""
    n = pos.n_seats
    w = pos.wall_left
    gap = (pos.seat - claim_from) % n  # the seat's first own draw is the gap-th wall tile
    mk, mt, nm = hand.meld_arrays()
    counts = hand.counts.astype(np.int64)
    rows = []
    c14 = counts.copy()
    c14[tile] += 1
    win = fam.win_on_discard(pos, c14, mk, mt, nm, tile)
    if win > 0:
        rows.append(
            {
                "action": "win",
                "discard": NO_DISCARD,
                "shanten": -1,
                "outs": 0,
                "out_tiles": "",
                "draws": 0,
                **{f"p_ready_{i + 1}": 1.0 for i in range(pos.k)},
                "p_win": 1.0,
                "ev": win,
                **_danger_cols({}, None),
            }
        )
    rows.append({**single_row(fam, pos, counts, mk, mt, nm, pos.own_draws(gap - 1), "pass"),
                 **_danger_cols({}, None)})  # fmt: skip
    for label, (c, mk2, mt2, nm2) in claim_melds(counts, mk, mt, nm, tile, gap == 1, w):
        if label.startswith("kong"):  # the replacement tile is drawn at once, from the back
            last = 1 if w > n and (w - 1) % n == 0 and pos.draws_left is None else 0
            row = single_row(fam, pos, c, mk2, mt2, nm2, (pos.draws(1 + max(w - 1, 0) // n), last), label)
            rows.append({**row, **_danger_cols({}, None)})
            continue
        cands = discard_rows(fam, pos, c, mk2, mt2, nm2, label)
        rows.append(min(cands, key=lambda r: rank_key(r, pos.k)))
    return rows


def family_rows(
    fam: Family, pos: Position, hand: Hand, claim: int | None, claim_from: int | None
) -> list[dict]:
    """The exact rows of a position, best first (the model: :func:`daqing_sim.advise`)."""
    if claim is not None:
        cf = (pos.seat - 1) % pos.n_seats if claim_from is None else claim_from
        rows = claim_rows(fam, pos, hand, claim, cf)
    elif hand.size == 14:
        mk, mt, nm = hand.meld_arrays()
        rows = discard_rows(fam, pos, hand.counts, mk, mt, nm, "discard")
    else:
        mk, mt, nm = hand.meld_arrays()
        rows = [{**single_row(fam, pos, hand.counts, mk, mt, nm, pos.own_draws(0), "draw"),
                 **_danger_cols({}, None)}]  # fmt: skip
    rows.sort(key=lambda r: rank_key(r, pos.k))
    return rows


__all__ = ["Position", "Family", "family_rows", "claim_melds", "discard_rows", "single_row", "rank_key"]
