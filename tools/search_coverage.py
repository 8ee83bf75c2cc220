"""Coverage of the search evaluator's intervals (issue 36): on random positions, the t interval of
a small run (``--worlds``) against the mean of an independent run ten times larger.

For each of ``--positions`` positions (a discard of seat 0 in deals of the expert field, at a
random turn) the evaluator plays the top three candidates of the search player's ranking; the
small run's 95 % intervals of each candidate's mean and of the paired differences to the first
are checked against the large run's means (independent worlds). The large run's own noise makes
the reported coverage a little lower than the nominal 95 %.

    python tools/search_coverage.py --family daqing --positions 50 --worlds 24 --seed 36100
    python tools/search_coverage.py --family two_player --positions 50 --worlds 24 --seed 36100
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import daqing_sim as ds
from daqing_sim.codes import DECISION_DISCARD, EXTERNAL, FAMILY_SEATS
from daqing_sim.game.external import SteppedDeal, seat_rngs
from daqing_sim.game.wall import generate_walls
from daqing_sim.players.registry import encode_strategies
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer, rank_discards


def positions(family: str, n: int, seed: int):
    """``n`` deals paused at a discard of seat 0, each at a turn drawn from ``seed``."""
    rules = ds.RuleSet(family=family).encode()
    n_seats = FAMILY_SEATS[family]
    _, codes, knobs = encode_strategies(("expert",) * n_seats, None, family)
    codes = codes.copy()
    codes[0] = EXTERNAL
    walls, _, seeds = generate_walls(10 * n, seed, 0, family=family)
    rng = np.random.default_rng(seed)
    expert_like = SearchPlayer(candidates=1)
    players = [expert_like, *[None] * (n_seats - 1)]
    found = 0
    for i in range(walls.shape[0]):
        deal = SteppedDeal(rules, codes, knobs, 0)
        deal.start(walls[i], seeds[i])
        stop = int(rng.integers(1, 14))
        k = 0
        while deal.paused:
            if deal.decision == "discard":
                k += 1
                if k == stop and len(deal.observation().legal_discards) >= 3:
                    yield deal
                    found += 1
                    break
            deal.play_out_one(players, seat_rngs(int(seeds[i]), players), i)
        if found == n:
            return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", default="daqing")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--worlds", type=int, default=24)
    ap.add_argument("--seed", type=int, default=36100)
    a = ap.parse_args()
    ev = Evaluator(ds.RuleSet(family=a.family).encode(), "expert", a.family)
    hit_mean = hit_diff = n_mean = n_diff = 0
    t0 = time.time()
    for j, deal in enumerate(positions(a.family, a.positions, a.seed)):
        legal = deal.observation().legal_discards
        expert = SearchPlayer(candidates=1).decide_paused(deal, DECISION_DISCARD, None)
        cands = rank_discards(deal, legal, expert)[:3]
        small = ev.evaluate(deal, cands, a.worlds, np.random.SeedSequence([a.seed, j, 0]))
        big = ev.evaluate(deal, cands, 10 * a.worlds, np.random.SeedSequence([a.seed, j, 1]))
        hit_mean += int(((small.lo <= big.mean) & (big.mean <= small.hi)).sum())
        n_mean += len(cands)
        hit_diff += int(((small.diff_lo[1:] <= big.diff[1:]) & (big.diff[1:] <= small.diff_hi[1:])).sum())
        n_diff += len(cands) - 1
    print(
        f"{a.family}: {j + 1} positions, {a.worlds} vs {10 * a.worlds} worlds: means covered "
        f"{hit_mean}/{n_mean} = {hit_mean / n_mean:.1%}, paired differences covered "
        f"{hit_diff}/{n_diff} = {hit_diff / n_diff:.1%} (nominal 95%), {time.time() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
