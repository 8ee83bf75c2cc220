"""Checks of user input shared by the public API, and the one atomic file write.

Numba-free and import-light: every layer may use it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

PARTIAL = ".tmp"  # suffix of a file being written; results/.gitignore ignores *.tmp
# Peak memory of one simulated deal (kernel rows, their concatenation and the results frame),
# with a margin: sizes beyond the machine's memory are refused instead of swapping or hanging.
RESULT_BYTES_PER_DEAL = 600


def check_int(value: Any, name: str, minimum: int | None = 0) -> int:
    """``value`` as an ``int``, or a ``ValueError`` naming ``name`` and the fix.

    >>> check_int(3, "n_deals")
    3
    >>> check_int(2.5, "n_deals")
    Traceback (most recent call last):
    ...
    ValueError: n_deals must be a whole number, not 2.5
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name}={value} is too small: use a whole number >= {minimum}")
    return int(value)


def physical_memory() -> int | None:
    """Bytes of RAM of this machine, or None when the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def check_fits_memory(n_deals: int, name: str, fix: str) -> None:
    """Refuse ``n_deals`` deals held in memory at once when they cannot fit in RAM.

    >>> check_fits_memory(10**15, "n_deals", "simulate fewer deals")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: n_deals=1000000000000000 needs about 600,000,000.0 GB of memory...; simulate fewer deals
    """
    memory = physical_memory()
    need = n_deals * RESULT_BYTES_PER_DEAL
    if memory is not None and need > memory:
        raise ValueError(
            f"{name}={n_deals} needs about {need / 1e9:,.1f} GB of memory, more than this machine's "
            f"{memory / 1e9:,.1f} GB; {fix}"
        )


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it to ``path``:
    readers see the old file or the complete new one, never a half-written one."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}{PARTIAL}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """:func:`atomic_write` of ``data``."""
    atomic_write(path, lambda p: p.write_bytes(data))
