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
from daqing_sim.families.beijing.hand import FAN_NAMES, HOW_ROBBED_KONG
from daqing_sim.game.frame_common import (
    WAIT_CATEGORIES,
    categorical,
    fans_held,
    strategy_columns,
    winner_hands,
)
from daqing_sim.hand.fan_names import fan_label
from daqing_sim.hand.tiles import tile_name
from daqing_sim.layout import (
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

TILE_CATEGORIES = tuple(tile_name(t) for t in range(N_KINDS_ALL))


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
        "outcome": categorical(out[:, O_OUTCOME], OUTCOMES),
        "winner": out[:, O_WINNER].astype(np.int8),
        "discarder": out[:, O_DISCARDER].astype(np.int8),
        "dealer": np.full(n, dealer, dtype=np.int8),
        "robbed_kong": won & (out[:, O_HOW] & HOW_ROBBED_KONG != 0),
        "wait_kind": categorical(np.where(won, out[:, O_WAIT], -1), WAIT_CATEGORIES, len(WAIT_KINDS)),
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


def results_frame(out, first_deal, dealer, names, hands=None, cap=13) -> pd.DataFrame:
    """The family's frame builder, as :func:`daqing_sim.game.simulate.results_frame` calls it."""
    return beijing_frame(out, first_deal, dealer, names, hands)


def win_details(f: pd.Series, rules) -> dict:
    """The replay's account of a Beijing win (:func:`daqing_sim.game.deal_log.result_row`), read
    from its row ``f`` of the results frame.

    Returns
    -------
    dict
        ``fans`` (``(label, fans)`` of each fan held, valued under ``rules``), ``how`` (self
        draw, deal in or robbed kong), ``burn_rounds`` (烧庄) and ``mutual_payer`` (互包, -1 none).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> row = pd.Series({"outcome": "deal_in", "robbed_kong": True, "burn_rounds": 0,
    ...                  "mutual_payer": -1, "fan_total": 1, "fan_plain_win": 1})
    >>> win_details(row, ds.RuleSet(family="beijing"))["how"]
    'robbed kong'
    """
    values = rules.to_dict()
    return {
        "fans": [(fan_label("beijing", c), values[f"fans_{c}"]) for c in fans_held(f)],
        "burn_rounds": int(f["burn_rounds"]),
        "mutual_payer": int(f["mutual_payer"]),
        "how": "robbed kong" if f["robbed_kong"] else str(f["outcome"]).replace("_", " "),
    }
