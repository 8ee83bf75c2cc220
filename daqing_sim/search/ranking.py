"""The search player's candidates, ranked by the family's expert, and whether its best two are
close (the ``when="close"`` knob of :mod:`daqing_sim.search.player`).

Every family's expert plays greedy's discard (the lowest shanten after it, then the most unseen
tiles that lower it) unless it reads danger; so the discards are ranked by that measure after
the expert's own choice, except where the expert scores every discard itself:

* Beijing, when another seat is likely ready: the expert's expected value per discard
  (:func:`daqing_sim.families.beijing.expert.discard_table`, column ``V_EV``; a discard its branch
  and bound left uncomputed is ranked by the bound, which is below the best EV).
* Daqing facing a ready opponent, and a two-player expert folding against a declared hand,
  choose by danger with no table to give: the rest keep greedy's order, and the decision counts
  as close (it is searched under ``when="close"``).

A decision is *close* when the runner-up's score is within ``close`` of the best's: greedy's
measure, the same shanten and at least ``(1 - close)`` of the best's outs; the Beijing EV, at
most ``close * |EV_best|`` below it. Declaring 报听 or not with the expert's tile (two-player) is
always close: nothing scores the declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from daqing_sim.players.interface import Discard

#: how the two best candidates were compared
GREEDY, EXPERT_EV, UNSCORED = "greedy", "expert_ev", "unscored"


@dataclass(frozen=True)
class Ranking:
    """The legal discards in the search's order, the expert's first.

    Attributes
    ----------
    discards : list of Discard
        The expert's discard, then the others, best first.
    scores : list of float
        Each discard's score under ``basis`` (higher better).
    shanten, outs : list of int
        Greedy's measure of each discard (the shanten after it, the unseen tiles that lower it).
    basis : str
        ``"greedy"`` (shanten and outs), ``"expert_ev"`` (the Beijing expert's EV) or
        ``"unscored"`` (the expert chose by danger with no score to compare).

    Examples
    --------
    >>> r = Ranking([Discard(3, False), Discard(5, False)], [-980.0, -984.0], [1, 1], [20, 16], "greedy")
    >>> r.close(0.25), r.close(0.1)
    (True, False)
    """

    discards: list[Discard]
    scores: list[float]
    shanten: list[int]
    outs: list[int]
    basis: str

    def close(self, threshold: float) -> bool:
        """Are the best two within ``threshold`` (see the module docstring)?"""
        if len(self.discards) < 2:
            return False
        a, b = self.discards[0], self.discards[1]
        if self.basis == UNSCORED or (a.tile == b.tile and a.declare != b.declare):
            return True
        if self.basis == EXPERT_EV:
            return self.scores[0] - self.scores[1] <= threshold * abs(self.scores[0])
        return self.shanten[0] == self.shanten[1] and self.outs[1] >= (1.0 - threshold) * self.outs[0]


def greedy_score(shanten: int, outs: int) -> float:
    """Greedy's measure as one number: lower shanten first, then more outs (outs < 1000)."""
    return -1000.0 * shanten + outs


def rank(
    deal: Any, legal: tuple[Discard, ...], best: Discard, shanten: dict[int, int], outs: dict[int, int]
) -> Ranking:
    """The legal discards of the paused ``deal`` ranked by its family's expert (``best``: the
    expert's own discard; ``shanten`` and ``outs`` per tile: greedy's measure)."""
    score = {t: greedy_score(shanten[t], outs[t]) for t in shanten}
    basis = GREEDY
    if deal.family == "beijing":
        ev = _beijing_ev(deal)
        if ev is not None:
            score, basis = ev, EXPERT_EV
    rest = sorted(
        (d for d in legal if d != best),
        key=lambda d: (-score[d.tile], d.declare != best.declare, d.tile),
    )
    if deal.family == "two_player":  # 报听 or not with the expert's tile comes second
        flip = Discard(best.tile, not best.declare)
        if flip in rest:
            rest.remove(flip)
            rest.insert(0, flip)
    if basis == GREEDY and _expert_reads_danger(deal, best, rest, score):
        basis = UNSCORED
    ordered = [best, *rest]
    return Ranking(
        ordered,
        [score[d.tile] for d in ordered],
        [shanten[d.tile] for d in ordered],
        [outs[d.tile] for d in ordered],
        basis,
    )


def _expert_reads_danger(deal: Any, best: Discard, rest: list[Discard], score: dict[int, float]) -> bool:
    """Did the expert choose by danger rather than by greedy's measure (no score to compare)?"""
    from daqing_sim.game.engine import C_SEAT

    me = int(deal.ctl[C_SEAT])
    others_ready = any(deal.st.ready[s] for s in range(4) if s != me)
    if deal.family == "daqing" and others_ready:
        return True  # the Daqing expert scores discards by EV against a ready seat
    return any(score[d.tile] > score[best.tile] for d in rest)


def _beijing_ev(deal: Any) -> dict[int, float] | None:
    """The Beijing expert's score per tile held when it reads danger (its EV; the bound where its
    branch and bound stopped), else ``None`` (it plays greedy's discard)."""
    from daqing_sim.codes import N_KINDS_ALL
    from daqing_sim.families.beijing import expert as bx
    from daqing_sim.families.beijing.danger import open_hand
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.players.observation import I_SEAT

    kn = expert_knobs("beijing")
    obs = deal.obs
    if kn[bx.K_DANGER_SCALE] == 0.0 or not bx.risk_possible(kn, obs):
        return None
    safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
    pt = np.empty(4)
    if not bx.read_risk(kn, obs, safe, pmask, pt):
        return None
    out = np.empty((N_KINDS_ALL, bx.N_V))
    bx.ev_discard(kn, obs, deal.rules, get_tables(), safe, pmask, pt, out)
    v_me = 0.5 * bx.FANS_OPEN if open_hand(obs, int(obs.info[I_SEAT])) else bx.FANS_CONCEALED
    w, c = kn[bx.K_WIN_VALUE] * v_me, kn[bx.K_DEAL_IN_COST]
    scores = {}
    for t in np.flatnonzero(obs.hand):
        row = out[t]
        ev = row[bx.V_EV]
        if ev <= -1e299:  # not computed: its bound (P(win) with every unseen tile an out)
            ev = (1.0 - row[bx.V_P_DEAL_IN]) * row[bx.V_P_WIN] * w - c * row[bx.V_COST]
        scores[int(t)] = float(ev)
    return scores


_EXPERT_KNOBS: dict[str, np.ndarray] = {}


def expert_knobs(family: str) -> np.ndarray:
    """The knob vector of the family's ``expert`` at its defaults (kept per family)."""
    if family not in _EXPERT_KNOBS:
        from daqing_sim.codes import FAMILY_SEATS
        from daqing_sim.players.registry import encode_strategies

        _, _, kn = encode_strategies(("expert",) * FAMILY_SEATS.get(family, 4), None, family)
        _EXPERT_KNOBS[family] = np.ascontiguousarray(kn[0])
    return _EXPERT_KNOBS[family]


__all__ = ["Ranking", "rank", "expert_knobs", "greedy_score", "GREEDY", "EXPERT_EV", "UNSCORED"]
