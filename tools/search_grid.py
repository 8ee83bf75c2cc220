"""Strength against cost of ``search`` (issue 36): for each (candidates, worlds) of a small grid, a
duplicate tournament of ``search`` against the family's expert on the same walls (every wall in
all rotations) and the CPU time of its decisions. One line per grid point, written as it ends:

    python tools/search_grid.py daqing 150 37901 "2x16,2x64,3x16,3x64"

Each line: search minus expert per seat-deal with its 95 % t interval over walls, the searched
decisions per CPU second (every decision of the search seat, searched or not) and the share of
its discards that left the expert's.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

import daqing_sim as ds
from daqing_sim.experiments.tournament import tournament_frames
from daqing_sim.search.player import SearchPlayer


class Timed(SearchPlayer):
    """The search player, counting the CPU time of all its decisions."""

    def __init__(self, **knobs: Any) -> None:
        super().__init__(**knobs)
        self.cpu = 0.0
        self.n = 0

    def decide_paused(self, deal: Any, kind: int, rng: Any) -> Any:
        t = time.process_time()
        answer = super().decide_paused(deal, kind, rng)
        self.cpu += time.process_time() - t
        self.n += 1
        return answer


def search_minus_expert(f: pd.DataFrame, n: int) -> np.ndarray:
    """Per wall: entrant 0's payment less the others' mean, averaged over the rotations."""
    rot = f["variant"].cat.codes.to_numpy()
    pays = f[[f"pay_{s}" for s in range(n)]].to_numpy().astype(float)
    mine = pays[np.arange(len(f)), rot]  # entrant 0 sits at seat r in rotation r
    others = (pays.sum(axis=1) - mine) / (n - 1)
    d = pd.DataFrame({"deal": f["deal"].to_numpy(), "d": mine - others}).groupby("deal")["d"].mean()
    return d.to_numpy()


def main() -> None:
    family, n_walls, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    grid = [tuple(int(x) for x in p.split("x")) for p in sys.argv[4].split(",")]
    rules = ds.RuleSet(family=family)
    n = 2 if family == "two_player" else 4
    for cands, worlds in grid:
        player = Timed(candidates=cands, worlds=worlds)
        t0 = time.time()
        f = tournament_frames([player, *["expert"] * (n - 1)], n_walls, seed, rules)
        x = search_minus_expert(f, n)
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=m, scale=se)
        print(
            f"{family} candidates={cands} worlds={worlds} walls={len(x)} seed={seed}: "
            f"search-minus-expert {m:+.3f} [{lo:+.3f}, {hi:+.3f}]; {player.n} decisions "
            f"{player.n / player.cpu:.1f}/CPU s; {player.switches} of {player.decisions} searched "
            f"left the expert's; {time.time() - t0:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
