"""The decorator of the hottest kernels: :func:`njit_no_refs`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit


def njit_no_refs(fn: Callable[..., Any]) -> Any:
    """``njit(cache=True)`` without numba's reference counting, for kernels that allocate no
    array and return none: numba counts a reference to every array argument at each call (the
    hand tables ``tabs`` alone hold 13), an atomic operation each way, which cost the greedy
    players about a third of their time. A kernel that allocates fails to compile with it."""
    return njit(cache=True, _nrt=False)(fn)
