"""Move-by-move replay of one simulated deal; CLI ``daqing-sim replay``.

The replay renders the structured event log of :func:`daqing_sim.game.deal_log.deal_log`
(the same jitted kernel as :func:`daqing_sim.game.simulate.simulate` on the same wall and deal
seed, with its event log switched on) in hand notation. The omniscient view shows every hand
and the (hidden) bao.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.codes import BAO_KINDS, CHI_LOW, N_KINDS, OUTCOMES, WAIT_KINDS
from daqing_sim.families import family_spec
from daqing_sim.game.deal_log import ACTIONS, SEATS, deal_log_wall, result_row, settlement
from daqing_sim.game.engine import (
    O_BAO,
    O_BIG,
    O_OUTCOME,
    O_WAIT,
)
from daqing_sim.game.simulate import _default_seats, _prepare, _python_seats, _with_players
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.notation import Hand, Meld, format_hand
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int


class _Seat:
    def __init__(self, n_kinds: int = N_KINDS) -> None:
        self.counts = np.zeros(n_kinds, dtype=np.uint8)
        self.melds: list[Meld] = []

    def __str__(self) -> str:
        return format_hand(Hand(counts=self.counts.copy(), melds=tuple(self.melds)))


def replay(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
) -> list[str]:
    """The moves of deal ``deal`` of ``seed``, one line each.

    Parameters
    ----------
    seed, deal : int
        Identify the deal, as in the ``deal`` column of :func:`daqing_sim.game.simulate`.
    rules, strategies, dealer, knobs
        As given to :func:`daqing_sim.game.simulate` (the replay matches that run's row; no
        strategies: the family's default field).

    Returns
    -------
    list of str

    Examples
    --------
    >>> lines = replay(0, 3, strategies=("random",) * 4)
    >>> lines[0]
    'deal 3 of seed 0: dealer seat 0, strategies random, random, random, random'
    """
    seed = check_int(seed, "seed")
    deal = check_int(deal, "deal")
    strategies = _with_players(_default_seats(strategies, rules))
    rules, dealer, names, codes, knob_values = _prepare(rules, strategies, knobs, dealer)
    walls, _, seeds = generate_walls(1, seed, deal, family=rules.family)
    return replay_wall(
        walls[0],
        seeds[0],
        rules,
        names,
        codes,
        knob_values,
        dealer,
        header=f"deal {deal} of seed {seed}",
        players=_python_seats(strategies),
        deal=deal,
    )


def replay_wall(
    wall: np.ndarray,
    deal_seed: int,
    rules: RuleSet,
    names: Sequence[str],
    codes: np.ndarray,
    knob_values: np.ndarray,
    dealer: int = 0,
    header: str = "deal",
    players: Sequence[Any] | None = None,
    deal: int = 0,
) -> list[str]:
    """Replay one given wall (see :func:`replay`).

    Parameters
    ----------
    wall : numpy.ndarray
        One wall of the family (layout of :mod:`daqing_sim.game.wall`: 112, 136 or 78 tiles).
    deal_seed : int
        The deal's seed for in-game randomness.
    rules : RuleSet
    names, codes, knob_values
        Seat strategies as returned by :func:`daqing_sim.players.registry.encode_strategies`.
    dealer : int
    header : str
        Start of the first line.
    players : sequence, optional
        The seats as given, when some are Python players; ``deal`` numbers their errors.

    Returns
    -------
    list of str
    """
    df, row = deal_log_wall(wall, deal_seed, rules, codes, knob_values, dealer, players, deal)
    return render(df, row, rules, names, dealer, header)


def render(
    df: pd.DataFrame, row: np.ndarray, rules: RuleSet, names: Sequence[str], dealer: int, header: str
) -> list[str]:
    """The text replay of a :func:`~daqing_sim.game.deal_log.deal_log` frame (``row``: the
    deal's result row, for the settlement of a win)."""
    family = rules.family
    labels = family_spec(family).labels
    scored_by_value = "value" in family_spec(family).columns  # a win settled as F and a value
    n = SEATS[family]
    declare = labels.declare
    lines = [f"{header}: dealer seat {dealer}, strategies {', '.join(names)}{labels.rules_note}"]
    changed = rules.changed()
    if changed:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    seats = [_Seat(rules.n_kinds) for _ in range(n)]
    records = df.to_dict("records")
    for r in records:
        if r["event"] == "deal":
            seats[r["seat"]].counts[r["tile"]] += 1
    for s in range(n):
        role = " (dealer)" if s == dealer else ""
        lines.append(f"seat {s}{role}: {seats[s]}")
    if labels.wall_line:
        lines.append(labels.wall_line.format(wall_left=records[0]["wall_left"], **rules.to_dict()))
    turn = 0
    for r in records:
        ev, seat, tile = r["event"], r["seat"], r["tile"]
        if ev == "bao":
            lines.append(f"bao (face down, seen only by a ready player): {tile_name(tile)}")
            lines.append(f"live wall: {r['wall_left']} tiles")
        elif ev == "flower":
            lines.append(f"flower tile {r['count']} turned face up (花牌): {tile_name(tile)}")
        elif ev in ("draw", "kong_draw"):
            seats[seat].counts[tile] += 1
            where = " from the back (kong replacement)" if ev == "kong_draw" else ""
            turn += 1
            lines.append(f"{turn:3d}. seat {seat} draws {tile_name(tile)}{where}; {r['wall_left']} left")
        elif ev == "discard":
            seats[seat].counts[tile] -= 1
            declared = r["step"] + 1 < len(records) and records[r["step"] + 1]["event"] == "ready"
            ready = f" and declares ready ({declare})" if declared else ""
            lines.append(f"     seat {seat} discards {tile_name(tile)}{ready}: {seats[seat]}")
        elif ev == "ready":
            kind = r["wait"] if isinstance(r["wait"], str) else "none"
            bao = tile_name(r["bao"]) if r["bao"] >= 0 else "-"
            lines.append(labels.ready_line.format(seat=seat, wait=kind, outs=r["outs"], bao=bao))
        elif ev == "claim_offer" and r["options"] >> ACTIONS.index("win") & 1:
            answer = "takes it" if r["action"] == "win" else "passes (it stays declared)"
            lines.append(f"     seat {seat} (报听) may win on {tile_name(tile)} or pass: it {answer}")
        elif ev == "claim":
            lines.append(_claim(seats[seat], seat, tile, r["action"], r["from_seat"]))
        elif ev == "concealed_kong":
            seats[seat].counts[tile] -= 4
            seats[seat].melds.append(Meld("concealed_kong", tile))
            lines.append(f"     seat {seat} declares a concealed kong {seats[seat].melds[-1]}")
        elif ev == "added_kong":
            seats[seat].counts[tile] -= 1
            seats[seat].melds = [
                Meld("added_kong", m.tile) if m.kind == "peng" and m.tile == tile else m
                for m in seats[seat].melds
            ]
            lines.append(f"     seat {seat} adds {tile_name(tile)} to its peng (added kong)")
        elif ev == "bao_replaced":
            lines.append(
                f"     three {tile_name(r['other_tile'])} visible: the bao is replaced (换宝) by the last "
                f"live tile, {tile_name(tile)}"
            )
        elif ev == "robbed_kong":
            declarer = r["from_seat"]
            if r["options"]:
                seats[declarer].counts[tile] += 3
                seats[declarer].melds.pop()
            else:
                seats[declarer].melds = [
                    Meld("peng", m.tile) if m.kind == "added_kong" and m.tile == tile else m
                    for m in seats[declarer].melds
                ]
            kind = "concealed kong (with 一条龙)" if r["options"] else "added kong"
            lines.append(f"     seat {seat} robs seat {declarer}'s {kind} of {tile_name(tile)} (抢杠)")
        elif ev == "mutual_bao":
            lines.append(
                f"     seats {seat} and {r['from_seat']} are bound (互包): three claims from one player; "
                "either's win is paid by the other"
            )
        elif ev == "burn":
            lines.append(
                f"     烧庄 round {r['count']}: all three followed the dealer's {tile_name(tile)}; "
                "the dealer owes each of them if the deal is won"
            )
        elif ev == "extra_draw":
            won = "it wins" if r["options"] else "no win: put aside"
            lines.append(f"  extra draw {r['count']} (海底捞月): seat {seat} draws {tile_name(tile)}; {won}")
        elif ev == "win" and scored_by_value:
            lines.append(_win_line_family(row, seat, tile, rules, dealer, names))
        elif ev in ("win", "bao_kan"):
            if ev == "bao_kan":
                lines.append(
                    f"     seat {seat} waits on {tile_name(tile)} in a kanchan: the new bao wins at "
                    "sight (宝卡), with no draw"
                )
            lines.append(_win_line(row, seat, tile, rules, dealer))
        elif ev == "exhaustive_draw":
            lines.append(labels.exhaustive_draw.format(wall_left=r["wall_left"]))
    return lines


def _claim(hand: _Seat, seat: int, tile: int, action: str, from_seat: int) -> str:
    if action == "peng":
        hand.counts[tile] -= 2
        meld = Meld("peng", tile)
    elif action == "kong":
        hand.counts[tile] -= 3
        meld = Meld("kong", tile)
    else:
        low = tile - ACTIONS.index(action) + CHI_LOW
        for x in range(low, low + 3):
            if x != tile:
                hand.counts[x] -= 1
        meld = Meld("chi", low)
    hand.melds.append(meld)
    verb = {"peng": "pengs", "kong": "kongs", "chi": "chis"}[meld.kind]
    return f"     seat {seat} {verb} {tile_name(tile)} from seat {from_seat}: {meld}"


def _win_line(row, winner: int, tile: int, rules: RuleSet, dealer: int) -> str:
    outcome = OUTCOMES[row[O_OUTCOME]]
    bao = BAO_KINDS[row[O_BAO]]
    wait = WAIT_KINDS[row[O_WAIT]] if row[O_WAIT] >= 0 else "none"
    detail = settlement(row, winner, rules, dealer)
    size = "big win (夹)" if row[O_BIG] else "small win"
    head = f"WIN ({outcome}): seat {winner} wins on {tile_name(tile)}, {size}, {wait} wait, bao: {bao}"
    return head + "\n" + str(detail)


def _win_line_family(row, winner: int, tile: int, rules: RuleSet, dealer: int, names) -> str:
    """The win of a Beijing or two-player deal: how, the fans by name, F, the value, the payments."""
    win = result_row(row, rules, dealer, names)
    lines = [
        f"WIN ({win['how']}): seat {winner} wins on {tile_name(tile)}: "
        + ", ".join(f"{label} {fans}" for label, fans in win["fans"])
        + f"; F = {win['fan_total']}, value {win['value']:,}",
    ]
    if win.get("mutual_payer", -1) >= 0:
        lines.append(f"  互包: seat {win['mutual_payer']}, bound to the winner, pays for everyone")
    if win.get("burn_rounds", 0) > 0:
        lines.append(f"  烧庄: {win['burn_rounds']} round(s), the dealer pays each other seat")
    lines.append("  payments: " + ", ".join(f"seat {s} {p:+,}" for s, p in enumerate(win["payments"])))
    return "\n".join(lines)


__all__ = ["replay", "replay_wall", "render"]
