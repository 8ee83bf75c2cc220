"""The simulated advisor under the two-player rules: the position loaded into a two-player
:class:`~daqing_sim.game.external.SteppedDeal` paused at the seat's decision, for the search
evaluator (:mod:`daqing_sim.families.two_player.world` deals the hidden tiles again in each world:
the opponent's concealed tiles, the live wall, the extra draws of 海底捞月; a declared opponent's
hand built to wait on no tile it let pass).

The loaded deal: the seat's hand and melds, the opponent's melds and pond, the face-up flower
tiles, ``wall_left`` tiles to draw before the wall's end (the last of the 71 tiles in play), the
opponent's concealed tiles and the wall filled from the unseen tiles in a fixed order (never
read: every world deals them again). Not known from the position, so not played: when the
opponent declared (taken as its pond's declared discard, else one turn ago), the kongs' order.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor.family_api import Position
from daqing_sim.codes import CONCEALED_KONG, N_KINDS_ALL
from daqing_sim.hand.notation import Hand


def paused_deal_tp(pos: Position, hand: Hand, field_codes: np.ndarray, field_knobs: np.ndarray):
    """A two-player ``SteppedDeal`` paused at the seat's discard (14 tiles) or before its draw
    (13), holding the position (see the module doc), and the rule encoding of its rollouts."""
    from daqing_sim.advisor.world import pause_loaded
    from daqing_sim.game.deal34 import UNKNOWN_SHANTEN
    from daqing_sim.game.engine import C_SEAT, PHASE_DISCARDED, PHASE_DRAW
    from daqing_sim.game.external import SteppedDeal
    from daqing_sim.game.wall import TP_DEALT, TP_FLOWER_START, TP_IN_PLAY
    from daqing_sim.layout import T_FLOWERS, T_KONGS, T_READY_SINCE, T_SHANTEN, T_TICKS
    from daqing_sim.players.observation import DECLARED, UNKNOWN

    view, seat, opp = pos.view, pos.seat, 1 - pos.seat
    melds = [list(view.melds[0]), list(view.melds[1])]
    melds[seat] = list(hand.melds)
    if not 0 <= pos.wall_left <= TP_IN_PLAY - TP_DEALT:
        raise ValueError(
            f"wall_left={pos.wall_left}: a two-player wall has 0-{TP_IN_PLAY - TP_DEALT} tiles to draw"
        )
    deal = SteppedDeal(pos.enc, field_codes, field_knobs, pos.dealer)
    st, obs, wall = deal.st, deal.obs, deal.wall
    for name in ("conc", "mk", "mt", "nm", "visible", "pool", "dead", "ready", "safe", "pond", "pond_flag",
                 "n_pond", "kong_opts", "pay", "fans", "result", "tp", "own_draws"):  # fmt: skip
        getattr(st, name)[:] = 0
    for name in ("meld_from", "pond_claimer", "ready_draw", "wk", "tenpai"):
        getattr(st, name)[:] = -1
    st.wb[:] = 0
    kongs = 0
    ckong = np.zeros(N_KINDS_ALL, dtype=np.int64)
    for s in (0, 1):
        st.nm[s] = len(melds[s])
        for j, m in enumerate(melds[s]):
            st.mk[s, j], st.mt[s, j] = m.code, m.tile
            st.meld_from[s, j] = -1 if m.code == CONCEALED_KONG else 1 - s
            kongs += m.kind in ("kong", "concealed_kong", "added_kong")
            if m.code == CONCEALED_KONG:
                ckong[m.tile] += 4
        st.concealed[s] = 0 if any(m.exposed for m in melds[s]) else 1
    st.conc[seat] = hand.counts
    pool = np.asarray(pos.pool, dtype=np.int64)
    # what both see: every tile neither unseen, in the seat's hand nor in a concealed kong
    st.visible[:] = np.clip(4 - pool - hand.counts.astype(np.int64) - ckong, 0, 4)
    st.pool[:] = np.minimum(view.pond_counts(), 4)
    for s, pond in enumerate(view.ponds[:2]):
        n = min(len(pond), st.pond.shape[1])
        st.pond[s, :n] = pond[:n]
        st.n_pond[s] = n
        st.own_draws[s] = max(1, n)  # past the first draw: no 天和 / 地和 in the rollouts
    unseen = np.repeat(np.arange(N_KINDS_ALL), pool)
    n_opp = 13 - 3 * len(melds[opp])
    if unseen.size < n_opp + pos.wall_left:
        raise ValueError(
            f"wall_left={pos.wall_left} is impossible: {unseen.size} unseen tiles, {n_opp} of them in the "
            f"opponent's concealed hand: at most {max(0, unseen.size - n_opp)}"
        )
    np.add.at(st.conc[opp], unseen[:n_opp], 1)
    tp = st.tp
    tp[T_KONGS] = kongs
    tp[T_TICKS] = int(st.n_pond[0] + st.n_pond[1])
    for s in range(4):
        tp[T_SHANTEN + s] = UNKNOWN_SHANTEN
        tp[T_READY_SINCE + s] = -1
    if hand.size == 13 and _waits(hand):
        tp[T_READY_SINCE + seat] = max(0, int(tp[T_TICKS]) - 1)  # waiting since its last discard at least
    packed = 0
    for i, kind in enumerate(pos.flowers):
        wall[TP_FLOWER_START + i] = kind
        packed |= (int(kind) + 1) << (6 * i)
    tp[T_FLOWERS] = packed
    if pos.declared_opponent:
        st.ready[opp] = 1
        st.safe[opp] = np.asarray(view.passed[opp] > 0, dtype=np.uint8)
        if st.n_pond[opp]:
            st.pond_flag[opp, st.n_pond[opp] - 1] |= DECLARED
    front = TP_IN_PLAY - pos.wall_left
    rest = unseen[n_opp:]
    k = min(pos.wall_left, rest.size)
    wall[front : front + k] = rest[:k]
    obs.memo[:, 0] = UNKNOWN
    obs.memo[:, 1:] = 0
    phase = PHASE_DISCARDED if hand.size == 14 else PHASE_DRAW
    pause_loaded(deal, seat, phase, pos.wall_left, front, TP_IN_PLAY - 1, front - 1)
    deal.ctl[C_SEAT] = seat
    return deal, pos.enc


def _waits(hand: Hand) -> bool:
    """Do these 13 tiles wait (听牌) under the two-player rules?"""
    from daqing_sim.families.two_player.hand import tp_wait_set_k
    from daqing_sim.hand.tables import get_tables

    mk, mt, nm = hand.meld_arrays()
    out = np.full(N_KINDS_ALL, -1, dtype=np.int8)
    counts = np.ascontiguousarray(hand.counts, dtype=np.uint8)
    return bool(tp_wait_set_k(counts, mk, mt, nm, get_tables(), out) > 0)


__all__ = ["paused_deal_tp"]
