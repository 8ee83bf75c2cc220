"""Column builders every family's results frame uses (:mod:`daqing_sim.families`' ``frame``
modules): categorical columns, the seats' strategies and the winner's hand in notation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from daqing_sim.codes import N_KINDS_ALL, WAIT_KINDS
from daqing_sim.hand.notation import format_hand, hand_from_arrays
from daqing_sim.layout import HA_MK, HA_MT, HA_NM
from daqing_sim.players.registry import STRATEGIES

WAIT_CATEGORIES = (*WAIT_KINDS, "none")


def categorical(codes: np.ndarray, categories: Sequence[str], none_code: int | None = None) -> pd.Categorical:
    """``codes`` as a categorical of ``categories``; a negative code becomes ``none_code``.

    >>> list(categorical(np.array([1, -1]), ("a", "b", "none"), none_code=2))
    ['b', 'none']
    """
    codes = np.asarray(codes, dtype=np.int64).copy()
    if none_code is not None:
        codes[codes < 0] = none_code
    return pd.Categorical.from_codes(codes, categories=list(categories))


def strategy_columns(names: Sequence[str], n: int) -> dict[str, pd.Categorical]:
    """``strategy_<seat>`` of ``n`` rows, one per name: built-in names first, in registry order,
    Python players' labels after them.

    >>> list(strategy_columns(["greedy", "random"], 2)["strategy_1"])
    ['random', 'random']
    """
    categories = list(STRATEGIES) + sorted(set(names) - set(STRATEGIES))
    return {
        f"strategy_{s}": pd.Categorical.from_codes(
            np.full(n, categories.index(name), dtype=np.int8), categories
        )
        for s, name in enumerate(names)
    }


def winner_hands(hands: np.ndarray, winners: np.ndarray) -> pd.arrays.StringArray:
    """``winner_hand``: each row's 34-kind hand row (``HAND_ROW_ALL``) in hand notation, missing
    where nobody won."""
    text = [
        format_hand(
            hand_from_arrays(h[:N_KINDS_ALL], h[HA_MK : HA_MK + 4], h[HA_MT : HA_MT + 4], int(h[HA_NM]))
        )
        if w >= 0
        else None
        for h, w in zip(hands, winners, strict=True)
    ]
    return pd.array(text, dtype="string")


def fans_held(row: pd.Series) -> list[str]:
    """The code names of the fans a results row holds (its non-zero ``fan_<code>`` columns, in the
    frame's order; ``fan_total`` is not a fan).

    >>> fans_held(pd.Series({"fan_total": 3, "fan_seven_pairs": 2, "fan_one_suit": 0, "fan_dealer": 1}))
    ['seven_pairs', 'dealer']
    """
    return [c[4:] for c in row.index if c.startswith("fan_") and c != "fan_total" and row[c]]
