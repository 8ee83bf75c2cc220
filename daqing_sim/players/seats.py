"""The engine's view of a seat list: each seat's player code and the table of decision functions.

The engine asks a player that thinks with the hand tables (Daqing: greedy, jia_hunter, defensive,
expert, and every :class:`~daqing_sim.players.user.JittedPlayer`; Beijing: greedy, expert)
through a table of first-class functions, ``ufns = (discards, claims, kongs)``, each a tuple of
``N_USER_SLOTS`` functions compiled for one signature
(:func:`daqing_sim.players.user.signatures`); such a seat's engine code is ``USER_BASE + slot``.
The table-free players (random, scripted) keep their registry codes and the engine's inline
fast path (:mod:`daqing_sim.players.dispatch`, :mod:`daqing_sim.families.beijing.players`); Python seats
stay ``EXTERNAL``.

So the engine is compiled once per family, for that table's type, whatever the field, and holds
no table-thinking player's code: a player is compiled (or loaded from numba's disk cache) on its
own, only when a run seats it, and the batch and stepped engines share it.

>>> import numpy as np
>>> from daqing_sim.codes import USER_BASE
>>> codes, ufns = engine_seats(np.array([5, 0, 3, 5]))  # expert, greedy, random, expert
>>> [int(c) - USER_BASE if c >= USER_BASE else int(c) for c in codes]  # slots 0, 1; random keeps 3
[0, 1, 3, 0]
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numba
import numpy as np
from numba import njit

from daqing_sim.codes import EXTERNAL, N_USER_SLOTS, USER_BASE
from daqing_sim.families import DEFAULT_FAMILY
from daqing_sim.players.registry import PLAYER_MODULES, PLAYER_NAMES
from daqing_sim.players.user import JittedPlayer, null_ufns, signatures

#: registry codes of the players with the engine's table-free fast path (they keep their codes)
TABLE_FREE_CODES = frozenset(
    c for c, m in enumerate(PLAYER_MODULES.values()) if getattr(m, "TABLE_FREE", False)
)

_BUILT: dict[tuple[int, str], tuple[Any, Any, Any]] = {}


def player_module(code: int, family: str = "daqing") -> ModuleType | None:
    """The module whose ``discard``, ``claim`` and ``kong`` player ``code`` plays under ``family``:
    the family's own module of the player (its spec's ``player_modules``), else, when the family
    has a ``players`` module (whose ``seat_functions`` give them), None, else the built-in
    player's module."""
    from daqing_sim.families import FAMILY_PACKAGES
    from daqing_sim.players.registry import FAMILY_MODULES

    own = FAMILY_MODULES.get(family, {}).get(PLAYER_NAMES[code])
    if own is not None:
        return own
    if family in FAMILY_PACKAGES and importlib.util.find_spec(f"{FAMILY_PACKAGES[family]}.players"):
        return None
    return PLAYER_MODULES[PLAYER_NAMES[code]]


def py_functions(code: int, family: str = "daqing") -> tuple[Any, Any, Any]:
    """The Python functions (``py_func``) of player ``code``'s discard, claim and kong under
    ``family`` (:func:`player_module`'s, or the family's ``players.seat_functions``)."""
    module = player_module(code, family)
    if module is None:
        from daqing_sim.families import family_module

        return family_module(family, "players").seat_functions(code)
    return module.discard.py_func, module.claim.py_func, module.kong.py_func


def builtin_functions(code: int, family: str = "daqing") -> tuple[Any, Any, Any]:
    """The built-in player ``code``'s discard, claim and kong under ``family``, compiled for the
    documented signatures (numba caches them on disk: a later process loads them)."""
    key = (int(code), family)
    if key not in _BUILT:
        out = []
        with warnings.catch_warnings():  # numba calls first-class functions "experimental"
            warnings.simplefilter("ignore", numba.NumbaExperimentalFeatureWarning)
            for fn, sig in zip(py_functions(*key), signatures(), strict=True):
                out.append(njit(sig, cache=True)(fn))
        _BUILT[key] = (out[0], out[1], out[2])
    return _BUILT[key]


def compiled_players() -> tuple[str, ...]:
    """The built-in players whose functions this process has compiled or loaded, in that order
    (``name`` for Daqing, ``family:name`` otherwise)."""
    return tuple(PLAYER_NAMES[c] if f == DEFAULT_FAMILY else f"{f}:{PLAYER_NAMES[c]}" for c, f in _BUILT)


