"""The advisor under Beijing rules (docs/RULES_BEIJING.md): four seats, 69 drawable tiles after
the deal, no declaration; a self-drawn win is paid by the three others (base x F each, half for
an open hand), a win on a discard by the discarder. The danger is the Beijing expert's:
P(seat r is ready) x P(the tile is one of r's waits | ready), read from the table by
:mod:`daqing_sim.families.beijing.danger`.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor import family_exact as FX
from daqing_sim.advisor.danger34 import danger_parts
from daqing_sim.advisor.family_api import Position
from daqing_sim.codes import N_KINDS_ALL
from daqing_sim.families.beijing.hand import HOW_LAST_DISCARD, bj_fans_k, bj_value_k
from daqing_sim.hand.tables import get_tables

N_SEATS = 4
LIVE_WALL = 69  # 136 - 53 dealt - 14 left undrawn (RULES_BEIJING: Deal and wall)


class Beijing:
    """The Beijing family's part of the advisor (:class:`~daqing_sim.advisor.family_api.Family`)."""

    n_seats = N_SEATS
    live_wall = LIVE_WALL

    def contexts(self, pos: Position, mk, nm, declare: bool) -> tuple[int, int]:
        """The kernels' ``ctx``: 1 for an open hand (half the base), for now and later alike."""
        ctx = 1 if FX.is_open(mk, nm) else 0
        return ctx, ctx

    def win_on_discard(self, pos: Position, counts14, mk, mt, nm, tile: int) -> float:
        """The value the discarder pays for a win on ``tile`` (0 when it completes nothing)."""
        c13 = np.ascontiguousarray(counts14, dtype=np.uint8).copy()
        c13[tile] -= 1
        wk = np.empty(N_KINDS_ALL, dtype=np.int8)
        n_waits = FX.waits_k(c13, mk, mt, nm, get_tables(), FX.BEIJING, wk)
        if wk[tile] < 0:
            return 0.0
        how = HOW_LAST_DISCARD if pos.wall_left == 0 else 0
        fans = np.zeros(11, dtype=np.int64)
        c14 = np.ascontiguousarray(counts14, dtype=np.uint8)
        f = bj_fans_k(c14, mk, mt, nm, tile, n_waits == 1, how, pos.enc, fans)
        return float(bj_value_k(f, FX.is_open(mk, nm), pos.enc)) if f > 0 else 0.0

    def dangers(self, pos: Position, counts14, mk, mt, nm) -> dict[int, np.ndarray]:
        """Per other seat r: P(r ready) x P(t in r's waits | ready), the expert's estimate."""
        pt, q = danger_parts(pos, counts14, mk, mt, nm)
        return {r: np.clip(pt[r] * q[r], 0.0, 1.0) for r in range(N_SEATS) if r != pos.seat}


#: the family advisor the registry hands to :func:`daqing_sim.advisor.family_advise.family_of`
ADVISOR = Beijing

__all__ = ["ADVISOR", "Beijing", "LIVE_WALL", "N_SEATS"]
