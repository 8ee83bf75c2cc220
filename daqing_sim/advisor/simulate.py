"""The simulated advisor: the rest of the deal played out many times on the jitted engine.

Each of ``n_sims`` worlds (:mod:`daqing_sim.advisor.world`, drawn from the seed and the world's
index only, so the answer does not depend on ``n_jobs``) is loaded into a stepped deal paused at
the seat's decision, answered with every candidate in turn, and played to its end by the field.
Every candidate meets the same worlds (common random numbers), so the difference between two
candidates has a much smaller interval than either value (``ev_vs_best``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

from daqing_sim.advisor.world import WorldSpec, load_world, sample_world
from daqing_sim.game.engine import O_PAY, O_READY_TURN, O_WINNER
from daqing_sim.game.external import SteppedDeal, seat_rngs
from daqing_sim.hand.tables import get_tables

# one candidate: (engine phase, answer, declare)
Candidate = tuple[int, int, bool]


class EngineStateError(RuntimeError):
    """A loaded world broke tile conservation: a bug of the advisor, never of the input."""


def run_worlds(
    spec: WorldSpec,
    cands: Sequence[Candidate],
    start: int,
    stop: int,
    seed: int,
    codes: np.ndarray,
    knobs: np.ndarray,
    players: Sequence[Any],
) -> np.ndarray:
    """``(stop - start, len(cands), 3)`` int64: per world and candidate the seat's ready turn
    (own draws after the decision at its declaration, -1 if never), whether it won, its pay."""
    deal = SteppedDeal(spec.rules, codes, knobs, spec.dealer)
    tabs = get_tables()
    out = np.empty((stop - start, len(cands), 3), dtype=np.int64)
    s = spec.seat
    for i in range(start, stop):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        world = sample_world(rng, spec, tabs)
        for c, (phase, answer, declare) in enumerate(cands):
            load_world(deal, world, spec, phase)
            deal.resume(answer, declare)
            if deal.paused:
                deal.play_out(players, seat_rngs(world.deal_seed, players), i)
            if not (deal.frow.sum(axis=0, dtype=np.int64) == 4).all():
                raise EngineStateError(
                    f"world {i}, candidate {c}: the tiles at the end are not 4 of each kind"
                )
            o = deal.orow
            out[i - start, c] = (o[O_READY_TURN + s], o[O_WINNER] == s, o[O_PAY + s])
    return out


def run(
    spec: WorldSpec,
    cands: Sequence[Candidate],
    n_sims: int,
    seed: int,
    n_jobs: int,
    codes: np.ndarray,
    knobs: np.ndarray,
    players: Sequence[Any],
) -> np.ndarray:
    """:func:`run_worlds` over worlds ``0 .. n_sims - 1``, in ``n_jobs`` processes."""
    if n_jobs <= 1 or n_sims < 2:
        return run_worlds(spec, cands, 0, n_sims, seed, codes, knobs, players)
    from joblib import Parallel, delayed

    cuts = np.linspace(0, n_sims, min(n_jobs, n_sims) + 1).astype(int)
    parts = Parallel(n_jobs=n_jobs)(
        delayed(run_worlds)(spec, cands, int(a), int(b), seed, codes, knobs, players)
        for a, b in zip(cuts[:-1], cuts[1:], strict=True)
    )
    return np.concatenate(parts, axis=0)


def _prop(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    n = x.size
    k = int(x.sum())
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence)
    return k / n, float(ci.low), float(ci.high)


def _mean(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if x.size > 1 else 0.0
    if sd == 0.0:
        return m, m, m
    lo, hi = stats.t.interval(confidence, x.size - 1, loc=m, scale=sd / np.sqrt(x.size))
    return m, float(lo), float(hi)


def summarize(res: np.ndarray, k: int, confidence: float) -> list[dict[str, float]]:
    """Per candidate: ``p_ready_1`` .. ``p_ready_k``, ``p_win`` (binomial, Clopper-Pearson) and
    ``ev`` (t interval over worlds), each with ``_lo`` / ``_hi``; ``ev_vs_best`` the paired
    difference to the candidate of highest ``ev`` with its t interval."""
    rows = []
    pays = res[:, :, 2].astype(np.float64)
    best = int(np.argmax(pays.mean(axis=0)))
    for c in range(res.shape[1]):
        turn, won = res[:, c, 0], res[:, c, 1]
        row: dict[str, float] = {}
        for i in range(1, k + 1):
            p, lo, hi = _prop((turn >= 0) & (turn <= i), confidence)
            row.update({f"p_ready_{i}": p, f"p_ready_{i}_lo": lo, f"p_ready_{i}_hi": hi})
        p, lo, hi = _prop(won != 0, confidence)
        row.update(p_win=p, p_win_lo=lo, p_win_hi=hi)
        m, lo, hi = _mean(pays[:, c], confidence)
        row.update(ev=m, ev_lo=lo, ev_hi=hi)
        m, lo, hi = _mean(pays[:, c] - pays[:, best], confidence)
        row.update(ev_vs_best=m, ev_vs_best_lo=lo, ev_vs_best_hi=hi)
        rows.append(row)
    return rows


__all__ = ["run", "run_worlds", "summarize", "EngineStateError"]
