"""Duplicate tournaments for the expert work (not part of the package).

One focal player against a field of three (two-player: one), on the same walls and deal seeds
in all the cyclic seat rotations: per wall, the focal player's payments averaged over its seats;
the mean over walls with a t-interval (walls are the independent units). With ``--baseline`` the same is
done for a second focal player on the same walls and the paired difference is reported.

    python tools/duplicate.py --focal expert --field greedy greedy greedy --n 20000 --seed 1
    python tools/duplicate.py --focal expert --knobs '{"win_value": 20}' --baseline expert \
        --field greedy greedy greedy --n 20000 --seed 2
    python tools/duplicate.py --rules two_player --focal expert --knobs '{"fold_shanten": 3}' \
        --field greedy --n 100000 --seed 3
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from scipy import stats

import daqing_sim as ds
from daqing_sim.rules import RuleSet

RULES = {
    "classic": RuleSet(),
    "no_bao_replacement": RuleSet(bao_replacement=False),
    "beijing": RuleSet(family="beijing"),
    "two_player": RuleSet(family="two_player"),
}


def rotations(focal, field):
    """The cyclic rotations of ``[focal, *field]`` and the focal seat in each."""
    seats = [focal, *field]
    return [(seats[-k:] + seats[:-k] if k else seats, k) for k in range(len(seats))]


def focal_means(focal, field, n, seed, rules, outcomes=None):
    """Per-wall mean payment of ``focal`` over the rotations; ``outcomes`` (a list) gets each
    rotation's outcome shares."""
    total = np.zeros(n)
    n_rot = len(field) + 1
    for rot, k in rotations(focal, field):
        df = ds.simulate(n, rules=rules, strategies=rot, seed=seed, n_jobs=1)
        total += df[f"pay_{k}"].to_numpy(np.float64)
        if outcomes is not None:
            outcomes.append(df["outcome"].value_counts(normalize=True))
    return total / n_rot


def interval(x, level=0.95):
    """Mean, half-width and bounds of the t-interval of ``x``."""
    m = float(np.mean(x))
    se = float(np.std(x, ddof=1) / np.sqrt(len(x)))
    h = float(stats.t.ppf(0.5 + level / 2, len(x) - 1) * se)
    return m, h, m - h, m + h


def spec(name, knobs):
    return (name, knobs) if knobs else name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--focal", default="expert")
    ap.add_argument("--knobs", default="{}", help="JSON knobs of the focal player")
    ap.add_argument("--baseline", default=None, help="second focal player, compared on the same walls")
    ap.add_argument("--baseline-knobs", default="{}")
    ap.add_argument("--field", nargs="+", default=["greedy"] * 3, help="three seats (two-player: one)")
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", choices=sorted(RULES), default="classic")
    a = ap.parse_args(argv)
    rules = RULES[a.rules]
    focal = spec(a.focal, json.loads(a.knobs))
    t0 = time.perf_counter()
    x = focal_means(focal, a.field, a.n, a.seed, rules)
    secs = time.perf_counter() - t0
    m, h, lo, hi = interval(x)
    res = {
        "focal": str(focal),
        "field": a.field,
        "rules": a.rules,
        "walls": a.n,
        "seed": a.seed,
        "mean": round(m, 4),
        "half_width": round(h, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "deals_per_s": round((len(a.field) + 1) * a.n / secs),
    }
    if a.baseline:
        base = spec(a.baseline, json.loads(a.baseline_knobs))
        y = focal_means(base, a.field, a.n, a.seed, rules)
        m2, h2, lo2, hi2 = interval(y)
        md, hd, lod, hid = interval(x - y)
        res["baseline"] = str(base)
        res["baseline_mean"] = round(m2, 4)
        res["paired_diff"] = round(md, 4)
        res["paired_ci95"] = [round(lod, 4), round(hid, 4)]
    print(json.dumps(res, ensure_ascii=False))


if __name__ == "__main__":
    main()
