"""Shuffled walls, generated in fixed blocks so a deal's wall depends only on (seed, index).

Layout of one wall (``uint8`` tile kinds, length 112)::

    [0:14]    the dealer's 14 tiles
    [14:27]   the seat after the dealer, then [27:40] and [40:53] the next two seats
    [53]      the bao (宝), set aside face down, unknown to every player
    [54:112]  the live wall (58 tiles): draws from the front (index 54 upward),
              kong replacements and replacement baos (换宝) from the back (index 111 downward)

A Beijing wall (``family="beijing"``) has 136 tiles and no bao: the four hands in the same
places ``[0:53]``, then the live wall ``[53:136]`` (83 tiles), drawn from the front and, for
kong replacements, from the back; the deal ends with 14 tiles left undrawn (docs/RULES.md).

A two-player wall (``family="two_player"``, docs/RULES_TWO_PLAYER.md) is one game's tiles: the
first ``TP_WIDTH`` = 78 tiles of a uniform shuffle of the 136, so the 71 tiles in play are a
random 71 of the 136 and the tiles after them come from the 65 that are not played::

    [0:14]    the dealer's 14 tiles
    [14:27]   the other seat's 13
    [27:71]   the 44 tiles to draw: from the front (index 27 upward), kong replacements from
              the back (index 70 downward); the game ends when they are used up
    [71:74]   the extra draws of 海底捞月 (up to ``extra_draws`` = 3), in order
    [74:78]   the flower tiles turned face up (the first ``flower_tiles`` of them; 1 by default)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from daqing_sim.codes import COPIES, FAMILIES, N_TILES
from daqing_sim.families import family_spec
from daqing_sim.validation import check_int

BLOCK = 4096
DEALT = 53
BAO_POSITION = 53
LIVE_START = 54
N_LIVE = N_TILES - LIVE_START  # 58
# The live wall of a 136-tile family starts right after the hands (no bao set aside).
LIVE_START_ALL = DEALT
# The two-player wall: 71 tiles in play (14 + 13 dealt, 44 to draw), then the unused tiles it
# needs: three extra draws and up to four face-up flower tiles.
TP_IN_PLAY = 71
TP_DEALT = 27
TP_EXTRA_START = TP_IN_PLAY
TP_FLOWER_START = TP_IN_PLAY + 3
TP_WIDTH = TP_FLOWER_START + 4  # 78


@functools.lru_cache(maxsize=4)
def _block(seed: int, b: int, family: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The walls and deal seeds of block ``b`` (read-only; the last few blocks are kept, so
    that asking for one deal at a time, as ``DealEnv``, ``replay`` and ``deal_log`` do, does
    not shuffle a whole block of walls for each deal)."""
    # Daqing keeps its stream (spawn key (b,)); another family's walls are its own (b, family)
    key = (b,) if family == 0 else (b, family)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    spec = family_spec(FAMILIES[family])
    full = np.repeat(np.arange(spec.kinds, dtype=np.uint8), COPIES)
    walls = rng.permuted(np.broadcast_to(full, (BLOCK, full.shape[0])), axis=1)
    if spec.wall_width:  # the first tiles of a whole shuffle (two-player: 71 in play, then unused tiles)
        walls = walls[:, : spec.wall_width]
    seeds = rng.integers(0, np.iinfo(np.uint64).max, size=BLOCK, dtype=np.uint64, endpoint=True)
    walls = walls.astype(np.uint8, copy=False)
    walls.flags.writeable = False
    seeds.flags.writeable = False
    return walls, seeds


