"""``advise`` for the 34-kind families: the arguments checked for Beijing or two-player, the
position built, the rows of the exact model (:mod:`.family_api`) or the simulated one
(:mod:`.family_simulate`). Called by :func:`daqing_sim.advise` (the model is stated there)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from daqing_sim.advisor.family_api import Position, family_rows
from daqing_sim.advisor.table import table_view
from daqing_sim.codes import N_KINDS_ALL, family_title
from daqing_sim.families import family_module
from daqing_sim.hand.notation import Hand, parse_hand
from daqing_sim.hand.tiles import tile_from_name, tile_name
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int


def family_of(rules: RuleSet):
    """The family's part of the advisor: ``ADVISOR`` of its package's ``advisor`` module."""
    return family_module(rules.family, "advisor").ADVISOR()


def _refuse(name: str, value, family: str, why: str) -> None:
    if value is not None and value != () and value != {}:
        raise ValueError(f"{name}= is not a {family_title(family)} option ({why}): leave it out")


def _hand(hand, family: str) -> Hand:
    if isinstance(hand, Hand):
        return hand if hand.n_kinds == N_KINDS_ALL else hand.with_kinds(N_KINDS_ALL)
    if not isinstance(hand, str):
        raise ValueError(f"hand must be tiles in hand notation, e.g. '234m456p678s2233z9m', not {hand!r:.60}")
    return parse_hand(hand, family=family)


def _seat(value, name: str, n: int) -> int:
    v = check_int(value, name)
    if v >= n:
        seats = ", ".join(map(str, range(n)))
        raise ValueError(f"{name}={v} is out of range: the seats are {seats}")
    return v


def _tile(value, name: str, family: str) -> int:
    if isinstance(value, str):
        return tile_from_name(value, family)
    t = check_int(value, name)
    if t >= N_KINDS_ALL:
        raise ValueError(f"{name}={t} is not a tile kind 0-33: write it as e.g. '5m' or '东'")
    return t


def _seen(seen, family: str) -> np.ndarray:
    if seen is None:
        return np.zeros(N_KINDS_ALL, dtype=np.int64)
    if isinstance(seen, str):
        return parse_hand(seen, require_full=False, family=family).total_counts().astype(np.int64)
    arr = np.asarray(seen)
    if (
        arr.shape != (N_KINDS_ALL,)
        or not np.issubdtype(arr.dtype, np.integer)
        or arr.min() < 0
        or arr.max() > 4
    ):
        raise ValueError(
            f"seen must be tiles in hand notation (e.g. '19m东 [345p]') or 34 counts of 0-4, not {seen!r:.60}"
        )
    return arr.astype(np.int64)


def _flowers(flowers, rules: RuleSet) -> tuple[int, ...]:
    if isinstance(flowers, str):
        kinds = parse_hand(flowers, require_full=False, family="two_player").counts
        out = tuple(int(t) for t in range(N_KINDS_ALL) for _ in range(int(kinds[t])))
    else:
        out = tuple(_tile(f, "flowers", "two_player") for f in flowers)
    if len(out) > rules.flower_tiles:
        raise ValueError(
            f"{len(out)} flower tiles given, but flower_tiles={rules.flower_tiles} are turned face up"
        )
    return out


def _ready(ready, seat: int, family: str, n: int) -> bool:
    """Two-player: is the opponent declared (报听)?"""
    if isinstance(ready, str) or not isinstance(ready, Iterable):
        raise ValueError(f"ready must be a list of seat numbers, e.g. ready=(1,), not {ready!r}")
    seats = {_seat(s, "ready seat", n) for s in ready}
    if seat in seats:
        raise ValueError(f"ready lists the advised seat {seat}: give only the opponent, if it declared 报听")
    return bool(seats)


def advise_family(
    hand: Hand | str,
    *,
    rules: RuleSet,
    seen=None,
    wall_left: int | None = None,
    draws_left: int | None = None,
    ready: Iterable[int] = (),
    dealer: int = 0,
    seat: int = 0,
    concealed: Sequence[bool] | None = None,
    claim: str | int | None = None,
    claim_from: int | None = None,
    ponds: Mapping[int, str] | None = None,
    melds: Mapping[int, str] | None = None,
    passed: Mapping[int, str] | None = None,
    k: int = 3,
    flowers: str | Sequence[str | int] = (),
    method: str = "exact",
    sim: Any = None,
) -> tuple[list[dict], Position]:
    """The rows of a Beijing or two-player position and the position (see :func:`daqing_sim.advise`)."""
    family = rules.family
    fam = family_of(rules)
    n = fam.n_seats
    _refuse("concealed", concealed, family, "the others' 门清 is a Daqing payment")
    if family == "beijing":
        _refuse(
            "ready",
            tuple(ready) if isinstance(ready, Iterable) else ready,
            family,
            "nobody declares ready under Beijing; the danger reads who is likely ready from the ponds",
        )
        _refuse("passed", passed, family, "kinds a declared seat let pass; nobody declares under Beijing")
        _refuse("flowers", flowers or None, family, "flower tiles are two-player's")
    hand = _hand(hand, family)
    seat = _seat(seat, "seat", n)
    dealer = _seat(dealer, "dealer", n)
    declared = _ready(ready, seat, family, n) if family == "two_player" else False
    claim_t = None if claim is None else _tile(claim, "claim", family)
    if claim_t is not None and hand.size != 13:
        raise ValueError(f"claim needs a 13-tile hand (the tile is someone else's discard); {hand} has 14")
    cf = None if claim_from is None else _seat(claim_from, "claim_from", n)
    if cf is not None and cf == seat:
        raise ValueError(f"claim_from={cf} is the advised seat: a claimed tile comes from another seat")
    flw = _flowers(flowers, rules) if family == "two_player" else ()
    ready_t = ((1 - seat),) if declared else ()
    view = table_view(hand, _seen(seen, family), ponds=ponds, melds=melds, passed=passed, ready=ready_t,
                      seat=seat, claim=claim_t, family=family)  # fmt: skip
    seen_all = view.seen.copy()
    for f in flw:
        seen_all[f] += 1
    held = hand.total_counts().astype(np.int64) + seen_all + (np.eye(N_KINDS_ALL, dtype=np.int64)[claim_t]
                                                              if claim_t is not None else 0)  # fmt: skip
    over = [tile_name(t) for t in range(N_KINDS_ALL) if held[t] > 4]
    if over:
        raise ValueError(
            f"more than four copies of {', '.join(over)} with the flower tiles: each tile has four"
        )
    pool = 4 - held
    n_seen = int(view.seen.sum()) + (claim_t is not None)
    most = min(fam.live_wall, int(pool.sum()))
    if wall_left is None:
        wall_left = max(0, min(fam.live_wall - n_seen, most))
    wall_left = check_int(wall_left, "wall_left")
    if wall_left > most:
        raise ValueError(
            f"wall_left={wall_left} is impossible: at most {most} ({fam.live_wall} tiles to draw after the "
            f"deal under {family_title(family)} rules, all unseen)"
        )
    if draws_left is not None:
        draws_left = check_int(draws_left, "draws_left")
    pos = Position(
        rules=rules,
        enc=rules.encode(),
        pool=pool.astype(np.int64),
        wall_left=wall_left,
        draws_left=draws_left,
        k=k,
        seat=seat,
        dealer=dealer,
        n_seats=n,
        extra=rules.extra_draws if family == "two_player" else 0,
        view=view,
        flowers=flw,
        declared_opponent=declared,
        attrs={"hand": str(hand)},
    )
    if method == "simulate":
        from daqing_sim.advisor.family_simulate import simulated_rows

        return simulated_rows(fam, pos, hand, claim_t, sim), pos
    return family_rows(fam, pos, hand, claim_t, cf), pos


__all__ = ["advise_family", "family_of"]
