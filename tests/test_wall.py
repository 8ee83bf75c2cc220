"""Walls: full sets, reproducible per (seed, deal) however a run is chunked."""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.game.wall import BAO_POSITION, BLOCK, LIVE_START, compose_wall, generate_walls


def test_shapes_and_full_sets():
    walls, bao_pos, seeds = generate_walls(500, seed=1)
    assert walls.shape == (500, 112) and walls.dtype == np.uint8
    assert seeds.shape == (500,) and seeds.dtype == np.uint64
    assert bao_pos == BAO_POSITION == 53 and LIVE_START == 54
    counts = np.stack([np.bincount(w, minlength=28) for w in walls])
    assert (counts == 4).all()
    assert len({w.tobytes() for w in walls}) == 500  # shuffled, not repeated
    assert len(set(seeds.tolist())) == 500


@pytest.mark.parametrize("start, n", [(0, 10), (BLOCK - 3, 7), (3 * BLOCK + 5, 2 * BLOCK + 9)])
def test_chunking_invariance(start, n):
    whole, _, whole_seeds = generate_walls(start + n, seed=9)
    part, _, part_seeds = generate_walls(n, seed=9, start=start)
    assert (part == whole[start:]).all() and (part_seeds == whole_seeds[start:]).all()
    # split at an arbitrary point
    k = n // 3
    a, _, sa = generate_walls(k, seed=9, start=start)
    b, _, sb = generate_walls(n - k, seed=9, start=start + k)
    assert (np.concatenate([a, b]) == part).all() and (np.concatenate([sa, sb]) == part_seeds).all()


def test_seeds_differ():
    a, _, sa = generate_walls(5, seed=1)
    b, _, sb = generate_walls(5, seed=2)
    assert not (a == b).all() and not (sa == sb).any()


def test_tiles_uniform_over_positions():
    walls, _, _ = generate_walls(4000, seed=5)
    # each kind is 1/28 of every position; the dealer's first tile is 中 about 4000/28 times
    share = (walls == 27).mean(axis=0)
    assert abs(share.mean() - 1 / 28) < 1e-9
    assert np.abs(share - 1 / 28).max() < 0.02


def test_bad_input():
    with pytest.raises(ValueError, match="n=-1"):
        generate_walls(-1, seed=0)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        generate_walls(1, seed=1.5)
    assert generate_walls(0, seed=0)[0].shape == (0, 112)


def test_compose_wall():
    hands = [
        list(range(14)),
        list(range(14, 27)),
        [0] * 3 + list(range(1, 11)),
        [27] * 4 + list(range(18, 27)),
    ]
    wall = compose_wall(hands, bao=26, front=[5, 6], back=[7])
    assert wall[:14].tolist() == hands[0] and wall[14:27].tolist() == hands[1]
    assert wall[53] == 26 and wall[54:56].tolist() == [5, 6] and wall[111] == 7
    assert (np.bincount(wall, minlength=28) == 4).all()
    with pytest.raises(ValueError, match="more than four copies"):
        compose_wall([[0] * 14, [0] * 13, list(range(13)), list(range(13))], bao=1)
    with pytest.raises(ValueError, match="needs 13 tiles"):
        compose_wall([list(range(14)), list(range(12)), list(range(13)), list(range(13))], bao=1)


def test_beijing_walls_hold_136_tiles_of_34_kinds_on_their_own_stream():
    walls, bao, seeds = generate_walls(5000, seed=3, start=4000, family="beijing")
    assert walls.shape == (5000, 136) and bao == -1
    counts = np.apply_along_axis(np.bincount, 1, walls, minlength=34)
    assert (counts == 4).all()
    again, _, seeds2 = generate_walls(3, seed=3, start=4100, family="beijing")
    assert (again == walls[100:103]).all() and (seeds2 == seeds[100:103]).all()
    daqing, _, _ = generate_walls(3, seed=3, start=4100)
    assert daqing.shape == (3, 112)
    assert not (again[:, :112] == daqing).all()  # not the Daqing wall with honors appended
    # the tiles' positions are uniform: each kind is about equally often first in the wall
    first = np.bincount(walls[:, 0], minlength=34)
    assert first.min() > 5000 / 34 * 0.5
    with pytest.raises(ValueError, match="unknown rule family 'hk'"):
        generate_walls(1, seed=1, family="hk")
