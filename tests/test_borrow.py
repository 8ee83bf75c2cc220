"""game.borrow: borrowed views share the data of what they borrow and keep its types."""

from collections import namedtuple

import numpy as np
import pytest
from numba import njit

from daqing_sim.game.borrow import borrowed

Pair = namedtuple("Pair", ("a", "b"))


@njit
def _write_through(pair, x, k):
    p, y, kk = borrowed((pair, x, k))
    p.a[0] += kk
    p.b[1, 2] = 7
    y[:] = 3
    return p.a.sum() + p.b.sum() + y.sum() + kk


@njit
def _views_of_a_borrowed_array(a):
    v = borrowed(a)
    row = v[1]
    row[0] = 9
    return v.shape[0], v.shape[1], v.strides[0], row.sum()


def test_a_borrowed_bundle_reads_and_writes_the_callers_arrays():
    pair = Pair(np.arange(4, dtype=np.int64), np.zeros((3, 4), dtype=np.uint8))
    x = np.zeros(5, dtype=np.int8)
    total = _write_through(pair, x, 2)
    assert pair.a.tolist() == [2, 1, 2, 3]
    assert pair.b[1, 2] == 7 and int(pair.b.sum()) == 7
    assert x.tolist() == [3] * 5
    assert total == 8 + 7 + 15 + 2


@pytest.mark.parametrize("order", ["C", "F"])
def test_a_borrowed_array_keeps_shape_and_strides(order):
    a = np.asarray(np.arange(12, dtype=np.int32).reshape(3, 4), order=order)
    n0, n1, s0, row_sum = _views_of_a_borrowed_array(a)
    assert (n0, n1, s0) == (3, 4, a.strides[0])
    assert a[1, 0] == 9
    assert row_sum == int(a[1].sum())
