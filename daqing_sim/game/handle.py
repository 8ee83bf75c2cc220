"""One structure holding every array of a stepped deal (``DealHandle``), so that resuming a deal
from Python hands the engine one object.

Handing numba a tuple of arrays costs about 80 ns per array at every call (each is unboxed); a
stepped deal's arguments hold about 70, paid at every decision of a Python player. A numba
``StructRef`` is unboxed in constant time, so :func:`step_handle_k` costs ~1 us to enter
(measured 2026-12-01) and then calls :func:`daqing_sim.game.engine.step_deal_k` with the same
arguments as ever: one engine.
"""

from __future__ import annotations

from numba import njit, types
from numba.experimental import structref

from daqing_sim.game.engine import step_deal_k

FIELDS = (
    "wall",
    "seed",
    "dealer",
    "rules",
    "codes",
    "knobs",
    "simple",
    "tabs",
    "state",  # not "st": numba's generated constructor names its own local st
    "observation",
    "orow",
    "hrow",
    "frow",
    "log",
    "ctl",
    "pub",
    "ufns",
)


@structref.register
class DealHandleType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class DealHandle(structref.StructRefProxy):
    """The arrays of one stepped deal (``wall`` and ``seed`` are one-deal buffers, refilled for
    every deal)."""


structref.define_proxy(DealHandle, DealHandleType, list(FIELDS))


@njit(cache=True)
def new_handle(
    wall,
    seed,
    dealer,
    rules,
    codes,
    knobs,
    simple,
    tabs,
    state,
    observation,
    orow,
    hrow,
    frow,
    log,
    ctl,
    pub,
    ufns,
):
    """A :class:`DealHandle` over these arrays (``seed``: a one-element uint64 array)."""
    return DealHandle(
        wall,
        seed,
        dealer,
        rules,
        codes,
        knobs,
        simple,
        tabs,
        state,
        observation,
        orow,
        hrow,
        frow,
        log,
        ctl,
        pub,
        ufns,
    )


@njit(cache=True)
def step_handle_k(h):
    """:func:`~daqing_sim.game.engine.step_deal_k` on the arrays of ``h``."""
    return step_deal_k(
        h.wall,
        h.seed[0],
        h.dealer,
        h.rules,
        h.codes,
        h.knobs,
        h.simple,
        h.tabs,
        h.state,
        h.observation,
        h.orow,
        h.hrow,
        h.frow,
        h.log,
        h.ctl,
        h.pub,
        h.ufns,
    )
