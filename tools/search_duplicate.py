"""``search`` against the expert in duplicate play (issue 36): blocks of walls over consecutive
seeds (each block a ``tournament_frames`` call: every wall in all rotations), printing the
running mean of search minus the others per seat-deal with its t interval over walls.

    python tools/search_duplicate.py daqing 50 80 36201
    python tools/search_duplicate.py beijing 25 200 36701 "{'worlds': 64}"
    python tools/search_duplicate.py two_player 100 40 39011 --save walls.csv

``--save FILE`` appends each block's per-wall differences (``seed, deal, diff``) to FILE, so runs
on further seeds can be pooled afterwards.
"""

from __future__ import annotations

import ast
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import daqing_sim as ds
from daqing_sim.experiments.tournament import tournament_frames


def main() -> None:
    args = sys.argv[1:]
    save = None
    if "--save" in args:
        i = args.index("--save")
        save = args[i + 1]
        del args[i : i + 2]
    family, block, n_blocks, seed0 = args[0], int(args[1]), int(args[2]), int(args[3])
    knobs = ast.literal_eval(args[4]) if len(args) > 4 else {}
    rules = ds.RuleSet(family=family)
    n = 2 if family == "two_player" else 4
    entrants = [("search", knobs) if knobs else "search"] + ["expert"] * (n - 1)
    diffs: list[float] = []
    t0 = time.time()
    for b in range(n_blocks):
        f = tournament_frames(entrants, block, seed0 + b, rules)
        rot = f["variant"].cat.codes.to_numpy()
        pays = f[[f"pay_{s}" for s in range(n)]].to_numpy().astype(float)
        mine = pays[np.arange(len(f)), rot]  # entrant 0 sits at seat r in rotation r
        others = (pays.sum(axis=1) - mine) / (n - 1)
        per_wall = (
            pd.DataFrame({"deal": f["deal"].to_numpy(), "d": mine - others}).groupby("deal")["d"].mean()
        )
        diffs.extend(per_wall.tolist())
        if save:
            rows = pd.DataFrame({"seed": seed0 + b, "deal": per_wall.index, "diff": per_wall.to_numpy()})
            rows.to_csv(save, mode="a", header=not Path(save).exists(), index=False)
        x = np.array(diffs)
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=m, scale=se)
        print(
            f"{family} walls={len(x)} search-minus-expert per seat-deal: {m:.3f} [{lo:.3f}, {hi:.3f}] "
            f"elapsed {time.time() - t0:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
