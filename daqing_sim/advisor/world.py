"""Deals consistent with what the advised seat sees, for the simulated advisor.

A *world* fixes everything the seat cannot see: the others' concealed hands, the bao, the live
wall and the tiles out of play. :func:`sample_world` draws one from the unseen tiles:

* Each ready opponent first: its exposed melds are the given ones (``melds=``), or, under
  ``require_open`` (a ready seat has opened its door) with none given, one chi or peng made of
  seen tiles that are in no pond and no given meld, each possible meld weighted by its number
  of tile combinations (when those tiles make none, of the unseen tiles: the meld was not among
  the tiles given as seen, and is visible in that world from the decision on). Its concealed
  tiles are *constructed*: ``m`` sets (each chi or peng
  weighted by its tile combinations among the unseen tiles) and a pair, less one tile chosen
  uniformly, kept when the Daqing wait set (with the melds) is not empty, misses every kind the
  seat let pass, and the hand may declare (开门, 手把一); else drawn again (at most
  :data:`MAX_TRIES` times, then a ``ValueError``). So ready hands are weighted by how a
  complete hand's sets fall, not uniformly over all ready hands.
* The other opponents: their given melds, and concealed tiles uniform from the unseen rest.
* The bao: one uniform unseen tile (RULES: 宝 face down, unknown until the seat is ready).
* The live wall: ``wall_left`` tiles in uniform order; the unseen rest is out of play (as
  replaced baos are).

:func:`load_world` writes a world into a :class:`~daqing_sim.game.external.SteppedDeal`
paused at the seat's decision, so the engine plays on from there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from daqing_sim.advisor import hand_calls as H
from daqing_sim.codes import CHI, CONCEALED_KONG, N_KINDS, N_TILES, PENG
from daqing_sim.game.engine import (
    C_BACK,
    C_BAO,
    C_CUR,
    C_D,
    C_DRAWN,
    C_FRONT,
    C_LAST_LIVE,
    C_N_DRAWS,
    C_PHASE,
    C_STATUS,
    PHASE_DISCARDED,
    PHASE_DRAW,
    ST_PAUSED,
    reset_result_row,
)
from daqing_sim.game.wall import BAO_POSITION, N_LIVE
from daqing_sim.hand.notation import Meld
from daqing_sim.players.observation import DECLARED, UNKNOWN

MAX_TRIES = 20000

_CHI_LOWS = np.array([9 * s + r for s in range(3) for r in range(7)])


@dataclass(frozen=True)
class WorldSpec:
    """What every world shares: the seat's hand, the table and the rules."""

    seat: int
    dealer: int
    counts: np.ndarray  # the seat's concealed tiles
    mk: np.ndarray
    mt: np.ndarray
    nm: int
    unseen: np.ndarray  # int64 (28,)
    meldable: np.ndarray  # seen tiles in no pond and no given meld
    visible: np.ndarray  # seen plus the seat's exposed meld tiles
    ponds: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    passed: np.ndarray  # uint8 (4, 28)
    ready: tuple[int, ...]
    wall_left: int
    rules: np.ndarray  # RuleSet.encode()
    require_open: bool


@dataclass
class World:
    conc: np.ndarray  # uint8 (4, 28)
    mk: np.ndarray  # int8 (4, 4)
    mt: np.ndarray
    nm: np.ndarray  # int64 (4,)
    pool: np.ndarray  # uint8 (28,), unclaimed discards
    dead: np.ndarray  # uint8 (28,), out of play
    wk: np.ndarray  # int8 (4, 28), wait sets of the ready seats
    wb: np.ndarray
    bao: int
    wall: np.ndarray  # uint8 (wall_left,), in draw order
    rng: np.ndarray  # uint64 (4,), the seats' in-game streams
    deal_seed: int
    visible: np.ndarray  # uint8 (28,): the spec's, and the melds drawn from the unseen tiles


def needed_tiles(
    spec_melds: tuple[tuple[Meld, ...], ...],
    seat: int,
    ready: tuple[int, ...],
    require_open: bool,
    meldable: np.ndarray | None = None,
) -> int:
    """Unseen tiles a world needs besides the wall: the others' concealed tiles and the bao, and
    the open melds of ready seats that the seen tiles (``meldable``) cannot make."""
    n = 1
    open_needed = 0
    for s in range(4):
        if s != seat:
            nm = len(spec_melds[s]) or (1 if s in ready and require_open else 0)
            open_needed += nm and not spec_melds[s]
            n += 13 - 3 * nm
    if open_needed and meldable is not None:
        # the first such meld comes from the seen tiles when they hold one; the others may not
        from_seen = 1 if _set_weights(np.asarray(meldable, dtype=np.int64)).sum() > 0 else 0
        n += 3 * (open_needed - from_seen)
    return n


def _take(rng: np.random.Generator, u: np.ndarray, n: int) -> np.ndarray:
    """``n`` tiles drawn uniformly without replacement from the multiset ``u`` (updated)."""
    tiles = rng.permutation(np.repeat(np.arange(N_KINDS), u))[:n]
    np.subtract.at(u, tiles, 1)
    return tiles


