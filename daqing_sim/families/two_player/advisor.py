"""The advisor under the two-player rules (docs/RULES_TWO_PLAYER.md): two seats, 44 tiles to draw
after the deal from 71 of the 136 (the seat's draws are uniform from every unseen tile all the
same: which tiles are out of play it cannot see), up to ``extra_draws`` more for a ready seat at
the wall's end (海底捞月); the opponent pays F x multiplier x points per fan. A concealed hand
that declares 报听 gains 门清报听 (one fan) and is locked; the exact model locks every ready
hand anyway, so there it declares whenever it is concealed (the ``declare`` rows show the
difference). Danger: only a declared opponent is known ready (the two-player expert folds only
against one, to the tiles it let pass); its waits are read with the Beijing expert's wait model
(:mod:`daqing_sim.families.beijing.danger`), 0 for a passed tile.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor import family_exact as FX
from daqing_sim.advisor.danger34 import danger_parts
from daqing_sim.advisor.family_api import Position
from daqing_sim.families.two_player.hand import (
    CTX_DECLARED,
    CTX_LAST_DISCARD,
    CTX_SELF_DRAW,
    FLOWER_SHIFT,
    N_FANS,
    tp_fans_k,
    tp_value_k,
)

N_SEATS = 2
LIVE_WALL = 44  # 71 tiles in play - 14 - 13 dealt


def flower_bits(flowers: tuple[int, ...]) -> int:
    """The face-up flower tiles as the fan kernel's ``ctx`` carries them."""
    bits = 0
    for i, kind in enumerate(flowers):
        bits |= (kind + 1) << (FLOWER_SHIFT + 6 * i)
    return bits


class TwoPlayer:
    """The two-player family's part of the advisor (:class:`~daqing_sim.advisor.family_api.Family`)."""

    n_seats = N_SEATS
    live_wall = LIVE_WALL

    def contexts(self, pos: Position, mk, nm, declare: bool) -> tuple[int, int]:
        """``ctx`` of a self-draw now (declared when ``declare``) and of a hand made ready later
        (declared when concealed: 报听 costs nothing in a model that locks ready hands)."""
        base = CTX_SELF_DRAW | flower_bits(pos.flowers)
        concealed = not FX.is_open(mk, nm)
        now = base | (CTX_DECLARED if declare and concealed else 0)
        return now, base | (CTX_DECLARED if concealed else 0)

    def win_on_discard(self, pos: Position, counts14, mk, mt, nm, tile: int) -> float:
        """The value the opponent pays for a win on its discard ``tile`` (0: no win)."""
        ctx = flower_bits(pos.flowers) | (CTX_LAST_DISCARD if pos.wall_left == 0 else 0)
        fans = np.zeros(N_FANS, dtype=np.int64)
        c14 = np.ascontiguousarray(counts14, dtype=np.uint8)
        f = tp_fans_k(c14, mk, mt, nm, tile, ctx, pos.enc, fans)
        return float(tp_value_k(f, 0, pos.enc)) if f > 0 else 0.0

    def dangers(self, pos: Position, counts14, mk, mt, nm) -> dict[int, np.ndarray]:
        """Against a declared opponent: P(t in its waits | ready) by the wait model, 0 for the
        kinds it let pass; nothing against an undeclared one."""
        if not pos.declared_opponent:
            return {}
        opp = 1 - pos.seat
        _, q = danger_parts(pos, counts14, mk, mt, nm)
        d = np.clip(q[opp], 0.0, 1.0)
        d[pos.view.passed[opp] > 0] = 0.0
        return {opp: d}


#: the family advisor the registry hands to :func:`daqing_sim.advisor.family_advise.family_of`
ADVISOR = TwoPlayer

__all__ = ["ADVISOR", "TwoPlayer", "flower_bits", "LIVE_WALL", "N_SEATS"]
