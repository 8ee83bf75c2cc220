"""The win of a 34-kind family (Beijing) scored on its hand: fans by code name, F, value.

:func:`daqing_sim.game.score_win.score_win` is the public entry point (every family); this module
is the hand-level part it shares with the ``hand`` command.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from daqing_sim.codes import N_KINDS_ALL
from daqing_sim.hand import beijing as B
from daqing_sim.hand.notation import Hand
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet


@dataclass(frozen=True)
class WinScore:
    """A scored win.

    Attributes
    ----------
    fans : dict
        Beijing: fan code name -> its fans, for the split worth the most (``plain_win`` when no
        fan type applies; ``last_discard`` adds to the rest). Daqing: loser seat -> the names of
        its fans (``2 ** len(names)`` is what it owes before 包庄).
    total_fans : int
        Beijing: F, the sum of the fans. Daqing: the most fans any loser has.
    value : int
        Beijing: what one loser pays (base x F; x 2^(F-1) under ``fan_combine="double"``).
        Daqing: what the winner receives.
    total : int
        What the winner receives in all (Beijing: 3 x value on a self-draw or a robbed kong).
    settlement : Settlement or None
        Daqing only: the full settlement (payments by seat, 包庄).
    """

    hand: Hand
    win_tile: str
    rules: RuleSet
    fans: dict
    total_fans: int
    value: int
    total: int
    settlement: object | None = field(default=None, repr=False)

    def __str__(self) -> str:
        if self.settlement is not None:
            return str(self.settlement)
        fans = ", ".join(f"{k} {v}" for k, v in self.fans.items())
        return (
            f"{self.hand} + {self.win_tile}: {fans} = {self.total_fans} fan(s), "
            f"value {self.value}, receives {self.total}"
        )


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
    counts = hand.counts.astype(np.int64)
    waits = np.empty(N_KINDS_ALL, dtype=np.int8)
    n_waits = B.bj_wait_set_k(counts.copy(), kinds, tiles, n, tabs, waits)
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