def _set_weights(u: np.ndarray) -> np.ndarray:
    """Tile combinations of each chi (21 lowest tiles) then each peng (28 kinds) in ``u``."""
    chi = u[_CHI_LOWS] * u[_CHI_LOWS + 1] * u[_CHI_LOWS + 2]
    peng = u * (u - 1) * (u - 2) // 6
    return np.concatenate([chi, peng]).astype(np.float64)


def _draw_set(rng: np.random.Generator, u: np.ndarray) -> tuple[int, int] | None:
    """One chi or peng (kind, lowest tile) taken from ``u`` by its weight, None if none fits."""
    w = _set_weights(u)
    total = w.sum()
    if total <= 0:
        return None
    i = int(rng.choice(w.size, p=w / total))
    if i < _CHI_LOWS.size:
        low = int(_CHI_LOWS[i])
        u[low : low + 3] -= 1
        return CHI, low
    u[i - _CHI_LOWS.size] -= 3
    return PENG, i - _CHI_LOWS.size


def _ready_hand(rng, u, mk, mt, nm, passed, rules, tabs):
    """Concealed tiles of a ready seat with melds ``mk, mt, nm``, constructed from ``u``
    (updated), and its wait set; None after MAX_TRIES."""
    m = 4 - nm
    wk = np.empty(N_KINDS, dtype=np.int8)
    wb = np.empty(N_KINDS, dtype=np.uint8)
    for _ in range(MAX_TRIES):
        v = u.copy()
        c = np.zeros(N_KINDS, dtype=np.int64)
        ok = True
        for _ in range(m):
            s = _draw_set(rng, v)
            if s is None:
                ok = False
                break
            kind, low = s
            if kind == CHI:
                c[low : low + 3] += 1
            else:
                c[low] += 3
        pairs = v * (v - 1) // 2
        if not ok or pairs.sum() == 0:
            continue
        p = int(rng.choice(N_KINDS, p=pairs / pairs.sum()))
        v[p] -= 2
        c[p] += 2
        out = int(rng.choice(np.repeat(np.arange(N_KINDS), c)))
        c[out] -= 1
        v[out] += 1
        if not H.may_declare(c, mk, mt, nm, rules):
            continue
        if H.wait_set(c, mk, mt, nm, rules, tabs, wk, wb) == 0 or (passed[wk >= 0] != 0).any():
            continue
        u[:] = v
        return c, wk.copy(), wb.copy()
    return None


def _meld_from_seen(rng: np.random.Generator, md: np.ndarray) -> tuple[int, int] | None:
    """A chi or peng of the seen tiles ``md`` (updated) for a ready seat's open door."""
    return _draw_set(rng, md)


def sample_world(rng: np.random.Generator, spec: WorldSpec, tabs) -> World:
    """One world consistent with ``spec`` (the module docstring has the model)."""
    u = spec.unseen.copy()
    md = spec.meldable.copy()
    conc = np.zeros((4, N_KINDS), dtype=np.uint8)
    mk = np.zeros((4, 4), dtype=np.int8)
    mt = np.zeros((4, 4), dtype=np.int8)
    nm = np.zeros(4, dtype=np.int64)
    wk = np.full((4, N_KINDS), -1, dtype=np.int8)
    wb = np.zeros((4, N_KINDS), dtype=np.uint8)
    pool = spec.visible.astype(np.int64)
    visible = spec.visible.astype(np.int64)
    for j in range(spec.nm):  # the seat's own exposed melds are visible, not in the pool
        if spec.mk[j] != CONCEALED_KONG:
            pool -= _tile_counts(int(spec.mk[j]), int(spec.mt[j]))
    conc[spec.seat] = spec.counts
    mk[spec.seat] = spec.mk
    mt[spec.seat] = spec.mt
    nm[spec.seat] = spec.nm
    order = [s for s in spec.ready] + [s for s in range(4) if s != spec.seat and s not in spec.ready]
    for s in order:
        for j, m in enumerate(spec.melds[s]):
            mk[s, j], mt[s, j] = m.code, m.tile
            pool -= _tile_counts(m.code, m.tile)
        nm[s] = len(spec.melds[s])
        if s in spec.ready:
            if nm[s] == 0 and spec.require_open:
                meld = _meld_from_seen(rng, md)
                if meld is None:  # not among the tiles given as seen: an unseen one, shown from now on
                    meld = _draw_set(rng, u)
                    if meld is None:
                        raise ValueError(
                            f"ready seat {s} has opened its door (开门), but no chi or peng is left to "
                            "make its meld of: check ready, seen and the ponds"
                        )
                    visible += _tile_counts(*meld)
                    pool += _tile_counts(*meld)
                mk[s, 0], mt[s, 0] = meld
                nm[s] = 1
                pool -= _tile_counts(*meld)
            got = _ready_hand(rng, u, mk[s], mt[s], int(nm[s]), spec.passed[s], spec.rules, tabs)
            if got is None:
                raise ValueError(
                    f"no ready hand for seat {s} could be drawn from the unseen tiles in {MAX_TRIES} tries "
                    "(its melds, the passed tiles and the tiles seen leave none likely): check ready, passed "
                    "and seen"
                )
            c, wk[s], wb[s] = got
            conc[s] = c
        else:
            conc[s] = np.bincount(_take(rng, u, 13 - 3 * int(nm[s])), minlength=N_KINDS)
    bao = int(_take(rng, u, 1)[0])
    wall = _take(rng, u, spec.wall_left).astype(np.uint8)
    seeds = rng.integers(0, np.iinfo(np.uint64).max, size=5, dtype=np.uint64, endpoint=True)
    return World(
        conc,
        mk,
        mt,
        nm,
        pool.astype(np.uint8),
        u.astype(np.uint8),
        wk,
        wb,
        bao,
        wall,
        seeds[:4],
        int(seeds[4]),
        visible.astype(np.uint8),
    )


