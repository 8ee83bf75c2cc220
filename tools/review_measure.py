"""Issue 37's measurement: reviews of the same deals with an ``expert`` and a ``greedy`` seat
(the other seats the family's field), and the ``search`` player reviewed at its own knobs.

Prints the per-decision loss distribution, each seat's mean loss per deal and greedy's minus
expert's with a t interval over deals, and the share of loss intervals wholly below 0 (none
expected beyond the interval's error rate). Seeds here were never used to tune anything.

    PYTHONPATH=. python tools/review_measure.py --family daqing --deals 20 --worlds 256
    PYTHONPATH=. python tools/review_measure.py --family daqing --deals 20 --search [--review-worlds 512]

Measured (seed 3701, seat 0, the rest the family's expert field, 256 worlds, all options):
Daqing, 120 deals: loss per deal expert +1.40 [+0.93, +1.87], greedy +1.79 [+1.23, +2.35] units,
greedy minus expert +0.39 [+0.05, +0.72]; 91% / 89% of decisions lose exactly 0, no loss
interval wholly below 0. Beijing, 20 deals: greedy minus expert +12.3 [-5.6, +30.2] points (94% of
decisions exactly 0: 128 measuring worlds rarely resolve a Beijing loss). The search player
(its defaults) reviewed at 512 worlds on its two candidates: Daqing +0.08 [+0.02, +0.15] units per
discard (151), Beijing -0.08 [-0.40, +0.23] points per discard (94).

Two-player (same seed and seat, the other seat expert, 256 worlds, all options; 100 deals run as
five ``--first``/``--deals 20`` chunks with ``--per-deal``, combined): loss per deal expert +0.33
[+0.19, +0.47], greedy +0.61 [+0.39, +0.83] points (1 point = 1 fan at multiplier 1), greedy minus
expert +0.28 [+0.09, +0.48] (deals 0-19 alone: +0.35 [-0.05, +0.75]); 85-91% of decisions lose
exactly 0 in each chunk, at most 0.3% of loss intervals wholly below 0. The search player (its
defaults), 60 deals, reviewed on its two candidates: at its own 64 worlds +0.002 [-0.000, +0.004]
points per discard (866), +0.057 [-0.025, +0.140] per deal; at 512 worlds +0.003 [+0.001, +0.004]
per discard, +0.111 [+0.027, +0.194] per deal (all 1,054 decisions, the claims it leaves to the
expert included).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd


def _t(x: np.ndarray) -> str:
    from daqing_sim.search.evaluator import t_interval

    m, lo, hi = t_interval(np.asarray(x, dtype=float)[:, None])
    return f"{m[0]:+.3f} [{lo[0]:+.3f}, {hi[0]:+.3f}] (n={len(x)})"


def _losses(tag: str, frames: list[pd.DataFrame]) -> None:
    d = pd.concat(frames, ignore_index=True)
    q = d["loss"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).round(3).tolist()
    print(
        f"{tag}: {len(d)} decisions; loss quantiles 5/25/50/75/95%: {q}; exactly 0 (best = chosen): "
        f"{(d['loss'] == 0).mean():.0%}; interval wholly above 0: {(d['loss_lo'] > 0).mean():.1%}; "
        f"wholly below 0: {(d['loss_hi'] < 0).mean():.1%}; mean per decision {_t(d['loss'].to_numpy())}"
    )


def main() -> int:
    import daqing_sim as ds
    from daqing_sim.reviews.core import review

    ap = argparse.ArgumentParser()
    ap.add_argument("--family", default="daqing")
    ap.add_argument("--seed", type=int, default=3701)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="the first deal (deals first .. first+deals-1)")
    ap.add_argument("--per-deal", metavar="FILE", default=None, help="write each deal's loss per seat (CSV)")
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--worlds", type=int, default=256)
    ap.add_argument("--search", action="store_true", help="review the search player at its own knobs")
    ap.add_argument("--review-worlds", type=int, default=64, help="--search: the review's worlds")
    a = ap.parse_args()
    rules = ds.RuleSet(family=a.family)
    from daqing_sim.players.registry import default_field

    field = list(default_field(a.family))
    t0 = time.time()
    if a.search:
        seats = field.copy()
        seats[a.seat] = ("search", {})
        frames, per_deal = [], []
        for d in range(a.first, a.first + a.deals):
            nw = a.review_worlds
            r = review(a.seed, d, a.seat, rules=rules, strategies=seats, n_worlds=nw, candidates=2)
            frames.append(r.decisions.assign(deal=d))
            per_deal.append(r.decisions["loss"].sum())
            print(f"deal {d}: {len(r.decisions)} decisions, loss {per_deal[-1]:+.2f} "
                  f"({time.time() - t0:.0f} s)",
                  file=sys.stderr, flush=True)  # fmt: skip
        print(f"search (candidates=2, worlds=64, field=expert), reviewed: candidates=2, {nw} worlds")
        _losses("  all decisions", frames)
        _losses("  discards (searched)", [f[f["kind"] == "discard"] for f in frames])
        print(f"  loss per deal {_t(np.array(per_deal))}")
        print(f"{time.time() - t0:.0f} s")
        return 0
    by: dict[str, list[pd.DataFrame]] = {"expert": [], "greedy": []}
    totals: dict[str, list[float]] = {"expert": [], "greedy": []}
    for d in range(a.first, a.first + a.deals):
        for who in by:
            seats = field.copy()
            seats[a.seat] = who
            r = review(a.seed, d, a.seat, rules=rules, strategies=seats, n_worlds=a.worlds)
            by[who].append(r.decisions.assign(deal=d))
            totals[who].append(float(r.decisions["loss"].sum()))
        print(f"deal {d}: expert {totals['expert'][-1]:+.2f}, greedy {totals['greedy'][-1]:+.2f} "
              f"({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
    if a.per_deal:
        deals = range(a.first, a.first + a.deals)
        pd.DataFrame({"deal": deals, **{w: totals[w] for w in totals}}).to_csv(a.per_deal, index=False)
    last = a.first + a.deals - 1
    print(f"{a.family}, seed {a.seed}, deals {a.first}-{last}, seat {a.seat}, {a.worlds} worlds, all options")
    for who in by:
        _losses(f"  {who}", by[who])
        print(f"  {who} loss per deal {_t(np.array(totals[who]))}")
    diff = np.array(totals["greedy"]) - np.array(totals["expert"])
    print(f"  greedy minus expert, loss per deal: {_t(diff)}")
    print(f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
