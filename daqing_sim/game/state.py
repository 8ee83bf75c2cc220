"""The mutable state of one deal (``DealState``) and the one place that builds a seat's
:class:`~daqing_sim.players.observation.Observation` from it.

All of a deal lives in arrays; its result scalars are left in ``result`` (``R_*``) for settling.
The public arrays (ponds, visible counts, ready flags, passed tiles, who claimed each meld)
are shared with the observation; the rest (concealed hands, the wall, the bao, the wait sets)
never reach a player except through :func:`observe`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from daqing_sim.codes import CONCEALED_KONG
from daqing_sim.families import family_module, family_spec

# The deal's result scalars, left in ``result`` for settling and recording: layout.DEAL_RESULT.
from daqing_sim.layout import (  # noqa: F401 (re-exported)
    N_BEIJING_STATE,
    N_RESULT,
    N_TWO_PLAYER_STATE,
    R_BACK,
    R_BAO,
    R_BAO_KIND,
    R_BIG,
    R_DISCARDER,
    R_DISCARDER_READY,
    R_FRONT,
    R_METHOD,
    R_N_DRAWS,
    R_N_REPL,
    R_WIN_DRAWN,
    R_WIN_KIND,
    R_WIN_TILE,
    R_WINNER,
)
from daqing_sim.players.observation import (
    I_BAO,
    I_DEALER,
    I_DRAWN,
    I_KEEP_READY,
    I_MUST_DECLARE,
    I_N_MELDS,
    I_OWN_DRAWS,
    I_SEAT,
    I_WALL_LEFT,
    MAX_POND,
    N_INFO,
    N_MEMO,
    Observation,
    new_scratch,
)

DealState = namedtuple(
    "DealState",
    (
        "conc",  # (4, 28) uint8 concealed tiles
        "mk",  # (4, 4) int8 meld kinds
        "mt",  # (4, 4) int8 meld lowest tiles
        "nm",  # (4,) int64 melds per seat
        "meld_from",  # (4, 4) int8 seat claimed from
        "visible",  # (28,) uint8 discards and exposed meld tiles
        "pool",  # (28,) uint8 unclaimed discards
        "dead",  # (28,) uint8 replaced baos
        "ready",  # (4,) uint8
        "ready_draw",  # (4,) int64 own draw count at declaration
        "wk",  # (4, 28) int8 wait kind of each winning tile of a ready seat, -1 otherwise
        "wb",  # (4, 28) uint8 big win on that tile
        "safe",  # (4, 28) uint8 tiles a locked ready seat let pass
        "own_draws",  # (4,) int64
        "pond",  # (4, MAX_POND) int8
        "pond_flag",  # (4, MAX_POND) uint8
        "pond_claimer",  # (4, MAX_POND) int8
        "n_pond",  # (4,) int64
        "kong_opts",  # (28,) int8 legal kongs of the current seat
        "pay",  # (4,) int64
        "fans",  # (4,) int64
        "concealed",  # (4,) uint8
        "result",  # (N_RESULT,) int64 the deal's result (R_*)
    ),
)


def new_deal_state(family: str = "daqing") -> tuple[DealState, Observation]:
    """Allocate a deal state of the rule family (its ``deal.new_state`` adds the family's own arrays
    to the shared ones) and the observation that shares its public arrays."""
    nk = family_spec(family).kinds
    arrays = dict(
        conc=np.zeros((4, nk), dtype=np.uint8),
        mk=np.zeros((4, 4), dtype=np.int8),
        mt=np.zeros((4, 4), dtype=np.int8),
        nm=np.zeros(4, dtype=np.int64),
        meld_from=np.full((4, 4), -1, dtype=np.int8),
        visible=np.zeros(nk, dtype=np.uint8),
        pool=np.zeros(nk, dtype=np.uint8),
        dead=np.zeros(nk, dtype=np.uint8),
        ready=np.zeros(4, dtype=np.uint8),
        ready_draw=np.full(4, -1, dtype=np.int64),
        wk=np.full((4, nk), -1, dtype=np.int8),
        wb=np.zeros((4, nk), dtype=np.uint8),
        safe=np.zeros((4, nk), dtype=np.uint8),
        own_draws=np.zeros(4, dtype=np.int64),
        pond=np.zeros((4, MAX_POND), dtype=np.int8),
        pond_flag=np.zeros((4, MAX_POND), dtype=np.uint8),
        pond_claimer=np.full((4, MAX_POND), -1, dtype=np.int8),
        n_pond=np.zeros(4, dtype=np.int64),
        kong_opts=np.zeros(nk, dtype=np.int8),
        pay=np.zeros(4, dtype=np.int64),
        fans=np.zeros(4, dtype=np.int64),
        concealed=np.zeros(4, dtype=np.uint8),
        result=np.zeros(N_RESULT, dtype=np.int64),
    )
    st = family_module(family, "deal").new_state(arrays)
    sc, tk, tb = new_scratch(nk)
    obs = Observation(
        hand=np.zeros(nk, dtype=np.uint8),
        mk=np.zeros(4, dtype=np.int8),
        mt=np.zeros(4, dtype=np.int8),
        table_mk=np.zeros((4, 4), dtype=np.int8),
        table_mt=np.zeros((4, 4), dtype=np.int8),
        table_nm=np.zeros(4, dtype=np.int64),
        meld_from=st.meld_from,
        visible=st.visible,
        ready=st.ready,
        ready_draw=st.ready_draw,
        safe=st.safe,
        pond=st.pond,
        pond_flag=st.pond_flag,
        pond_claimer=st.pond_claimer,
        n_pond=st.n_pond,
        info=np.zeros(N_INFO, dtype=np.int64),
        memo=np.zeros((4, N_MEMO), dtype=np.int64),
        rng=np.zeros(4, dtype=np.uint64),
        sc=sc,
        tk=tk,
        tb=tb,
    )
    return st, obs


@njit(cache=True, inline="always")
def observe(st, obs, seat, dealer, wall_left, bao, drawn, must_declare, keep_ready):
    """Fill ``obs`` with what ``seat`` sees now: its own tiles and melds (copies), every seat's
    melds with other seats' concealed kongs face down, and the scalars of ``obs.info``. ``bao``
    is the bao for a seat that has declared ready, else -1 (RULES: only a ready player sees it)."""
    conc = st.conc
    mk = st.mk
    mt = st.mt
    nm = st.nm
    hand = obs.hand
    table_mk = obs.table_mk
    table_mt = obs.table_mt
    info = obs.info
    for t in range(hand.shape[0]):
        hand[t] = conc[seat, t]
    for s in range(4):
        obs.table_nm[s] = nm[s]
        for j in range(4):
            table_mk[s, j] = mk[s, j]
            hidden = s != seat and j < nm[s] and mk[s, j] == CONCEALED_KONG
            table_mt[s, j] = -1 if hidden else mt[s, j]
    for j in range(4):
        obs.mk[j] = mk[seat, j]
        obs.mt[j] = mt[seat, j]
    info[I_SEAT] = seat
    info[I_DEALER] = dealer
    info[I_WALL_LEFT] = wall_left
    info[I_BAO] = bao
    info[I_DRAWN] = drawn
    info[I_N_MELDS] = nm[seat]
    info[I_OWN_DRAWS] = st.own_draws[seat]
    info[I_MUST_DECLARE] = 1 if must_declare else 0
    info[I_KEEP_READY] = 1 if keep_ready else 0