def _tile_counts(kind: int, low: int) -> np.ndarray:
    c = np.zeros(N_KINDS, dtype=np.int64)
    if kind == CHI:
        c[low : low + 3] = 1
    else:
        c[low] = 3 if kind == PENG else 4
    return c


def load_world(deal, world: World, spec: WorldSpec, phase: int) -> None:
    """Write ``world`` into the :class:`~daqing_sim.game.external.SteppedDeal` ``deal``, paused
    at the seat's discard (``PHASE_DISCARDED``, 14 tiles) or before its draw (``PHASE_DRAW``).

    The seat's own draws count from 0 here, so a declaration's ``ready_turn`` is the number of
    own draws after the decision. ``deal.resume(tile, declare)`` then plays on.
    """
    st, obs = deal.st, deal.obs
    st.conc[:] = world.conc
    st.mk[:] = world.mk
    st.mt[:] = world.mt
    st.nm[:] = world.nm
    st.meld_from[:] = -1
    for s in range(4):
        st.meld_from[s, : world.nm[s]] = (s + 3) % 4  # from whom is unknown: the previous seat
        for j in range(world.nm[s]):
            if world.mk[s, j] == CONCEALED_KONG:
                st.meld_from[s, j] = -1
    st.visible[:] = world.visible
    st.pool[:] = world.pool
    st.dead[:] = world.dead
    st.ready[:] = 0
    st.ready[list(spec.ready)] = 1
    st.ready_draw[:] = -1
    st.ready_draw[list(spec.ready)] = 0
    st.wk[:] = world.wk
    st.wb[:] = world.wb
    st.safe[:] = spec.passed
    st.own_draws[:] = 0
    st.pond[:] = 0
    st.pond_flag[:] = 0
    st.pond_claimer[:] = -1
    st.n_pond[:] = 0
    for s, pond in enumerate(spec.ponds):
        n = min(len(pond), st.pond.shape[1])
        st.pond[s, :n] = pond[:n]
        st.n_pond[s] = n
        if n and s in spec.ready:
            st.pond_flag[s, n - 1] = DECLARED
    st.kong_opts[:] = 0
    st.pay[:] = 0
    st.fans[:] = 0
    st.result[:] = 0
    obs.memo[:, 0] = UNKNOWN
    obs.memo[:, 1:] = 0
    obs.rng[:] = world.rng
    w = spec.wall_left
    deal.wall[:] = 0
    deal.wall[BAO_POSITION] = world.bao
    deal.wall[N_TILES - w :] = world.wall
    deal.seed[0] = world.deal_seed
    # the seat's 14th tile was the last draw (a claim changes nothing here)
    pause_loaded(deal, spec.seat, phase, w, N_TILES - w, N_TILES - 1, N_LIVE - w, world.bao)


def pause_loaded(
    deal, cur: int, phase: int, wall_left: int, front: int, back: int, n_draws: int, bao: int = -1
):
    """Pause ``deal`` (a :class:`~daqing_sim.game.external.SteppedDeal` whose state the caller
    loaded with a position) at seat ``cur``'s decision in ``phase``: its result row reset, its
    control row zero but for the status, the phase, the wall's ends ``front`` / ``back``,
    ``n_draws`` live draws made, ``wall_left`` tiles left to draw and the ``bao`` (-1: none);
    no tile just drawn, nothing claimable, no event logged."""
    reset_result_row(deal.orow)
    ctl = deal.ctl
    ctl[:] = 0
    ctl[C_STATUS] = ST_PAUSED
    ctl[C_PHASE] = phase
    ctl[C_CUR] = cur
    ctl[C_DRAWN] = -1
    ctl[C_LAST_LIVE] = wall_left + 1
    ctl[C_FRONT] = front
    ctl[C_BACK] = back
    ctl[C_N_DRAWS] = n_draws
    ctl[C_BAO] = bao
    ctl[C_D] = -1


__all__ = [
    "WorldSpec",
    "World",
    "sample_world",
    "load_world",
    "pause_loaded",
    "PHASE_DISCARDED",
    "PHASE_DRAW",
]
