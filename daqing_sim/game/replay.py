"""Move-by-move replay of one simulated deal; CLI ``daqing-sim replay``.

The replay runs the same jitted kernel as :func:`daqing_sim.game.simulate.simulate` on the
same wall and deal seed, with its event log switched on, and prints the events in hand
notation. The omniscient view shows every hand and the (hidden) bao.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from daqing_sim.codes import BAO_KINDS, CHI_LOW, CLAIM_KONG, CLAIM_PENG, N_KINDS, OUTCOMES, WAIT_KINDS
from daqing_sim.game.engine import (
    EV_ADDED_KONG,
    EV_BAO_REPLACED,
    EV_CLAIM,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
    EV_EXHAUSTIVE,
    EV_READY,
    EV_WIN,
    O_BAO,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_OUTCOME,
    O_WAIT,
    O_WINNER_KONGS,
)
from daqing_sim.game.scoring import settle_detail
from daqing_sim.game.simulate import _prepare, _python_seats, _with_players, run_walls
from daqing_sim.game.wall import BAO_POSITION, LIVE_START, generate_walls
from daqing_sim.hand.notation import Hand, Meld, format_hand
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int


class _Seat:
    def __init__(self) -> None:
        self.counts = np.zeros(N_KINDS, dtype=np.uint8)
        self.melds: list[Meld] = []

    def __str__(self) -> str:
        return format_hand(Hand(counts=self.counts.copy(), melds=tuple(self.melds)))


def replay(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] = ("expert",) * 4,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
) -> list[str]:
    """The moves of deal ``deal`` of ``seed``, one line each.

    Parameters
    ----------
    seed, deal : int
        Identify the deal, as in the ``deal`` column of :func:`daqing_sim.game.simulate`.
    rules, strategies, dealer, knobs
        As given to :func:`daqing_sim.game.simulate` (the replay matches that run's row).

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
    strategies = _with_players(strategies)
    rules, dealer, names, codes, knob_values = _prepare(rules, strategies, knobs, dealer)
    walls, _, seeds = generate_walls(1, seed, deal)
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
        ``(112,)`` tile kinds (layout of :mod:`daqing_sim.game.wall`).
    deal_seed : int
        The deal's seed for in-game randomness.
    rules : RuleSet
    names, codes, knob_values
        Seat strategies as returned by :func:`daqing_sim.players.registry.encode_strategies`.
    dealer : int
    header : str
        Start of the first line.
    players : sequence of 4, optional
        The seats as given, when some are Python players; ``deal`` numbers their errors.

    Returns
    -------
    list of str
    """
    raw = run_walls(
        wall[None, :],
        np.array([deal_seed], dtype=np.uint64),
        rules,
        codes,
        knob_values,
        dealer,
        record_log=True,
        players=players,
        first_deal=deal,
    )
    row = raw["out"][0]
    log = raw["log"]
    lines = [f"{header}: dealer seat {dealer}, strategies {', '.join(names)}"]
    changed = rules.changed()
    if changed:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    seats = [_Seat() for _ in range(4)]
    pos = 0
    for k in range(4):
        s = (dealer + k) % 4
        for _ in range(14 if k == 0 else 13):
            seats[s].counts[wall[pos]] += 1
            pos += 1
    for s in range(4):
        role = " (dealer)" if s == dealer else ""
        lines.append(f"seat {s}{role}: {seats[s]}")
    lines.append(f"bao (face down, seen only by a ready player): {tile_name(int(wall[BAO_POSITION]))}")
    lines.append(f"live wall: {len(wall) - LIVE_START} tiles")
    turn = 0
    for code, seat, tile, a, b in log.astype(int):
        if code == EV_DRAW:
            seats[seat].counts[tile] += 1
            where = " from the back (kong replacement)" if a else ""
            turn += 1
            lines.append(f"{turn:3d}. seat {seat} draws {tile_name(tile)}{where}; {b} left")
        elif code == EV_DISCARD:
            seats[seat].counts[tile] -= 1
            ready = " and declares ready (上听)" if a else ""
            lines.append(f"     seat {seat} discards {tile_name(tile)}{ready}: {seats[seat]}")
        elif code == EV_READY:
            kind = WAIT_KINDS[a] if a >= 0 else "none"
            lines.append(
                f"     seat {seat} is ready, {kind} wait, {b} live outs; it sees the bao {tile_name(tile)}"
            )
        elif code == EV_CLAIM:
            if a == CLAIM_PENG:
                seats[seat].counts[tile] -= 2
                meld = Meld("peng", tile)
            elif a == CLAIM_KONG:
                seats[seat].counts[tile] -= 3
                meld = Meld("kong", tile)
            else:
                low = tile - (a - CHI_LOW)
                for x in range(low, low + 3):
                    if x != tile:
                        seats[seat].counts[x] -= 1
                meld = Meld("chi", low)
            seats[seat].melds.append(meld)
            verb = {"peng": "pengs", "kong": "kongs", "chi": "chis"}[meld.kind]
            lines.append(f"     seat {seat} {verb} {tile_name(tile)} from seat {b}: {meld}")
        elif code == EV_CONCEALED_KONG:
            seats[seat].counts[tile] -= 4
            seats[seat].melds.append(Meld("concealed_kong", tile))
            lines.append(f"     seat {seat} declares a concealed kong {seats[seat].melds[-1]}")
        elif code == EV_ADDED_KONG:
            seats[seat].counts[tile] -= 1
            seats[seat].melds = [
                Meld("added_kong", m.tile) if m.kind == "peng" and m.tile == tile else m
                for m in seats[seat].melds
            ]
            lines.append(f"     seat {seat} adds {tile_name(tile)} to its peng (added kong)")
        elif code == EV_BAO_REPLACED:
            lines.append(
                f"     three {tile_name(a)} visible: the bao is replaced (换宝) by the last live tile, "
                f"{tile_name(tile)}"
            )
        elif code == EV_WIN:
            lines.append(_win_line(row, seat, tile, rules, dealer))
        elif code == EV_EXHAUSTIVE:
            lines.append("the live wall is empty: exhaustive draw (荒庄), nobody pays")
    return lines


def _win_line(row, winner: int, tile: int, rules: RuleSet, dealer: int) -> str:
    outcome = OUTCOMES[row[O_OUTCOME]]
    bao = BAO_KINDS[row[O_BAO]]
    wait = WAIT_KINDS[row[O_WAIT]] if row[O_WAIT] >= 0 else "none"
    method = "self_draw" if outcome == "self_draw" else "deal_in"
    detail = settle_detail(
        winner=winner,
        dealer=dealer,
        method=method,
        discarder=None if method == "self_draw" else int(row[O_DISCARDER]),
        discarder_ready=bool(row[O_DISCARDER_READY]) if method == "deal_in" else True,
        big=bool(row[O_BIG]),
        bao=bao,
        concealed=[bool(row[O_CONCEALED + s]) for s in range(4)],
        winner_kongs=int(row[O_WINNER_KONGS]),
        rules=rules,
    )
    size = "big win (夹)" if row[O_BIG] else "small win"
    head = f"WIN ({outcome}): seat {winner} wins on {tile_name(tile)}, {size}, {wait} wait, bao: {bao}"
    return head + "\n" + str(detail)


def _cli(args) -> int:
    rules = RuleSet.from_flag_strings(args.rules)
    strategies = tuple(s.strip() for s in args.strategies.split(","))
    if len(strategies) == 1:
        strategies = strategies * 4
    for line in replay(args.seed, args.deal, rules=rules, strategies=strategies, dealer=args.dealer):
        print(line)
    return 0


def register(subparsers) -> None:
    """Add the ``replay`` sub-command."""
    p = subparsers.add_parser(
        "replay",
        help="print one simulated deal move by move",
        description="Replay deal --deal of seed --seed move by move (the same kernel as 'run').",
    )
    p.add_argument("--seed", type=int, required=True, help="run seed")
    p.add_argument("--deal", type=int, required=True, help="deal index within the seed")
    p.add_argument("--rules", nargs="*", metavar="FLAG=VALUE", help="rule flag overrides, e.g. kong_fan=true")
    p.add_argument(
        "--strategies",
        default="greedy",
        help="four comma-separated strategies (or one for all seats), default greedy",
    )
    p.add_argument("--dealer", type=int, default=0, help="dealer seat (default 0)")
    p.set_defaults(func=_cli)


__all__ = ["replay", "replay_wall", "register"]
