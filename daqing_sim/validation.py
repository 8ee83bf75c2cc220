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
