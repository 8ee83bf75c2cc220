"""``njit_no_refs``: the hottest kernels compile without reference counting, which only a
kernel that allocates nothing may do."""

import numpy as np
import pytest

from daqing_sim.jit import njit_no_refs


def _sum_row(a, i):
    s = 0
    for x in a[i]:  # a row view: no reference counted
        s += x
    return s


def _fresh(n):
    return np.zeros(n).sum()


def test_a_kernel_without_allocation_runs():
    a = np.arange(12).reshape(3, 4)
    assert njit_no_refs(_sum_row)(a, 1) == 4 + 5 + 6 + 7


def test_a_kernel_that_allocates_fails_to_compile():
    with pytest.raises(Exception, match="(?i)no implementation of function .*zeros"):
        njit_no_refs(_fresh)(3)
