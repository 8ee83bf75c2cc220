"""The results DataFrame of a Beijing run (docs/DESIGN.md, "Results DataFrame, Beijing").

Beijing has no ready declaration and no bao, so its frame has no ``ready_*``, ``bao`` or ``big``
columns; it has the win's fans (one ``fan_<code>`` column per fan of docs/RULES_BEIJING.md), F
and the value, 烧庄 rounds, 互包 and robbed kongs, and when each seat's hand first waited.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from daqing_sim.codes import N_KINDS_ALL, OUTCOMES, WAIT_KINDS
from daqing_sim.hand.beijing import FAN_NAMES, HOW_ROBBED_KONG
from daqing_sim.hand.notation import format_hand, hand_from_arrays
from daqing_sim.hand.tiles import tile_name
from daqing_sim.layout import (
    HA_MK,
    HA_MT,
    HA_NM,
    O_BURN_ROUNDS,
    O_CONCEALED,
    O_DEAL_KONGS,
    O_DISCARDER,
    O_DRAWS,
    O_FAN_MASK,
    O_FAN_TOTAL,
    O_HOW,
    O_MUTUAL_PAYER,
    O_N_BINDINGS,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_TENPAI_TURN,
    O_VALUE,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
)
from daqing_sim.players.registry import STRATEGIES

WAIT_CATEGORIES = (*WAIT_KINDS, "none")
TILE_CATEGORIES = tuple(tile_name(t) for t in range(N_KINDS_ALL))


def _categorical(codes: np.ndarray, categories: Sequence[str], none_code: int | None = None):
    codes = np.asarray(codes, dtype=np.int64).copy()
    if none_code is not None:
        codes[codes < 0] = none_code
    return pd.Categorical.from_codes(codes, categories=list(categories))


def beijing_frame(
    out: np.ndarray,
    first_deal: int,
    dealer: int,
    names: Sequence[str],
    hands: np.ndarray | None = None,
) -> pd.DataFrame:
    """The Beijing results frame of the kernel's ``out`` rows."""
    n = out.shape[0]
    won = out[:, O_WINNER] >= 0
    cols: dict[str, object] = {
        "family": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["beijing"]),
        "deal": np.arange(first_deal, first_deal + n, dtype=np.int64),
        "outcome": _categorical(out[:, O_OUTCOME], OUTCOMES),
        "winner": out[:, O_WINNER].astype(np.int8),
        "discarder": out[:, O_DISCARDER].astype(np.int8),
        "dealer": np.full(n, dealer, dtype=np.int8),
        "robbed_kong": won & (out[:, O_HOW] & HOW_ROBBED_KONG != 0),
        "wait_kind": _categorical(np.where(won, out[:, O_WAIT], -1), WAIT_CATEGORIES, len(WAIT_KINDS)),
        "win_tile": pd.Categorical.from_codes(np.where(won, out[:, O_WIN_TILE], -1), list(TILE_CATEGORIES)),
        "draws": out[:, O_DRAWS].astype(np.int16),
        "fan_total": np.where(won, out[:, O_FAN_TOTAL], 0).astype(np.int16),
        "value": np.where(won, out[:, O_VALUE], 0).astype(np.int32),
    }
    mask = np.where(won, out[:, O_FAN_MASK], 0)
    for i, name in enumerate(FAN_NAMES):
        cols[f"fan_{name}"] = (mask >> i & 1).astype(bool)
    for s in range(4):
        cols[f"pay_{s}"] = out[:, O_PAY + s].astype(np.int32)
    for s in range(4):
        cols[f"concealed_{s}"] = out[:, O_CONCEALED + s].astype(bool)
    for s in range(4):
        cols[f"own_draws_{s}"] = out[:, O_OWN_DRAWS + s].astype(np.int16)
    for s in range(4):
        cols[f"tenpai_turn_{s}"] = out[:, O_TENPAI_TURN + s].astype(np.int16)
    cols["winner_kongs"] = out[:, O_WINNER_KONGS].astype(np.int8)
    cols["deal_kongs"] = out[:, O_DEAL_KONGS].astype(np.int8)
    cols["burn_rounds"] = out[:, O_BURN_ROUNDS].astype(np.int8)
    cols["mutual_bindings"] = out[:, O_N_BINDINGS].astype(np.int8)
    cols["mutual_payer"] = np.where(won, out[:, O_MUTUAL_PAYER], -1).astype(np.int8)
    cols.update(strategy_columns(names, n))
    if hands is not None:
        cols["winner_hand"] = winner_hands(hands, out[:, O_WINNER])
    return pd.DataFrame(cols)


def strategy_columns(names: Sequence[str], n: int) -> dict[str, pd.Categorical]:
    """``strategy_<seat>`` of ``n`` rows, one per name: built-in names first, in registry order,
    Python players' labels after them."""
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
