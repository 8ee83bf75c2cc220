"""Deals (two-player: games) per CPU second of one field in one process (best of three runs after a
warm-up), for comparing two checkouts in alternated processes (not part of the package):

    for r in 1 2 3; do
      PYTHONPATH=A python tools/deal_speed.py greedy 8000
      PYTHONPATH=B python tools/deal_speed.py greedy 8000
    done

CPU time, not wall time: on a shared machine the other processes change wall time far more.
"""

from __future__ import annotations

import sys
import time

import daqing_sim as ds

player, n = sys.argv[1], int(sys.argv[2])
family = sys.argv[3] if len(sys.argv) > 3 else "daqing"
rules = ds.RuleSet(family=family)
seats = (player,) * (2 if family == "two_player" else 4)
ds.simulate(200, seed=1, rules=rules, strategies=seats)
best = float("inf")
for _ in range(3):
    t0 = time.process_time()
    ds.simulate(n, seed=0, rules=rules, strategies=seats)
    best = min(best, time.process_time() - t0)
print(f"{n / best:.0f}")
