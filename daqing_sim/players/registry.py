"""The built-in players, in one ordered registry: name -> integer code, module, knobs.

A player's code is its position in :data:`PLAYER_NAMES` (the engine dispatches on it in
:mod:`daqing_sim.players.dispatch`); its knobs, their defaults and domains live in its module
(``KNOBS``) and are packed into one ``float64`` vector per seat by :func:`encode_strategies`.

>>> seats = ["greedy", ("defensive", {"fold_shanten": 3}), "random", "greedy"]
>>> names, codes, knobs = encode_strategies(seats)
>>> codes.tolist(), float(knobs[1, 0])
([0, 2, 3, 0], 3.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from daqing_sim.codes import EXTERNAL, FAMILY_SEATS, USER_BASE
from daqing_sim.families import DEFAULT_FAMILY, FAMILY_PACKAGES, family_module, family_spec
from daqing_sim.families.daqing import defensive, expert, expert2, greedy, jia_hunter
from daqing_sim.players import random, scripted
from daqing_sim.players.interface import Player
from daqing_sim.players.user import JittedPlayer, user_slot

GREEDY, JIA_HUNTER, DEFENSIVE, RANDOM, SCRIPTED, EXPERT = 0, 1, 2, 3, 4, 5
# expert1: the first expert under a fixed name; expert2: fitted to the search player (issue 38).
# ``expert`` is each family's stronger version (docs/EXPERT.md): here (Daqing) expert2; a family's
# spec says its own (``player_modules``).
EXPERT1, EXPERT2 = 6, 7
PLAYER_MODULES: dict[str, ModuleType] = {
    "greedy": greedy,
    "jia_hunter": jia_hunter,
    "defensive": defensive,
    "random": random,
    "scripted": scripted,
    "expert": expert2,
    "expert1": expert,
    "expert2": expert2,
}
PLAYER_NAMES = tuple(PLAYER_MODULES)
#: a family's own module of a player, where its knobs differ from Daqing's (same code, same
#: name): the spec's ``player_modules``
FAMILY_MODULES: dict[str, dict[str, ModuleType]] = {
    family: {name: family_module(family, role) for name, role in family_spec(family).player_modules}
    for family in FAMILY_PACKAGES
    if family_spec(family).player_modules
}
STRATEGY_NAMES = PLAYER_NAMES
N_KNOBS = scripted.K_SCRIPT + scripted.MAX_SCRIPT

#: Strategy name -> its knobs and their defaults (``scripted`` also takes ``script``).
#: the seats every function plays when none are given (simulate, replay, deal_log, DealEnv's
#: other seats, the simulated advisor): four expert players, the strongest built-in field
DEFAULT_FIELD: tuple[str, str, str, str] = family_spec(DEFAULT_FAMILY).default_field


def default_field(family: str = "daqing") -> tuple[str, ...]:
    """The players a run of ``family`` uses when none are given (one per seat).

    >>> default_field(), default_field("two_player")
    (('expert', 'expert', 'expert', 'expert'), ('expert', 'expert'))
    """
    return family_spec(family).default_field


STRATEGIES: dict[str, dict[str, Any]] = {
    name: {k: knob.default for k, knob in module.KNOBS.items()} for name, module in PLAYER_MODULES.items()
}
STRATEGIES["scripted"]["script"] = ()


def strategy_code(name: str) -> int:
    """Numeric code of a strategy name."""
    if name not in PLAYER_MODULES:
        raise ValueError(f"unknown strategy {name!r}; valid strategies: {', '.join(PLAYER_NAMES)}")
    return PLAYER_NAMES.index(name)


def _seat_item(item: Any, seat: int) -> tuple[str, dict[str, Any]]:
    if isinstance(item, tuple | list) and len(item) == 2 and isinstance(item[1], Mapping | None):
        name, over = item[0], dict(item[1] or {})
    else:
        name, over = item, {}
    if not isinstance(name, str):
        raise ValueError(
            f"strategy of seat {seat} must be a name, (name, knobs) or a ds.Player object, not {name!r}"
        )
    return name, over


def encode_strategies(
    strategies: Sequence[Any],
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    family: str = "daqing",
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Validate the seats' strategies (four, two-player two) and encode them for the engine.

    Parameters
    ----------
    strategies : sequence of 4 (2 under the two-player family)
        Each a strategy name, ``(name, {knob: value})`` or a
        :class:`~daqing_sim.players.interface.Player` (code ``codes.EXTERNAL``, no knobs).
    knobs : sequence of 4 (2) mappings, optional
        Extra knob overrides per seat (applied after those given with the names).
    family : str
        The rule family played: a player with a family module (:data:`FAMILY_MODULES`, e.g.
        the Beijing ``expert``) takes that module's knobs.

    Returns
    -------
    names : tuple of str
    codes : numpy.ndarray
        ``int64 (4,)`` (a two-player game's seats 2 and 3: ``random``, never asked).
    knob_values : numpy.ndarray
        ``float64 (4, N_KNOBS)``, defaults filled in, in the order of the player's ``KNOBS``.

    Raises
    ------
    ValueError
        On a wrong number of seats, an unknown strategy or knob, or a knob out of its domain.
    """
    n_seats = FAMILY_SEATS.get(family, 4)
    word = {2: "two", 4: "four"}[n_seats]
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise ValueError(
            f"strategies must be {word} strategy names (one per seat), not {strategies!r}; "
            f"e.g. ('greedy',) * {n_seats}; valid: {', '.join(PLAYER_NAMES)}"
        )
    if len(strategies) != n_seats:
        where = " under the two-player family" if n_seats == 2 else ""
        raise ValueError(
            f"strategies has {len(strategies)} entries: give one per seat ({word}{where}), "
            f"e.g. ('greedy',) * {n_seats}"
        )
    if knobs is not None and (
        isinstance(knobs, str | Mapping)
        or not isinstance(knobs, Sequence)
        or len(knobs) != n_seats
        or not all(k is None or isinstance(k, Mapping) for k in knobs)
    ):
        raise ValueError(f"knobs must be {word} mappings (one per seat, None for defaults), not {knobs!r}")
    names = []
    codes = np.full(4, RANDOM, dtype=np.int64)  # a two-player game's seats 2 and 3 are never asked
    values = np.zeros((4, N_KNOBS), dtype=np.float64)
    for seat, item in enumerate(strategies):
        if isinstance(item, JittedPlayer):
            codes[seat] = USER_BASE + user_slot(strategies, item)
            values[seat] = item.knob_vector((knobs[seat] if knobs is not None else None) or {}, N_KNOBS, seat)
            names.append(item.label)
            continue
        if isinstance(item, Player):
            if knobs is not None and knobs[seat]:
                raise ValueError(f"seat {seat} is a Python player ({item.label}): it takes no knobs")
            codes[seat] = EXTERNAL
            names.append(item.label)
            continue
        name, over = _seat_item(item, seat)
        codes[seat] = strategy_code(name)
        if knobs is not None and knobs[seat]:
            over.update(knobs[seat])
        values[seat] = _knob_vector(name, over, seat, family)
        names.append(name)
    return tuple(names), codes, values