def generate_walls(
    n: int, seed: int, start: int = 0, *, family: str = "daqing"
) -> tuple[np.ndarray, int, np.ndarray]:
    """Shuffled walls of deals ``start .. start + n - 1`` of ``seed``.

    Deals come in fixed blocks of :data:`BLOCK`; block ``b`` is shuffled by one numpy call
    seeded with ``SeedSequence(seed, spawn_key=(b,))``, so deal ``i`` gets the same wall
    however a run is split into chunks.

    Parameters
    ----------
    n : int
        Number of deals (>= 0).
    seed : int
        Non-negative run seed.
    start : int
        Global index of the first deal.
    family : str
        ``"daqing"`` (112 tiles), ``"beijing"`` (136 tiles) or ``"two_player"`` (78 tiles: the 71
        in play, the extra draws and the flower tiles); each family has a stream of its own, so
        walls are shared only within a family.

    Returns
    -------
    walls : numpy.ndarray
        ``uint8 (n, 112)`` (``(n, 136)``, ``(n, 78)``) tile kinds in the layout of this module's
        docstring.
    bao_position : int
        Index of the bao in each wall (53; -1 for a family without bao).
    deal_seeds : numpy.ndarray
        ``uint64 (n,)`` seeds for in-game randomness (random strategies, ties).

    Examples
    --------
    >>> walls, bao_pos, seeds = generate_walls(3, seed=7, start=10)
    >>> walls.shape, bao_pos, bool((generate_walls(1, 7, start=12)[0][0] == walls[2]).all())
    ((3, 112), 53, True)
    >>> generate_walls(2, seed=7, family="beijing")[0].shape
    (2, 136)
    >>> generate_walls(2, seed=7, family="two_player")[0].shape
    (2, 78)
    """
    n = check_int(n, "n")
    seed = check_int(seed, "seed")
    start = check_int(start, "start")
    if family not in FAMILIES:
        raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILIES)}")
    fam = FAMILIES.index(family)
    spec = family_spec(family)
    walls = np.empty((n, spec.wall_width or spec.wall), dtype=np.uint8)
    seeds = np.empty(n, dtype=np.uint64)
    done = 0
    while done < n:
        g = start + done
        b, off = divmod(g, BLOCK)
        take = min(BLOCK - off, n - done)
        bw, bs = _block(seed, b, fam)
        walls[done : done + take] = bw[off : off + take]
        seeds[done : done + take] = bs[off : off + take]
        done += take
    return walls, spec.bao_position, seeds


def compose_wall(
    hands: Sequence[Sequence[int]],
    bao: int,
    front: Sequence[int] = (),
    back: Sequence[int] = (),
    dealer: int = 0,
    *,
    family: str = "daqing",
) -> np.ndarray:
    """Build one wall from chosen hands and draws (for tests and worked examples).

    Parameters
    ----------
    hands : four sequences of tile kinds
        Hands by seat (``hands[s]`` for seat ``s``); the dealer's has 14 tiles, the others 13.
    bao : int or None
        Tile kind of the bao (``None`` for a family without one, e.g. Beijing).
    front : sequence of int
        The first tiles drawn from the live wall, in order.
    back : sequence of int
        Tiles taken from the back (kong replacements, replacement baos), in order.
    dealer : int
        Seat of the dealer.
    family : str
        ``"daqing"`` (112 tiles) or ``"beijing"`` (136 tiles, no bao).

    Returns
    -------
    numpy.ndarray
        ``uint8 (112,)`` or ``(136,)``; the rest of the live wall holds the unused tiles in kind
        order.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILIES)}")
    spec = family_spec(family)
    with_bao = spec.bao_position >= 0
    if with_bao == (bao is None):
        raise ValueError("give the bao's tile kind for a Daqing wall, and bao=None for a Beijing one")
    n_kinds, n_tiles = spec.kinds, spec.wall
    live = spec.bao_position + 1 if with_bao else DEALT
    if len(hands) != 4:
        raise ValueError(f"compose_wall needs four hands (one per seat), got {len(hands)}")
    left = np.full(n_kinds, COPIES, dtype=np.int64)
    wall = np.full(n_tiles, 255, dtype=np.int64)
    pos = 0
    for k in range(4):
        seat = (dealer + k) % 4
        want = 14 if k == 0 else 13
        if len(hands[seat]) != want:
            raise ValueError(f"seat {seat} needs {want} tiles, got {len(hands[seat])}")
        for t in hands[seat]:
            wall[pos] = t
            pos += 1
    if with_bao:
        wall[spec.bao_position] = bao
    for i, t in enumerate(front):
        wall[live + i] = t
    for i, t in enumerate(back):
        if wall[n_tiles - 1 - i] != 255:
            raise ValueError(f"front and back draws overlap: the live wall has only {n_tiles - live} tiles")
        wall[n_tiles - 1 - i] = t
    if (wall[wall != 255] >= n_kinds).any():
        raise ValueError(f"tile kinds of a {family} wall are 0-{n_kinds - 1}")
    for t in wall[wall != 255]:
        left[t] -= 1
    bad = [int(t) for t in range(n_kinds) if left[t] < 0]
    if bad:
        raise ValueError(f"more than four copies of tile kind(s) {bad} in the composed wall")
    rest = np.repeat(np.arange(n_kinds), left)
    wall[wall == 255] = rest
    return wall.astype(np.uint8)


__all__ = [
    "generate_walls",
    "compose_wall",
    "BLOCK",
    "BAO_POSITION",
    "LIVE_START",
    "N_LIVE",
    "TP_IN_PLAY",
    "TP_WIDTH",
]
