"""The lookup tables behind the evaluator: ranking, distances, complete suits."""

import itertools

import numpy as np
import pytest

from daqing_sim.hand import kernels as K
from daqing_sim.hand.tables import F_SEQ, F_TERM, F_TRIP, get_tables


@pytest.fixture(scope="module")
def tabs():
    return get_tables()


def _rank(vec, off):
    counts = np.zeros(28, dtype=np.int64)
    counts[:9] = vec
    return K.suit_rank(counts, 0, off)


def test_rank_is_a_bijection_onto_dense_range(tabs):
    off, suit_std = tabs.off, tabs.suit_std
    rng = np.random.default_rng(3)
    seen = {}
    for _ in range(20000):
        vec = rng.integers(0, 5, 9)
        if vec.sum() > 14:
            continue
        r = _rank(vec, off)
        assert 0 <= r < suit_std.shape[0]
        key = tuple(vec)
        assert seen.setdefault(r, key) == key  # no two vectors share a rank
    assert _rank(np.zeros(9, dtype=int), off) == 0


def _suit_distance_brute(vec, m, p, need=0):
    """Fewest tiles to add so the suit holds m melds + p pairs (features ``need``)."""
    melds = [("s", j) for j in range(7)] + [("t", j) for j in range(9)]
    best = 99
    for combo in itertools.combinations_with_replacement(melds, m):
        for pair in [None] if p == 0 else range(9):
            w = np.zeros(9, dtype=int)
            for kind, j in combo:
                if kind == "s":
                    w[j : j + 3] += 1
                else:
                    w[j] += 3
            if pair is not None:
                w[pair] += 2
            if w.max() > 4:
                continue
            feats = 0
            feats |= F_SEQ if any(k == "s" for k, _ in combo) else 0
            feats |= F_TRIP if w.max() >= 3 else 0
            feats |= F_TERM if w[0] or w[8] else 0
            if feats & need != need:
                continue
            best = min(best, int(np.maximum(w - vec, 0).sum()))
    return best


def test_suit_distances_match_brute_force(tabs):
    off, suit_std, suit_dq = tabs.off, tabs.suit_std, tabs.suit_dq
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 60:
        vec = rng.integers(0, 3, 9) * (rng.random(9) < 0.5)
        if vec.sum() > 14:
            continue
        r = _rank(vec, off)
        m = int(rng.integers(0, 3))
        p = int(rng.integers(0, 2))
        need = int(rng.integers(0, 8))
        assert suit_std[r, 2 * m + p] == _suit_distance_brute(vec, m, p)
        assert suit_dq[r, 10 * need + 2 * m + p] == min(_suit_distance_brute(vec, m, p, need), 99)
        checked += 1


@pytest.mark.parametrize(
    "vec, complete",
    [
        ([1, 1, 1, 0, 0, 0, 0, 0, 0], True),
        ([3, 1, 1, 1, 0, 0, 0, 0, 2], True),
        ([2, 0, 0, 0, 0, 0, 0, 0, 0], True),
        ([1, 1, 0, 0, 0, 0, 0, 0, 0], False),
        ([2, 2, 0, 0, 0, 0, 0, 0, 0], False),  # two pairs
        ([0] * 9, True),
    ],
)
def test_complete_suits(tabs, vec, complete):
    off, comp_idx = tabs.off, tabs.comp_idx
    assert (comp_idx[_rank(np.array(vec), off)] >= 0) == complete


def test_the_disk_cache_gives_back_the_built_tables(tmp_path):
    from daqing_sim.hand import tables as T

    built = T.build_tables()
    tabs = (*built, T._key_std_id(built[0], built[6]))
    path = tmp_path / "tables-x.npz"
    T._save(path, "x", tabs)
    loaded = T._load(path, "x")
    assert loaded is not None
    for name, a, b in zip(T.Tables._fields, tabs, loaded, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b), name
        assert b.flags.c_contiguous, name
    assert T._load(path, "another source") is None  # tables of other code are never loaded
    path.write_bytes(path.read_bytes()[:1000])
    assert T._load(path, "x") is None  # a damaged file is rebuilt


def test_the_type_stand_ins_have_the_tables_numba_type(tabs):
    from numba import typeof

    from daqing_sim.hand.tables import type_stand_ins

    assert typeof(type_stand_ins()) == typeof(tabs)