def plays_as(name: str, family: str = "daqing") -> str:
    """The fixed name of the version player ``name`` plays under ``family``: ``expert`` is the
    family's stronger expert (issue 38), every other name plays itself.

    >>> plays_as("expert"), plays_as("expert", "beijing"), plays_as("greedy")
    ('expert2', 'expert2', 'greedy')
    """
    if name != "expert":
        return name
    module = _module(name, family)
    return next((fixed for fixed in ("expert1", "expert2") if _module(fixed, family) is module), name)


def _module(name: str, family: str) -> ModuleType:
    """The module player ``name`` plays under ``family``: its family's own, else the built-in."""
    return FAMILY_MODULES.get(family, {}).get(name, PLAYER_MODULES[name])


def knob_specs(name: str, family: str = "daqing") -> dict[str, Any]:
    """The knobs (name -> :class:`~daqing_sim.players.knobs.Knob`) of player ``name`` under ``family``.

    >>> list(knob_specs("expert", "beijing"))[:2]
    ['win_value', 'deal_in_cost']
    """
    return _module(name, family).KNOBS


def _knob_vector(name: str, over: Mapping[str, Any], seat: int, family: str = "daqing") -> np.ndarray:
    if name == "expert2" and name not in family_spec(family).players:
        raise ValueError(
            f"expert2 does not play {family} yet: use expert1 (today's expert), greedy or random"
        )
    spec = knob_specs(name, family)
    allowed = list(STRATEGIES[name]) if name == "scripted" else list(spec)
    bad = sorted(set(over) - set(allowed))
    if bad:
        valid = ", ".join(allowed) or "none"
        raise ValueError(f"unknown knob(s) {', '.join(bad)} for strategy {name!r}; valid knobs: {valid}")
    vec = np.zeros(N_KNOBS, dtype=np.float64)
    for i, (k, knob) in enumerate(spec.items()):
        vec[i] = knob.check(k, over.get(k, knob.default))
    if name == "scripted":
        tiles = _script_tiles(over.get("script", ()), seat)
        vec[scripted.K_SCRIPT :] = -1.0
        vec[scripted.K_SCRIPT : scripted.K_SCRIPT + len(tiles)] = tiles
    return vec


def _script_tiles(script: Any, seat: int) -> list[int]:
    from daqing_sim.hand.notation import parse_hand
    from daqing_sim.hand.tiles import tile_from_name

    if isinstance(script, str):
        return list(parse_hand(script, require_full=False).order)
    tiles = []
    for x in script:
        t = tile_from_name(x) if isinstance(x, str) else x
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < 28:
            raise ValueError(
                f"script of seat {seat}: {x!r} is not a tile (use names like '4m' or kinds 0-27)"
            )
        tiles.append(int(t))
    if len(tiles) > scripted.MAX_SCRIPT:
        raise ValueError(f"script of seat {seat} has {len(tiles)} tiles: at most {scripted.MAX_SCRIPT}")
    return tiles
