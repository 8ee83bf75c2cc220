"""Opponents' hands as far along as real ones: the search's ``opponents="progress"`` worlds.

A world that deals an opponent who has not declared uniform tiles gives it a hand far slower
than a real one (a player keeps what builds its hand), so the deciding seat's prospects come
out too bright: the evaluator's mean payment of the expert's own answer was above the seat's
realised payment by 211 [136, 286] points per Beijing position (docs/EXPERT.md, "Search",
calibration). Here such an opponent gets a target shanten drawn from what real opponents held
at the same point (their discards so far and melds; :data:`PROGRESS`, measured by
``tools/opponent_progress.py`` from self-play of the family's expert field, shipped in
``progress.json``) with the family's ``share`` of the time (else uniform tiles; the share is
fitted so that the predicted payments are right on average), and a hand built to it: a ready
shape (sets by their tile combinations, a pair, less a tile) with ``target`` of its tiles
exchanged for uniform unseen ones, so its shanten is at most the target; a target of
:data:`UNIFORM_FROM` or more is dealt uniform tiles.
Only public counts choose the target; the tiles come from the unseen multiset, as before.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from daqing_sim.players.common import rand_below
from daqing_sim.search.shapes import draw_ready_shape, take_tile

#: the shipped tables (one per family; how each was measured is recorded beside it)
PROGRESS = Path(__file__).with_name("progress.json")
#: discards-so-far buckets of the tables: 0-2, 3-5, ..., 18 or more
POND_STEP, N_POND_BUCKETS = 3, 7
#: shanten columns: 0, 1, 2, and 3 or more (dealt uniform tiles)
UNIFORM_FROM = 3
N_SHANTEN = UNIFORM_FROM + 1
N_MELD_ROWS = 5


@cache
def progress_table(family: str, share: float | None = None) -> np.ndarray:
    """The cumulative target-shanten table of ``family``: ``(N_POND_BUCKETS, N_MELD_ROWS,
    N_SHANTEN)`` float64, each row's last entry 1. An opponent is built to a target with
    probability ``share`` (default: the family's fitted ``share``), else dealt uniform tiles:
    constructed hands are tidier than real ones at the same shanten, so the full table
    overshoots (docs/EXPERT.md, "Search", calibration).

    >>> progress_table("beijing").shape
    (7, 5, 4)
    """
    data = json.loads(PROGRESS.read_text(encoding="utf-8"))
    if family not in data:
        raise ValueError(
            f"no opponent progress table for family {family!r}: "
            f"run python tools/opponent_progress.py {family}, or use opponents='uniform'"
        )
    share = float(data[family].get("share", 1.0)) if share is None else float(share)
    counts = np.asarray(data[family]["counts"], dtype=np.float64) + 1e-9
    p = counts / counts.sum(axis=-1, keepdims=True) * share
    p[..., UNIFORM_FROM] += 1.0 - share  # uniform tiles, as a target of 3 or more
    return np.ascontiguousarray(np.cumsum(p, axis=-1))


@njit(cache=True)
def pond_bucket(n_pond):
    """The table row of a seat with ``n_pond`` discards."""
    return min(n_pond // POND_STEP, N_POND_BUCKETS - 1)


@njit(cache=True)
def draw_target(table, n_pond, n_melds, rng):
    """A target shanten for an opponent with ``n_pond`` discards and ``n_melds`` melds."""
    row = table[pond_bucket(n_pond), min(n_melds, N_MELD_ROWS - 1)]
    x = rand_below(rng, 0, 1 << 30) / float(1 << 30)
    for s in range(row.shape[0]):
        if x < row[s]:
            return s
    return row.shape[0] - 1


@njit(cache=True)
def progress_hand(u, n_tiles, target, rng, v, c, out):
    """Deal ``n_tiles`` tiles from the multiset ``u`` (taken from it) into ``out``: a ready shape
    with ``target`` tiles exchanged for uniform ones. False (``u`` untouched) when ``target`` is
    :data:`UNIFORM_FROM` or more or no shape could be drawn: the caller deals uniform tiles."""
    if target >= UNIFORM_FROM or not draw_ready_shape(u, n_tiles, rng, v, c, out):
        return False
    left = 0
    for t in range(v.shape[0]):
        left += v[t]
    for _ in range(min(target, n_tiles)):
        v[take_tile(out, n_tiles, rng)] += 1  # a tile of the shape back to the unseen rest
        out[take_tile(v, left + 1, rng)] += 1  # and one uniform from the rest
    for t in range(u.shape[0]):
        u[t] = v[t]
    return True


@njit(cache=True)
def deal_opponent(u, total, n_tiles, prog, build, n_pond, n_melds, rng, v, c, out):
    """Deal an opponent's ``n_tiles`` concealed tiles from the multiset ``u`` of ``total`` tiles
    into ``out``: when ``build`` and ``prog`` is a table (not empty), built to a target drawn for
    ``n_pond`` discards and ``n_melds`` melds (:func:`progress_hand`), else uniform. Returns the
    tiles left in ``u``."""
    if build and prog.shape[0] > 0:
        if progress_hand(u, n_tiles, draw_target(prog, n_pond, n_melds, rng), rng, v, c, out):
            return total - n_tiles
    for t in range(out.shape[0]):
        out[t] = 0
    for _ in range(n_tiles):
        out[take_tile(u, total, rng)] += 1
        total -= 1
    return total
