"""What a seat sees when it decides: the ``Observation`` bundle of arrays given to jitted players.

The engine fills one ``Observation`` per decision (:func:`daqing_sim.game.state.observe`, the only
place that builds it) with the deciding seat's own tiles and the public table, never other
hands, the wall order, or the bao before this seat is ready. Players may modify ``hand``, ``mk``
and ``mt`` while thinking (they are copies) but must restore them; the other arrays are the
engine's own public arrays and are read-only to players.

Layout (``s`` = a seat 0-3, ``i`` = a discard index of that seat):

==============  ===================  ==============================================================
field           dtype, shape         meaning
==============  ===================  ==============================================================
hand            uint8 (28,)          own concealed tiles, the tile just drawn included
mk, mt          int8 (4,)            own melds: kind (``codes.CHI`` ...) and lowest tile
table_mk        int8 (4, 4)          every seat's melds (kind); own row equals ``mk``
table_mt        int8 (4, 4)          lowest tile; -1 for another seat's concealed kong (face down)
table_nm        int64 (4,)           number of melds per seat
meld_from       int8 (4, 4)          seat each meld was claimed from (-1 for a concealed kong)
visible         uint8 (28,)          copies of each kind in ponds and exposed melds
ready           uint8 (4,)           1 once a seat has declared ready
ready_draw      int64 (4,)           the seat's own draw count at its declaration, -1 before
safe            uint8 (4, 28)        kinds each locked ready seat let pass after declaring
pond            int8 (4, MAX_POND)   every seat's discards in order (tile kind)
pond_flag       uint8 (4, MAX_POND)  bits: ``DRAWN_AND_THROWN``, ``CLAIMED``, ``DECLARED``
pond_claimer    int8 (4, MAX_POND)   seat that claimed the discard, -1 if none
n_pond          int64 (4,)           discards per seat so far
info            int64 (N_INFO,)      ``I_*`` scalars below
memo            int64 (4, N_MEMO)    each seat's own memory across decisions (its player's)
rng             uint64 (4,)          each seat's random stream (splitmix64 state)
sc              int32 (N_SCRATCH,28) scratch rows for the player
tk, tb          int8 / uint8 (28,)   wait-set scratch (``wait_set_k`` outputs)
==============  ===================  ==============================================================

``info``: ``I_SEAT`` own seat, ``I_DEALER``, ``I_WALL_LEFT`` tiles left in the live wall,
``I_BAO`` the bao (-1 unless this seat is ready), ``I_DRAWN`` the tile just drawn (-1 after a
claim), ``I_N_MELDS`` own melds, ``I_OWN_DRAWS`` own draws so far, ``I_MUST_DECLARE`` 1 when this
discard must declare ready (after a 上听吃三家 chi), ``I_KEEP_READY`` 1 when the seat is ready with
an unlocked hand and must stay ready.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

# The packed public view of a paused decision (int16) for Python players: layout.PUBLIC_VIEW.
from daqing_sim.layout import (  # noqa: F401 (re-exported)
    MAX_POND,
    N_INFO,
    N_PUB,
    P_CLAIM_OPTS,
    P_CLAIM_TILE,
    P_DECISION,
    P_HAND,
    P_INFO,
    P_KONG,
    P_LEGAL,
    P_MELD_FROM,
    P_N_KINDS,
    P_N_OPTIONS,
    P_N_POND,
    P_OPTIONS,
    P_POND,
    P_POND_CLAIMER,
    P_POND_FLAG,
    P_READY,
    P_READY_DRAW,
    P_SAFE,
    P_TABLE_MK,
    P_TABLE_MT,
    P_TABLE_NM,
    P_VISIBLE,
)

I_SEAT, I_DEALER, I_WALL_LEFT, I_BAO, I_DRAWN, I_N_MELDS, I_OWN_DRAWS, I_MUST_DECLARE, I_KEEP_READY = range(
    N_INFO
)
N_MEMO = 4
N_SCRATCH = 4
UNKNOWN = -99  # memo[seat, 0]: the seat's Daqing shanten is not known

# pond_flag bits
DRAWN_AND_THROWN, CLAIMED, DECLARED = 1, 2, 4

Observation = namedtuple(
    "Observation",
    (
        "hand",
        "mk",
        "mt",
        "table_mk",
        "table_mt",
        "table_nm",
        "meld_from",
        "visible",
        "ready",
        "ready_draw",
        "safe",
        "pond",
        "pond_flag",
        "pond_claimer",
        "n_pond",
        "info",
        "memo",
        "rng",
        "sc",
        "tk",
        "tb",
    ),
)


def new_scratch(n_kinds: int = 28) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``sc``, ``tk``, ``tb`` scratch arrays for a family of ``n_kinds`` tile kinds."""
    return (
        np.zeros((N_SCRATCH, n_kinds), dtype=np.int32),
        np.zeros(n_kinds, dtype=np.int8),
        np.zeros(n_kinds, dtype=np.uint8),
    )


