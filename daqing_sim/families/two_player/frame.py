"""The results DataFrame of a two-player run (docs/DESIGN.md, "Results DataFrame, two-player").

One row per game, seats 0 and 1: the win's fans (one ``fan_<code>`` column per pattern and
limit hand of docs/RULES_TWO_PLAYER.md, holding its fans: a limit hand shows the cap), F and the
value, how it was won (self-draw, robbed kong, kong replacement, the last tile, the last discard,
an extra draw), each seat's 报听 (``declared_turn_<seat>``: own draws when it declared, -1 never)
and first wait (``tenpai_turn_<seat>``), the flower tiles and the game's length.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from daqing_sim.codes import N_KINDS_ALL, OUTCOMES, WAIT_KINDS
from daqing_sim.families.two_player.hand import (
    CTX_DECLARED_FIRST,
    CTX_EXTRA_DRAW,
    CTX_KONG_REPLACEMENT,
    CTX_LAST_DISCARD,
    CTX_LAST_TILE,
    CTX_ROBBED_KONG,
    F_FLOWER,
    FAN_NAMES,
    FAN_VALUES,
    MAX_FLOWERS,
    N_PATTERNS,
)
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
    FAN_MASK_LOW_BITS,
    O_CONCEALED,
    O_DEAL_KONGS,
    O_DISCARDER,
    O_DRAWS,
    O_EXTRA_DRAWS,
    O_FAN_MASK,
    O_FAN_MASK_HIGH,
    O_FAN_TOTAL,
    O_FLOWER_FANS,
    O_FLOWERS,
    O_HOW,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_READY_TURN,
    O_TENPAI_TURN,
    O_VALUE,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
)

TILE_CATEGORIES = tuple(tile_name(t) for t in range(N_KINDS_ALL))


def fan_columns(out: np.ndarray, won: np.ndarray, cap: int) -> dict[str, np.ndarray]:
    """``fan_<code>``: each pattern's fans in the win (0 not held; a limit hand shows ``cap``)."""
    low = np.where(won, out[:, O_FAN_MASK], 0).astype(np.int64)
    high = np.where(won, out[:, O_FAN_MASK_HIGH], 0).astype(np.int64)
    mask = low | (high << FAN_MASK_LOW_BITS)
    cols = {}
    for i, name in enumerate(FAN_NAMES):
        held = (mask >> i & 1).astype(bool)
        if i == F_FLOWER:
            value = np.where(won, out[:, O_FLOWER_FANS], 0)
        else:
            value = np.where(held, FAN_VALUES[i] if i < N_PATTERNS else cap, 0)
        cols[f"fan_{name}"] = np.asarray(value, dtype=np.int16)
    return cols


def two_player_frame(
    out: np.ndarray,
    first_deal: int,
    dealer: int,
    names: Sequence[str],
    hands: np.ndarray | None = None,
    cap: int = 13,
) -> pd.DataFrame:
    """The two-player results frame of the kernel's ``out`` rows (``cap``: the rules' ``limit_fans``)."""
    n = out.shape[0]
    won = out[:, O_WINNER] >= 0
    how = np.where(won, out[:, O_HOW], 0)
    cols: dict[str, object] = {
        "family": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["two_player"]),
        "deal": np.arange(first_deal, first_deal + n, dtype=np.int64),
        "outcome": categorical(out[:, O_OUTCOME], OUTCOMES),
        "winner": out[:, O_WINNER].astype(np.int8),
        "discarder": out[:, O_DISCARDER].astype(np.int8),
        "dealer": np.full(n, dealer, dtype=np.int8),
        "robbed_kong": how & CTX_ROBBED_KONG != 0,
        "kong_replacement": how & CTX_KONG_REPLACEMENT != 0,
        "last_tile": how & CTX_LAST_TILE != 0,
        "last_discard": how & CTX_LAST_DISCARD != 0,
        "extra_draw_win": how & CTX_EXTRA_DRAW != 0,
        "declared_first_win": how & CTX_DECLARED_FIRST != 0,
        "wait_kind": categorical(np.where(won, out[:, O_WAIT], -1), WAIT_CATEGORIES, len(WAIT_KINDS)),
        "win_tile": pd.Categorical.from_codes(np.where(won, out[:, O_WIN_TILE], -1), list(TILE_CATEGORIES)),
        "draws": out[:, O_DRAWS].astype(np.int16),
        "extra_draws": out[:, O_EXTRA_DRAWS].astype(np.int8),
        "fan_total": np.where(won, out[:, O_FAN_TOTAL], 0).astype(np.int16),
        "value": np.where(won, out[:, O_VALUE], 0).astype(np.int64),
    }
    cols.update(fan_columns(out, won, cap))
    for s in range(2):
        cols[f"pay_{s}"] = out[:, O_PAY + s].astype(np.int64)
    for s in range(2):
        cols[f"concealed_{s}"] = out[:, O_CONCEALED + s].astype(bool)
    for s in range(2):
        cols[f"declared_turn_{s}"] = out[:, O_READY_TURN + s].astype(np.int16)
    for s in range(2):
        cols[f"tenpai_turn_{s}"] = out[:, O_TENPAI_TURN + s].astype(np.int16)
    for s in range(2):
        cols[f"own_draws_{s}"] = out[:, O_OWN_DRAWS + s].astype(np.int16)
    cols["winner_kongs"] = out[:, O_WINNER_KONGS].astype(np.int8)
    cols["deal_kongs"] = out[:, O_DEAL_KONGS].astype(np.int8)
    packed = out[:, O_FLOWERS].astype(np.int64)
    for i in range(MAX_FLOWERS):
        kind = (packed >> (6 * i) & 63) - 1
        if (kind >= 0).any():
            cols[f"flower_{i}"] = pd.Categorical.from_codes(kind, list(TILE_CATEGORIES))
    cols.update(strategy_columns(names[:2], n))
    if hands is not None:
        cols["winner_hand"] = winner_hands(hands, out[:, O_WINNER])
    return pd.DataFrame(cols)


def results_frame(out, first_deal, dealer, names, hands=None, cap=13) -> pd.DataFrame:
    """The family's frame builder, as :func:`daqing_sim.game.simulate.results_frame` calls it."""
    return two_player_frame(out, first_deal, dealer, names, hands, cap)


#: result flags the replay names after how a win came (frame column, words)
HOW_EXTRAS = (
    ("robbed_kong", "robbed kong"),
    ("extra_draw_win", "extra draw"),
    ("kong_replacement", "kong replacement"),
    ("last_tile", "the last tile"),
    ("last_discard", "the last discard"),
)


def win_details(f: pd.Series, rules) -> dict:
    """The replay's account of a two-player win (:func:`daqing_sim.game.deal_log.result_row`),
    read from its row ``f`` of the results frame.

    Returns
    -------
    dict
        ``fans`` (``(label, fans)`` of each fan held, as scored) and ``how`` (self draw or deal
        in, then robbed kong, extra draw (海底捞月), kong replacement, the last tile or discard).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> row = pd.Series({"outcome": "self_draw", "extra_draw_win": True, "last_tile": False,
    ...                  "fan_total": 2, "fan_all_pungs": 2})
    >>> win_details(row, ds.RuleSet(family="two_player"))["how"]
    'self draw, extra draw'
    """
    how = str(f["outcome"]).replace("_", " ")
    how += "".join(f", {words}" for col, words in HOW_EXTRAS if col in f.index and f[col])
    return {
        "fans": [(fan_label("two_player", c), int(f[f"fan_{c}"])) for c in fans_held(f)],
        "how": how,
    }
