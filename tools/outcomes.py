"""Outcome shares and single-core speed of four-player fields (not part of the package).

python tools/outcomes.py --n 50000 --seed 20261201
"""

from __future__ import annotations

import argparse
import json
import time

import daqing_sim as ds


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--players", nargs="+", default=["expert", "greedy"])
    a = ap.parse_args(argv)
    for name in a.players:
        ds.simulate(1000, strategies=(name,) * 4, seed=a.seed + 1)  # compile outside the timing
        t0 = time.perf_counter()
        df = ds.simulate(a.n, strategies=(name,) * 4, seed=a.seed, n_jobs=1)
        secs = time.perf_counter() - t0
        shares = df["outcome"].value_counts(normalize=True).round(4).to_dict()
        print(json.dumps({"field": f"4 {name}", "deals": a.n, "deals_per_s": round(a.n / secs), **shares}))


if __name__ == "__main__":
    main()
