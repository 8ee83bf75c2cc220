"""The results DataFrame of a Daqing run (docs/DESIGN.md, "Results DataFrame")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.codes import BAO_KINDS, N_KINDS, OUTCOMES, WAIT_KINDS
from daqing_sim.game.frame_common import WAIT_CATEGORIES, categorical
from daqing_sim.hand.notation import format_hand, hand_from_arrays
from daqing_sim.hand.tiles import tile_name
from daqing_sim.layout import (
    H_MK,
    H_MT,
    H_NM,
    O_BAO,
    O_BAO_REPLACEMENTS,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DRAWS,
    O_FANS,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_READY_OUTS,
    O_READY_TURN,
    O_READY_WAIT,
    O_READY_WAIT_MASK,
    O_READY_WAIT_TILES,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
)
from daqing_sim.players.registry import STRATEGIES

TILE_CATEGORIES = tuple(tile_name(t) for t in range(N_KINDS))


def daqing_frame(
    out: np.ndarray,
    first_deal: int,
    dealer: int,
    names: Sequence[str],
    hands: np.ndarray | None = None,
) -> pd.DataFrame:
    """The Daqing results frame of the kernel's ``out`` rows."""
    n = out.shape[0]
    cols: dict[str, Any] = {
        "deal": np.arange(first_deal, first_deal + n, dtype=np.int64),
        "outcome": categorical(out[:, O_OUTCOME], OUTCOMES),
        "winner": out[:, O_WINNER].astype(np.int8),
        "discarder": out[:, O_DISCARDER].astype(np.int8),
        "dealer": np.full(n, dealer, dtype=np.int8),
        "big": out[:, O_BIG].astype(bool),
        "bao": categorical(out[:, O_BAO], BAO_KINDS),
        "wait_kind": categorical(out[:, O_WAIT], WAIT_CATEGORIES, none_code=len(WAIT_KINDS)),
        "win_tile": categorical(out[:, O_WIN_TILE], TILE_CATEGORIES),
        "draws": out[:, O_DRAWS].astype(np.int16),
    }
    for s in range(4):
        cols[f"pay_{s}"] = out[:, O_PAY + s].astype(np.int32)
    for s in range(4):
        cols[f"fans_{s}"] = out[:, O_FANS + s].astype(np.int8)
    for s in range(4):
        cols[f"ready_turn_{s}"] = out[:, O_READY_TURN + s].astype(np.int16)
    for s in range(4):
        cols[f"ready_wait_{s}"] = categorical(out[:, O_READY_WAIT + s], WAIT_CATEGORIES, len(WAIT_KINDS))
    for s in range(4):
        cols[f"ready_outs_{s}"] = out[:, O_READY_OUTS + s].astype(np.int8)
    for s in range(4):
        cols[f"concealed_{s}"] = out[:, O_CONCEALED + s].astype(bool)
    cols["winner_kongs"] = out[:, O_WINNER_KONGS].astype(np.int8)
    cols["bao_replacements"] = out[:, O_BAO_REPLACEMENTS].astype(np.int8)
    for s in range(4):
        cols[f"own_draws_{s}"] = out[:, O_OWN_DRAWS + s].astype(np.int16)
    for s in range(4):
        cols[f"ready_wait_tiles_{s}"] = out[:, O_READY_WAIT_TILES + s].astype(np.int8)
    for s in range(4):
        cols[f"ready_wait_mask_{s}"] = out[:, O_READY_WAIT_MASK + s].astype(np.int8)
    # built-in names first, in registry order; Python players' labels after them
    categories = list(STRATEGIES) + sorted(set(names) - set(STRATEGIES))
    for s in range(4):
        code = categories.index(names[s])
        cols[f"strategy_{s}"] = pd.Categorical.from_codes(np.full(n, code, dtype=np.int8), categories)
    if hands is not None:
        text = [
            format_hand(hand_from_arrays(h[:N_KINDS], h[H_MK : H_MK + 4], h[H_MT : H_MT + 4], int(h[H_NM])))
            if w >= 0
            else None
            for h, w in zip(hands, out[:, O_WINNER], strict=True)
        ]
        cols["winner_hand"] = pd.array(text, dtype="string")
    return pd.DataFrame(cols)


def results_frame(out, first_deal, dealer, names, hands=None, cap=13) -> pd.DataFrame:
    """The family's frame builder, as :func:`daqing_sim.game.simulate.results_frame` calls it."""
    return daqing_frame(out, first_deal, dealer, names, hands)
