"""The 34-kind table reading both family advisors use for danger: the advised seat's observation
built from a position (:func:`observation_34`), and the Beijing expert's danger table read on it
(:func:`danger_parts`: P(seat r is ready) and P(the tile is one of r's waits | ready),
:mod:`daqing_sim.families.beijing.danger`), which the two-player advisor reads too."""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor.family_api import Position
from daqing_sim.codes import CHI, CONCEALED_KONG, N_KINDS_ALL, PENG
from daqing_sim.layout import MAX_POND
from daqing_sim.players.observation import (
    I_DEALER,
    I_N_MELDS,
    I_SEAT,
    I_WALL_LEFT,
    N_INFO,
    N_MEMO,
    UNKNOWN,
    Observation,
    new_scratch,
)


def _meld_tiles(kind: int, low: int) -> list[int]:
    if kind == CHI:
        return [low, low + 1, low + 2]
    return [low] * (3 if kind == PENG else 4)


def observation_34(pos: Position, counts, mk, mt, nm) -> Observation:
    """The advised seat's observation of the table (34 kinds), as the engine would build it from
    the position: its hand and melds, the ponds (in the order given, each discard taken as a
    change of hand: the flags are unknown), the others' melds, the tiles seen."""
    view = pos.view
    visible = np.minimum(view.seen, 4).astype(np.uint8)
    for j in range(nm):
        if mk[j] != CONCEALED_KONG:
            for t in _meld_tiles(int(mk[j]), int(mt[j])):
                visible[t] = min(visible[t] + 1, 4)
    table_mk = np.zeros((4, 4), dtype=np.int8)
    table_mt = np.zeros((4, 4), dtype=np.int8)
    table_nm = np.zeros(4, dtype=np.int64)
    table_mk[pos.seat, :nm] = mk[:nm]
    table_mt[pos.seat, :nm] = mt[:nm]
    table_nm[pos.seat] = nm
    for s, ms in enumerate(view.melds):
        for j, m in enumerate(ms):
            table_mk[s, j] = m.code
            table_mt[s, j] = m.tile
        if s != pos.seat:
            table_nm[s] = len(ms)
    pond = np.zeros((4, MAX_POND), dtype=np.int8)
    n_pond = np.zeros(4, dtype=np.int64)
    for s, p in enumerate(view.ponds):
        n = min(len(p), MAX_POND)
        pond[s, :n] = p[:n]
        n_pond[s] = n
    info = np.zeros(N_INFO, dtype=np.int64)
    info[I_SEAT], info[I_DEALER], info[I_WALL_LEFT], info[I_N_MELDS] = pos.seat, pos.dealer, pos.wall_left, nm
    memo = np.zeros((4, N_MEMO), dtype=np.int64)
    memo[:, 0] = UNKNOWN
    sc, tk, tb = new_scratch(N_KINDS_ALL)
    k4 = np.zeros(4, dtype=np.int8)
    k4[:nm] = mk[:nm]
    t4 = np.zeros(4, dtype=np.int8)
    t4[:nm] = mt[:nm]
    return Observation(
        hand=np.asarray(counts, dtype=np.uint8).copy(), mk=k4, mt=t4, table_mk=table_mk, table_mt=table_mt,
        table_nm=table_nm, meld_from=np.full((4, 4), -1, dtype=np.int8), visible=visible,
        ready=np.zeros(4, dtype=np.uint8), ready_draw=np.full(4, -1, dtype=np.int64),
        safe=view.passed.astype(np.uint8), pond=pond, pond_flag=np.zeros((4, MAX_POND), dtype=np.uint8),
        pond_claimer=np.full((4, MAX_POND), -1, dtype=np.int8), n_pond=n_pond, info=info, memo=memo,
        rng=np.zeros(4, dtype=np.uint64), sc=sc, tk=tk, tb=tb,
    )  # fmt: skip


def danger_parts(pos: Position, counts, mk, mt, nm) -> tuple[np.ndarray, np.ndarray]:
    """The Beijing expert's table reading: P(ready) per seat (4,) and P(t in r's waits | r
    ready) (4, 34), 0 for a kind that passed r's unchanged hand."""
    from daqing_sim.families.beijing.danger import N_DF, N_TF, danger_table

    obs = observation_34(pos, counts, mk, mt, nm)
    tf = np.zeros((4, N_TF))
    pt = np.zeros(4)
    feat = np.zeros((4, N_KINDS_ALL, N_DF))
    q = np.zeros((4, N_KINDS_ALL))
    safe = np.zeros((4, N_KINDS_ALL), dtype=np.uint8)
    danger_table(obs, tf, pt, feat, q, safe)
    return pt, q


__all__ = ["danger_parts", "observation_34"]
