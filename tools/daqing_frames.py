"""Daqing results frames of three rule/player mixes, to check that a change leaves Daqing deals
unchanged (not part of the package).

    PYTHONPATH=<checkout A> python tools/daqing_frames.py save DIR_A
    PYTHONPATH=<checkout B> python tools/daqing_frames.py save DIR_B
    python tools/daqing_frames.py compare DIR_A DIR_B      # one line per mix: identical or not
"""

from __future__ import annotations

import sys

MIXES = {
    "greedy4": ({}, ("greedy",) * 4),
    "mixed": ({"bao_replacement": False, "kong_fan": True}, ("greedy", "jia_hunter", "defensive", "random")),
    "expert_chi": ({"chi_any_seat_for_ready": True}, ("expert",) * 4),
}


def save(out: str, n: int = 20_000, seed: int = 9) -> None:
    import daqing_sim as ds

    for name, (flags, strategies) in MIXES.items():
        df = ds.simulate(n, seed=seed, rules=ds.RuleSet(**flags), strategies=strategies, n_jobs=1)
        df.to_parquet(f"{out}/{name}.parquet")
        print(name, len(df), flush=True)


def compare(a: str, b: str) -> bool:
    import pandas as pd

    same = True
    for name in MIXES:
        eq = pd.read_parquet(f"{a}/{name}.parquet").equals(pd.read_parquet(f"{b}/{name}.parquet"))
        print(name, "identical" if eq else "DIFFERENT")
        same &= eq
    return same


if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(sys.argv[2])
    else:
        sys.exit(0 if compare(sys.argv[2], sys.argv[3]) else 1)
