"""The simulated advisor under Beijing rules (two-player positions are loaded by
:mod:`daqing_sim.advisor.family_simulate_tp`, then valued here the same way): the position loaded
into a stepped deal paused at the seat's decision, and every candidate played to the deal's end
by the search evaluator (:class:`daqing_sim.search.evaluator.Evaluator`) in ``n_sims`` worlds it
deals from the tiles the seat cannot see (the others' concealed tiles and the wall, uniform:
nobody declares under Beijing), the same worlds for every candidate (common random numbers).

The loaded deal: the seat's hand and melds, the others' melds and ponds as given, ``wall_left``
tiles to draw before the wall's end, then every other unseen tile left undrawn (the rules' 14,
2 per kong after the first, and the tiles ``seen`` does not account for), the others' concealed
tiles and the wall filled from the unseen tiles (the evaluator deals them again in each world).
Not known from the position, so not played: 烧庄 (over), 互包 bindings (none so far), the order
of earlier claims.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from daqing_sim.advisor.family_api import NO_DISCARD, Position, _danger_cols, _shape_cols
from daqing_sim.codes import CHI, CONCEALED_KONG, N_KINDS_ALL, PENG
from daqing_sim.hand.notation import Hand
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import R_DEAD_WALL_TILES


def _tiles_of(code: int, low: int) -> list[int]:
    if code == CHI:
        return [low, low + 1, low + 2]
    return [low] * (3 if code == PENG else 4)


def paused_deal(pos: Position, hand: Hand, field_codes: np.ndarray, field_knobs: np.ndarray):
    """A Beijing :class:`~daqing_sim.game.external.SteppedDeal` paused at the seat's discard
    (14 tiles) or before its draw (13), holding the position (see the module doc), and the rule
    encoding its rollouts must use: the unseen tiles beyond the others' hands and the live wall
    are left undrawn at the wall's end, after the rules' own undrawn tiles (``dead_wall_tiles``
    raised by their number), so that every unseen tile is dealt again in each world."""
    from daqing_sim.advisor.world import pause_loaded
    from daqing_sim.families.beijing.deal import reset
    from daqing_sim.game.deal34 import UNKNOWN_SHANTEN
    from daqing_sim.game.engine import C_SEAT, PHASE_DISCARDED, PHASE_DRAW
    from daqing_sim.game.external import SteppedDeal
    from daqing_sim.layout import B_BURN_LIVE, B_KONGS, B_SHANTEN
    from daqing_sim.players.observation import UNKNOWN

    view, seat = pos.view, pos.seat
    melds = [list(ms) for ms in view.melds]
    melds[seat] = list(hand.melds)
    kongs = sum(m.kind in ("kong", "concealed_kong", "added_kong") for ms in melds for m in ms)
    limit = int(pos.enc[R_DEAD_WALL_TILES]) + 2 * max(0, kongs - 1)
    others = [(s, 13 - 3 * len(melds[s])) for s in range(4) if s != seat]
    in_hands = sum(n for _, n in others)
    unseen = np.repeat(np.arange(N_KINDS_ALL), pos.pool)
    if unseen.size < in_hands + pos.wall_left + limit:
        raise ValueError(
            f"wall_left={pos.wall_left} is impossible with the others' hands: {unseen.size} unseen tiles, "
            f"{in_hands} in the others' concealed hands and {limit} left undrawn: "
            f"at most {unseen.size - in_hands - limit}"
        )
    enc = pos.enc.copy()
    enc[R_DEAD_WALL_TILES] += unseen.size - in_hands - pos.wall_left - limit
    limit = unseen.size - in_hands - pos.wall_left
    deal = SteppedDeal(enc, field_codes, field_knobs, pos.dealer)
    st, obs = deal.st, deal.obs
    reset(st)
    st.conc[:] = 0
    st.mk[:] = 0
    st.mt[:] = 0
    st.meld_from[:] = -1
    visible = view.seen.astype(np.int64).copy()
    for s in range(4):
        st.nm[s] = len(melds[s])
        for j, m in enumerate(melds[s]):
            st.mk[s, j], st.mt[s, j] = m.code, m.tile
            st.meld_from[s, j] = -1 if m.code == CONCEALED_KONG else (s + 3) % 4  # from whom: not known
            if s == seat and m.exposed:
                for t in _tiles_of(m.code, m.tile):
                    visible[t] += 1
        st.concealed[s] = 0 if any(m.exposed for m in melds[s]) else 1
    st.conc[seat] = hand.counts
    i = 0
    for s, n in others:
        np.add.at(st.conc[s], unseen[i : i + n], 1)
        i += n
    wall = deal.wall
    front = wall.shape[0] - pos.wall_left - limit
    wall[:] = 0
    wall[front:] = unseen[i:]
    st.visible[:] = np.minimum(visible, 4)
    st.pool[:] = np.minimum(view.pond_counts(), 4)
    st.dead[:] = 0
    st.ready[:] = 0
    st.ready_draw[:] = -1
    st.wk[:] = -1
    st.wb[:] = 0
    st.safe[:] = 0
    st.own_draws[:] = 0
    st.pond[:] = 0
    st.pond_flag[:] = 0
    st.pond_claimer[:] = -1
    st.n_pond[:] = 0
    for s, pond in enumerate(view.ponds):
        n = min(len(pond), st.pond.shape[1])
        st.pond[s, :n] = pond[:n]
        st.n_pond[s] = n
    st.kong_opts[:] = 0
    st.pay[:] = 0
    st.fans[:] = 0
    st.result[:] = 0
    st.bj[B_KONGS] = kongs
    st.bj[B_BURN_LIVE] = 0  # 烧庄 is over (or its rounds are not known)
    for s in range(4):
        st.bj[B_SHANTEN + s] = UNKNOWN_SHANTEN
    obs.memo[:, 0] = UNKNOWN
    obs.memo[:, 1:] = 0
    phase = PHASE_DISCARDED if hand.size == 14 else PHASE_DRAW
    pause_loaded(deal, seat, phase, pos.wall_left, front, wall.shape[0] - 1, max(0, 69 - pos.wall_left))
    deal.ctl[C_SEAT] = seat
    return deal, enc


def _prop(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    ci = stats.binomtest(int(x.sum()), x.size).proportion_ci(confidence_level=confidence)
    return float(x.mean()), float(ci.low), float(ci.high)


def simulated_rows(fam, pos: Position, hand: Hand, claim: int | None, sim) -> list[dict]:
    """Rows of the simulated model (Beijing, two-player: a discard leaving a concealed hand ready
    also declared, action ``declare``): per candidate ``p_win`` (the seat's payment
    is positive: it won; Clopper-Pearson), ``ev`` (its mean payment, t interval over worlds) and
    ``ev_vs_best`` (the paired difference to the best candidate); ``p_ready_i`` is not measured
    (the evaluator returns payments only): NaN."""
    from daqing_sim.search.evaluator import Evaluator

    if claim is not None:
        raise ValueError("claim with method='simulate' is not available yet: use method='exact' for claims")
    from daqing_sim.players.registry import encode_strategies

    family = pos.rules.family
    _, codes, knobs = encode_strategies(list(sim.names), None, family)  # the deal's own seats (unused)
    if family == "two_player":
        from daqing_sim.advisor.family_simulate_tp import paused_deal_tp

        deal, enc = paused_deal_tp(pos, hand, codes, knobs)
    else:
        deal, enc = paused_deal(pos, hand, codes, knobs)
    evaluator = Evaluator(enc, sim.names, family=family)
    mk, mt, nm = hand.meld_arrays()
    if hand.size == 14:
        kinds = [int(d) for d in np.flatnonzero(hand.counts)]
        cands = [(d, False) for d in kinds]
        dangers = fam.dangers(pos, hand.counts, mk, mt, nm)
        base = []
        draws, _ = pos.own_draws(pos.n_seats - 1)
        declares = family == "two_player" and all(not m.exposed for m in hand.melds)
        for d in kinds:
            c = hand.counts.astype(np.int64)
            c[d] -= 1
            base.append(
                {
                    "action": "discard",
                    "discard": tile_name(d),
                    **_shape_cols(pos, c, mk, mt, nm, draws),
                    "_danger": _danger_cols(dangers, d),
                }
            )
            if declares and base[-1]["shanten"] == 0:  # 报听: the same discard, declared
                cands.append((d, True))
                base.append({**base[-1], "action": "declare", "_danger": dict(base[-1]["_danger"])})
        cands.sort(key=lambda x: (x[0], x[1]))
    else:
        cands = [(-1, False)]
        draws, _ = pos.own_draws(0)
        base = [{"action": "draw", "discard": NO_DISCARD, **_shape_cols(pos, hand.counts, mk, mt, nm, draws),
                 "_danger": _danger_cols({}, None)}]  # fmt: skip
    res = evaluator.evaluate(deal, cands, sim.n_sims, sim.seed, sim.confidence)
    best = int(np.argmax(res.mean))
    diff = res.pays - res.pays[:, [best]]
    from daqing_sim.search.evaluator import t_interval

    dm, dlo, dhi = t_interval(diff, sim.confidence)
    rows = []
    for c, b in enumerate(base):
        danger = b.pop("_danger")
        row = {**b, **{f"p_ready_{i + 1}": float("nan") for i in range(pos.k)}}
        p, lo, hi = _prop(res.pays[:, c] > 0, sim.confidence)
        row.update(p_win=p, p_win_lo=lo, p_win_hi=hi)
        row.update(ev=float(res.mean[c]), ev_lo=float(res.lo[c]), ev_hi=float(res.hi[c]))
        row.update(ev_vs_best=float(dm[c]), ev_vs_best_lo=float(dlo[c]), ev_vs_best_hi=float(dhi[c]))
        rows.append({**row, **danger})
    rows.sort(key=lambda r: (-r["ev"], -r["p_win"]))
    return rows


__all__ = ["paused_deal", "simulated_rows"]
