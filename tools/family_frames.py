"""Results frames of Beijing and two-player rule/player mixes (and two-player matches), to check
that a change leaves their deals unchanged (not part of the package); tools/daqing_frames.py does
the same for Daqing.

    PYTHONPATH=<checkout A> python tools/family_frames.py save DIR_A
    PYTHONPATH=<checkout B> python tools/family_frames.py save DIR_B
    python tools/family_frames.py compare DIR_A DIR_B      # one line per mix: identical or not
"""

from __future__ import annotations

import sys

#: name -> (family, flags, seats, deals); record_hands is on so the winners' hands are compared too
MIXES = {
    "bj_greedy4": ("beijing", {}, ("greedy",) * 4, 10_000),
    "bj_mixed": (
        "beijing",
        {"burn_dealer": False, "mutual_bao": False, "fan_combine": "double", "rob_added_kong": False},
        ("greedy", "expert", "random", "expert"),
        10_000,
    ),
    "bj_expert": ("beijing", {"dead_wall_tiles": 20, "fans_seven_pairs": 6}, ("expert",) * 4, 5_000),
    "tp_greedy": ("two_player", {}, ("greedy", "greedy"), 10_000),
    "tp_mixed": (
        "two_player",
        {"flower_tiles": 2, "open_pinfu": False, "extra_draws": 1, "limit_fans": 8},
        ("expert", "random"),
        10_000,
    ),
    "tp_expert": ("two_player", {"multiplier": 5}, ("expert", "greedy"), 10_000),
}


def save(out: str, seed: int = 9) -> None:
    import daqing_sim as ds

    for name, (family, flags, strategies, n) in MIXES.items():
        rules = ds.RuleSet(family=family, **flags)
        df = ds.simulate(n, seed=seed, rules=rules, strategies=strategies, n_jobs=1, record_hands=True)
        df.to_parquet(f"{out}/{name}.parquet")
        print(name, len(df), flush=True)
    m = ds.simulate_match(1000, games=8, strategies=("expert", "greedy"), seed=seed)
    m.to_parquet(f"{out}/tp_match.parquet")
    print("tp_match", len(m), flush=True)


def compare(a: str, b: str) -> bool:
    import pandas as pd

    same = True
    for name in (*MIXES, "tp_match"):
        eq = pd.read_parquet(f"{a}/{name}.parquet").equals(pd.read_parquet(f"{b}/{name}.parquet"))
        print(name, "identical" if eq else "DIFFERENT")
        same &= eq
    return same


if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(sys.argv[2])
    else:
        sys.exit(0 if compare(sys.argv[2], sys.argv[3]) else 1)
