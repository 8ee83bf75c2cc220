"""A Beijing win scored on its hand: fans by code name, F and value (:func:`score`; the public
entry point is :func:`daqing_sim.game.score_win.score_win`)."""

from __future__ import annotations

import numpy as np

from daqing_sim.codes import N_KINDS_ALL
from daqing_sim.families.beijing import hand as B
from daqing_sim.hand.kinds34 import bj_wait_set_k
from daqing_sim.hand.notation import Hand
from daqing_sim.hand.score import WinScore
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet


def score_beijing(
    hand: Hand,
    t: int,
    rules: RuleSet,
    *,
    self_draw: bool,
    last_tile: bool = False,
    last_discard: bool = False,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
) -> WinScore:
    """A 34-kind family's win of tile kind ``t`` on the 13-tile ``hand`` (validated by the caller,
    :func:`daqing_sim.game.score_win.score_win`): fans of the best split, F, value and total."""
    if self_draw and (last_discard or robbed_kong):
        raise ValueError(
            "a self-draw is not a win on a discard: last_discard and robbed_kong need self_draw=False"
        )
    if not self_draw and (last_tile or kong_replacement):
        raise ValueError(
            "last_tile (海底捞月) and kong_replacement (杠上开花) are self-draws: pass self_draw=True"
        )
    if robbed_kong and last_discard:
        raise ValueError("a robbed kong is not the last discard: pass one of robbed_kong, last_discard")
    from daqing_sim.compile_notice import announce

    announce("hand_beijing")
    tabs = get_tables()
    kinds, tiles, n = hand.meld_arrays()
    counts = hand.counts.astype(np.uint8)  # as the engine's: one signature per kernel
    waits = np.empty(N_KINDS_ALL, dtype=np.int8)
    n_waits = bj_wait_set_k(counts.copy(), kinds, tiles, n, tabs, waits)
    if waits[t] < 0:
        raise ValueError(f"{tile_name(t)} does not complete {hand}: it is not a winning tile")
    counts[t] += 1
    how = (
        (B.HOW_SELF_DRAW if self_draw else 0)
        | (B.HOW_LAST_TILE if last_tile else 0)
        | (B.HOW_LAST_DISCARD if last_discard else 0)
        | (B.HOW_KONG_REPLACEMENT if kong_replacement else 0)
        | (B.HOW_ROBBED_KONG if robbed_kong else 0)
    )
    out = np.zeros(B.N_FANS, dtype=np.int64)
    enc = rules.encode()
    total_fans = int(B.bj_fans_k(counts, kinds, tiles, n, t, n_waits == 1, how, enc, out))
    is_open = any(m.exposed for m in hand.melds)
    value = int(B.bj_value_k(total_fans, is_open, enc))
    fans = {name: int(getattr(rules, f"fans_{name}")) for i, name in enumerate(B.FAN_NAMES) if out[i]}
    total = 3 * value if (self_draw or robbed_kong) else value
    return WinScore(hand, tile_name(t), rules, fans, total_fans, value, total)


score = score_beijing  # the family protocol's name
