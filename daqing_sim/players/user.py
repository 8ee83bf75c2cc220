"""Jitted players written by users, without editing the package: :class:`JittedPlayer`.

A user writes up to three plain functions with the signatures of the built-in players (see
``docs/PLAYERS.md``) and wraps them::

    def discard(kn, obs, rules, tabs):   # -> (tile, declare)
    def claim(kn, obs, rules, tabs, t, options):   # -> an action code (codes.PASS ...)
    def kong(kn, obs, rules, tabs, kong_opts):   # -> a tile kind, or -1

``obs`` is the array :class:`~daqing_sim.players.observation.Observation`, ``kn`` the knob vector,
``rules`` ``RuleSet.encode()``, ``tabs`` the hand tables (for ``players.common`` helpers). They are
compiled with an explicit signature (``numba.njit(sig, cache=True)``) and handed to the engine as
first-class functions: the engine compiled for them is one specialization cached on disk for
every user player, so no user code ever forces a recompilation of the engine.

>>> from daqing_sim.players.examples_jitted import FIRST_TILE
>>> import daqing_sim as ds
>>> df = ds.simulate(4, strategies=(FIRST_TILE, "greedy", "greedy", "greedy"), seed=2)
>>> str(df["strategy_0"].iloc[0]), int(df[[f"pay_{s}" for s in range(4)]].to_numpy().sum())
('first_tile', 0)
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numba
import numpy as np
from numba import njit, types

from daqing_sim.codes import N_USER_SLOTS, PASS

# The engine passes user functions as numba first-class functions, a feature numba still calls
# experimental; its warning on every such run would only confuse.
warnings.filterwarnings("ignore", "First-class function type", numba.NumbaExperimentalFeatureWarning)


def _null_discard(kn, obs, rules, tabs):
    return np.int64(-1), False


def _null_claim(kn, obs, rules, tabs, t, options):
    return np.int64(PASS)


def _null_kong(kn, obs, rules, tabs, kong_opts):
    return np.int64(-1)


@functools.cache
def signatures() -> tuple[Any, Any, Any]:
    """The numba signatures of a user player's discard, claim and kong functions."""
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.players.observation import make_observation

    obs = numba.typeof(make_observation(np.zeros(28, dtype=np.uint8)))
    kn = types.Array(types.float64, 1, "C")
    rules = types.Array(types.int64, 1, "C")
    tabs = numba.typeof(get_tables())
    i64 = types.int64
    discard = types.Tuple((i64, types.boolean))(kn, obs, rules, tabs)
    claim = i64(kn, obs, rules, tabs, i64, i64)
    kong = i64(kn, obs, rules, tabs, types.Array(types.int8, 1, "C"))
    return discard, claim, kong


def _jit(py: Any, sig: Any) -> Any:
    """``njit(sig, cache=True)(py)``; without the disk cache for a function numba finds no place
    to cache (typed at a ``python`` prompt, fed on standard input, ``exec``-ed from a string):
    such a function compiles again in each process that uses it."""
    try:
        return njit(sig, cache=True)(py)
    except RuntimeError as e:  # raised before compiling: "cannot cache function ...: no locator"
        if "no locator available" not in str(e):
            raise
    return njit(sig)(py)


def _compiled(fn: Any, sig: Any, what: str) -> Any:
    py = getattr(fn, "py_func", fn)
    if not callable(py):
        raise ValueError(f"the {what} of a JittedPlayer must be a function, not {fn!r}")
    try:
        with warnings.catch_warnings():  # numba calls first-class functions "experimental"
            warnings.simplefilter("ignore", numba.NumbaExperimentalFeatureWarning)
            return _jit(py, sig)
    except Exception as e:  # numba's typing error, in one line
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(
            f"the {what} function {py.__name__} does not compile for the documented signature "
            f"(docs/PLAYERS.md): {first}"
        ) from None


