"""A player's tunable parameter: its default and the values it may take."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Knob:
    """One knob of a built-in player (a float in the player's knob vector).

    >>> Knob(2.0, 0, 13, integer=True).check("fold_shanten", 2.5)
    Traceback (most recent call last):
    ...
    ValueError: fold_shanten=2.5 is not allowed: use a whole number from 0 to 13
    """

    default: float
    low: float
    high: float
    integer: bool = False
    doc: str = ""

    def check(self, name: str, value: object) -> float:
        """``value`` as a float, or a ``ValueError`` naming the knob and its domain."""
        kind = "a whole number" if self.integer else "a number"
        fix = f"use {kind} from {self.low:g} to {self.high:g}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name}={value!r} is not a number: {fix}")
        v = float(value)
        if math.isnan(v) or not self.low <= v <= self.high or (self.integer and not v.is_integer()):
            raise ValueError(f"{name}={value!r} is not allowed: {fix}")
        return v