def make_observation(
    hand: np.ndarray,
    *,
    seat: int = 0,
    melds: tuple[np.ndarray, np.ndarray] | None = None,
    visible: np.ndarray | None = None,
    ready: np.ndarray | None = None,
    safe: np.ndarray | None = None,
    wall_left: int = 40,
    bao: int = -1,
    drawn: int = -1,
    dealer: int = 0,
    rng_seed: int = 0,
) -> Observation:
    """An ``Observation`` built by hand, for tests and worked examples (the engine builds its own).

    Parameters
    ----------
    hand : (28,) counts
        The deciding seat's concealed tiles.
    melds : (kinds, lowest tiles), optional
        The seat's melds (``int8`` arrays of up to 4).
    visible, ready, safe : arrays, optional
        Public counts (28,), ready flags (4,), passed tiles (4, 28).

    Examples
    --------
    >>> from daqing_sim.hand.notation import parse_hand
    >>> obs = make_observation(parse_hand("13m456p789s中中9p [345m]").counts)
    >>> int(obs.hand.sum()), int(obs.info[I_N_MELDS])
    (11, 0)
    """
    mk = np.zeros(4, dtype=np.int8)
    mt = np.zeros(4, dtype=np.int8)
    nm = 0
    if melds is not None:
        kinds, tiles = (np.asarray(x, dtype=np.int8) for x in melds)
        nm = len(kinds)
        mk[:nm] = kinds
        mt[:nm] = tiles
    table_mk = np.zeros((4, 4), dtype=np.int8)
    table_mt = np.zeros((4, 4), dtype=np.int8)
    table_nm = np.zeros(4, dtype=np.int64)
    table_mk[seat] = mk
    table_mt[seat] = mt
    table_nm[seat] = nm
    info = np.zeros(N_INFO, dtype=np.int64)
    info[[I_SEAT, I_DEALER, I_WALL_LEFT, I_BAO, I_DRAWN, I_N_MELDS]] = (
        seat,
        dealer,
        wall_left,
        bao,
        drawn,
        nm,
    )
    memo = np.zeros((4, N_MEMO), dtype=np.int64)
    memo[:, 0] = UNKNOWN
    sc, tk, tb = new_scratch()
    return Observation(
        hand=np.array(hand, dtype=np.uint8),
        mk=mk,
        mt=mt,
        table_mk=table_mk,
        table_mt=table_mt,
        table_nm=table_nm,
        meld_from=np.full((4, 4), -1, dtype=np.int8),
        visible=np.zeros(28, np.uint8) if visible is None else np.array(visible, dtype=np.uint8),
        ready=np.zeros(4, np.uint8) if ready is None else np.array(ready, dtype=np.uint8),
        ready_draw=np.full(4, -1, dtype=np.int64),
        safe=np.zeros((4, 28), np.uint8) if safe is None else np.array(safe, dtype=np.uint8),
        pond=np.zeros((4, MAX_POND), dtype=np.int8),
        pond_flag=np.zeros((4, MAX_POND), dtype=np.uint8),
        pond_claimer=np.full((4, MAX_POND), -1, dtype=np.int8),
        n_pond=np.zeros(4, dtype=np.int64),
        info=info,
        memo=memo,
        rng=np.full(4, rng_seed, dtype=np.uint64),
        sc=sc,
        tk=tk,
        tb=tb,
    )