@functools.cache
def null_ufns() -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """The engine's user-function argument when no seat is a JittedPlayer (never called).

    Compiled for the documented signatures like any user player's, so every specialization of
    the engine types ``ufns`` as first-class functions: a numba cache index that mixed them with
    dispatcher-typed entries fails to save (``ReferenceError``) when a later process adds one.
    """
    sig_d, sig_c, sig_k = signatures()
    d = _compiled(_null_discard, sig_d, "discard")
    c = _compiled(_null_claim, sig_c, "claim")
    k = _compiled(_null_kong, sig_k, "kong")
    return (d,) * N_USER_SLOTS, (c,) * N_USER_SLOTS, (k,) * N_USER_SLOTS


@functools.cache
def ufns_type() -> Any:
    """The numba type of the engine's ``ufns`` argument: three tuples of first-class functions."""
    return types.Tuple(tuple(types.UniTuple(types.FunctionType(sig), N_USER_SLOTS) for sig in signatures()))


def entry_with_ufns(dispatcher: Any, args: tuple[Any, ...]) -> Any:
    """The compiled entry point of ``dispatcher`` for ``args`` whose last element is ``ufns``,
    typed as first-class functions (compiled once, loaded from numba's disk cache after)."""
    argtypes = (*(numba.typeof(a) for a in args[:-1]), ufns_type())
    with warnings.catch_warnings():  # numba calls first-class functions "experimental"
        warnings.simplefilter("ignore", numba.NumbaExperimentalFeatureWarning)
        if argtypes not in dispatcher.overloads:
            dispatcher.compile(argtypes)
    return dispatcher.overloads[argtypes].entry_point


class JittedPlayer:
    """A user's jitted player: its decision functions and knobs, usable in any seat list.

    Parameters
    ----------
    discard : function
        ``discard(kn, obs, rules, tabs) -> (tile, declare)``.
    claim, kong : function, optional
        ``claim(kn, obs, rules, tabs, t, options) -> action`` (default: always pass) and
        ``kong(kn, obs, rules, tabs, kong_opts) -> tile or -1`` (default: never).
    name : str
        Its label in results.
    knobs : mapping of str to float, optional
        Knob defaults, packed into ``kn`` in this order.
    """

    def __init__(
        self,
        discard: Callable[..., Any],
        claim: Callable[..., Any] | None = None,
        kong: Callable[..., Any] | None = None,
        *,
        name: str,
        knobs: Mapping[str, float] | None = None,
    ) -> None:
        if not isinstance(name, str) or not name or ":" in name:
            raise ValueError(f"a JittedPlayer needs a plain name (no ':'), not {name!r}")
        self.name = name
        self.knobs = {k: float(v) for k, v in (knobs or {}).items()}
        self._fns = (discard, claim, kong)
        self._compiled: tuple[Any, Any, Any] | None = None

    @property
    def label(self) -> str:
        return self.name

    def functions(self) -> tuple[Any, Any, Any]:
        """The three decision functions compiled for the documented signatures."""
        if self._compiled is None:
            sig_d, sig_c, sig_k = signatures()
            d, c, k = self._fns
            self._compiled = (
                _compiled(d, sig_d, "discard"),
                _compiled(c or _null_claim, sig_c, "claim"),
                _compiled(k or _null_kong, sig_k, "kong"),
            )
        return self._compiled

    def knob_vector(self, over: Mapping[str, Any], n: int, seat: int) -> np.ndarray:
        bad = sorted(set(over) - set(self.knobs))
        if bad:
            raise ValueError(
                f"unknown knob(s) {', '.join(bad)} for {self.name!r} (seat {seat}); "
                f"valid knobs: {', '.join(self.knobs) or 'none'}"
            )
        vec = np.zeros(n, dtype=np.float64)
        for i, (k, default) in enumerate(self.knobs.items()):
            vec[i] = float(over.get(k, default))
        return vec

    def __getstate__(self) -> dict[str, Any]:
        return {"name": self.name, "knobs": self.knobs, "_fns": self._fns, "_compiled": None}

    def __repr__(self) -> str:
        return f"JittedPlayer({self.name!r})"


def user_slot(seats: Sequence[Any], player: JittedPlayer) -> int:
    """The slot of ``player`` among the distinct JittedPlayers of ``seats``."""
    seen: list[JittedPlayer] = []
    for p in seats:
        if isinstance(p, JittedPlayer) and all(p is not q for q in seen):
            seen.append(p)
    return next(i for i, q in enumerate(seen) if q is player)