def table_players(codes: Sequence[int] | np.ndarray) -> tuple[str, ...]:
    """The built-in players among registry ``codes`` that the engine calls through its function
    table (each a compile of its own), once each, in seat order."""
    out: list[str] = []
    for c in np.asarray(codes).tolist():
        if 0 <= c < len(PLAYER_NAMES) and c not in TABLE_FREE_CODES and PLAYER_NAMES[c] not in out:
            out.append(PLAYER_NAMES[c])
    return tuple(out)


def hand_kernels() -> None:
    """Compile (or load) the hand kernels that both the Daqing engine and its players call (the
    wait set and the declaration check), for the argument types they pass (uint8 counts, int8
    melds), and build (or load) the tables: compiled before two processes would each do it."""
    from daqing_sim.hand import kernels as K
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.rules import RuleSet

    tabs = get_tables()
    rules = RuleSet().encode()
    counts = np.zeros(28, dtype=np.uint8)
    counts[[0, 1, 2, 9, 10, 11, 18, 19, 20, 3, 4]] = 1
    counts[27] = 2
    mk = np.zeros(4, dtype=np.int8)
    mt = np.zeros(4, dtype=np.int8)
    K.wait_set_k(counts, mk, mt, 0, rules, tabs, np.empty(28, dtype=np.int8), np.empty(28, dtype=np.uint8))
    K.may_declare_k(counts, mk, mt, 0, rules)


def engine_seats(
    codes: np.ndarray, players: Sequence[Any] | None = None, family: str = "daqing"
) -> tuple[np.ndarray, tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]]:
    """The engine's codes and function table ``ufns`` for the registry ``codes`` of four seats.

    ``players``: the seats as given (needed for JittedPlayers, whose codes are ``USER_BASE`` +
    their slot among the seat list's JittedPlayers). Each distinct player of a seat that is not
    table-free or external gets one slot, in seat order; unused slots hold never-called null
    functions.
    """
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    out = codes.copy()
    slots: list[tuple[Any, ...]] = []
    keys: list[Any] = []
    for s, code in enumerate(codes.tolist()):
        if code == EXTERNAL or code in TABLE_FREE_CODES:
            continue
        if code >= USER_BASE:
            player = players[s] if players is not None else None
            if not isinstance(player, JittedPlayer):
                raise ValueError(f"seat {s} has a user player code but no JittedPlayer was given")
            key: Any = ("user", id(player))
            fns = player.functions()
        elif 0 <= code < len(PLAYER_NAMES):
            key = ("builtin", code)
            fns = builtin_functions(code, family)
        else:
            raise ValueError(f"seat {s}: {code} is not a player code")
        if key not in keys:
            keys.append(key)
            slots.append(fns)
        out[s] = USER_BASE + keys.index(key)
    if len(slots) > N_USER_SLOTS:  # pragma: no cover - four seats hold at most four players
        raise ValueError(f"{len(slots)} players need a slot: the engine has {N_USER_SLOTS}")
    null = null_ufns()
    table = tuple(
        tuple(slots[i][j] if i < len(slots) else null[j][0] for i in range(N_USER_SLOTS)) for j in range(3)
    )
    return out, table  # type: ignore[return-value]


def _functions(code: int) -> tuple[Any, Any, Any]:
    from daqing_sim.players import dispatch

    if int(code) in TABLE_FREE_CODES:
        return (
            lambda kn, obs, rules, tabs: dispatch.discard(code, kn, obs, rules, tabs),
            lambda kn, obs, rules, tabs, t, options: dispatch.claim(code, kn, obs, rules, tabs, t, options),
            lambda kn, obs, rules, tabs, kong_opts: dispatch.kong(code, kn, obs, rules, tabs, kong_opts),
        )
    return builtin_functions(int(code))


def discard(code: int, kn: np.ndarray, obs: Any, rules: np.ndarray, tabs: Any) -> tuple[int, bool]:
    """The built-in Daqing player ``code``'s discard on the observation ``obs``, called from Python
    (the function the engine calls; for tests and tools)."""
    t, declare = _functions(code)[0](np.ascontiguousarray(kn, dtype=np.float64), obs, rules, tabs)
    return int(t), bool(declare)


def claim(code: int, kn: np.ndarray, obs: Any, rules: np.ndarray, tabs: Any, t: int, options: int) -> int:
    """The built-in Daqing player ``code``'s claim action on discard ``t``, called from Python."""
    return int(_functions(code)[1](np.ascontiguousarray(kn, dtype=np.float64), obs, rules, tabs, t, options))


def kong(code: int, kn: np.ndarray, obs: Any, rules: np.ndarray, tabs: Any, kong_opts: np.ndarray) -> int:
    """The built-in Daqing player ``code``'s kong on its own turn, called from Python."""
    return int(_functions(code)[2](np.ascontiguousarray(kn, dtype=np.float64), obs, rules, tabs, kong_opts))
