"""``search`` against the expert on the same walls, with the luck taken out (issue 36).

A duplicate tournament compares whole deals: once the search throws another tile than the expert
would, the rest of the deal goes another way, and the difference of the two deals carries all
the luck of the draws after it (in Beijing some 2,500 points per changed seat-deal). This tool
plays the same walls in every rotation (``search`` at one seat, the expert at the others, as
``tools/search_duplicate.py``) and prints two estimates of the same number, the search's mean
payment per seat-deal minus the expert's in its seat on the same walls:

* **plain**: the search's payment, mean over the rotations of each wall (four experts' mean over
  the rotations is exactly 0: the same deal, zero-sum);
* **advantage sum**: at each decision where the search leaves the expert's answer, the value of
  its answer minus the expert's *in the real position*: both played out by the expert field from
  that position in ``--rollouts`` futures that keep every tile where it is but draw the live
  wall's order again (:meth:`daqing_sim.search.evaluator.Evaluator.evaluate_actual`, the same
  futures for both); summed over the seat-deal, mean over the rotations of each wall.

The second is the performance-difference identity: a player's value minus the expert's is the
expected sum, along the player's own deals, of the expert-value advantage of each of its answers
(answers equal to the expert's add 0). Given everything that happened so far the live wall's order
is uniform, so a future drawn that way is a draw of the real position's future, and the estimate
is unbiased for the same number as the plain one, without the luck after each departure. Both
intervals are t intervals over walls. ``x n/(n-1)`` converts to ``search_duplicate.py``'s "search
minus the others" scale.

    python tools/search_advantage.py two_player 100 10 39501 --rollouts 256
    python tools/search_advantage.py beijing 25 20 52701 "{'opponents': 'progress'}" --save F
"""

from __future__ import annotations

import argparse
import ast
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

import daqing_sim as ds
from daqing_sim.experiments.tournament import rotate
from daqing_sim.game.engine import C_N_DRAWS
from daqing_sim.game.wall import generate_walls
from daqing_sim.search.player import SearchPlayer


class Measured(SearchPlayer):
    """The search player, valuing each of its departures from the expert in the real position."""

    def __init__(self, rollouts: int, field: str, **knobs: Any) -> None:
        super().__init__(**knobs)
        self.rollouts, self.field_name = rollouts, field
        self.adv: dict[int, float] = {}  # the deal's in-game seed -> sum of advantages
        self.n_switch = 0
        self._actual: dict[Any, Any] = {}

    def _search(self, deal: Any, kind: int, rng: Any, seat: int, cands: list[Any]) -> Any:
        pick = super()._search(deal, kind, rng, seat, cands)
        if pick != cands[0]:
            from daqing_sim.search.evaluator import Evaluator

            key = (deal.rules.tobytes(), deal.family)
            if key not in self._actual:
                self._actual[key] = Evaluator(deal.rules, self.field_name, deal.family)
            ss = np.random.SeedSequence(
                [int(getattr(rng, "seed", 0)), seat, int(deal.ctl[C_N_DRAWS]), kind, 977]
            )
            ev = self._actual[key].evaluate_actual(deal, [cands[0], pick], self.rollouts, ss)
            d = int(getattr(rng, "seed", 0))
            self.adv[d] = self.adv.get(d, 0.0) + float(ev.diff[1])
            self.n_switch += 1
        return pick


def _interval(x: np.ndarray) -> str:
    m = x.mean()
    se = x.std(ddof=1) / np.sqrt(len(x))
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=m, scale=se) if se > 0 else (m, m)
    return f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family")
    ap.add_argument("walls_per_seed", type=int)
    ap.add_argument("seeds", type=int)
    ap.add_argument("first_seed", type=int)
    ap.add_argument("knobs", nargs="?", default="{}", help="the search's knobs, a Python dict")
    ap.add_argument("--rollouts", type=int, default=256, help="futures per departure (default 256)")
    ap.add_argument("--field", default="expert", help="the expert (the others' and the baseline)")
    ap.add_argument("--save", default=None, help="append per-wall rows (seed, wall, plain, advantage)")
    a = ap.parse_args()
    rules = ds.RuleSet(family=a.family)
    n = 2 if a.family == "two_player" else 4
    plain: list[float] = []
    adv: list[float] = []
    t0 = time.time()
    switches = 0
    for b in range(a.seeds):
        seed = a.first_seed + b
        me = Measured(a.rollouts, a.field, **ast.literal_eval(a.knobs))
        pays = np.zeros(a.walls_per_seed)
        keys = generate_walls(a.walls_per_seed, seed, 0, family=a.family)[2]  # each deal's in-game seed
        for r in range(n):
            df = ds.simulate(
                a.walls_per_seed,
                strategies=tuple(rotate([me, *[a.field] * (n - 1)], r)),
                seed=seed,
                rules=rules,
            )
            pays += df[f"pay_{r}"].to_numpy(dtype=float) / n
        adv_w = np.array([me.adv.get(int(k), 0.0) for k in keys]) / n
        unmatched = set(me.adv) - {int(k) for k in keys}
        if unmatched:
            raise SystemExit(
                f"{len(unmatched)} departures on deals not in the frame: the wall keys are wrong"
            )
        plain.extend(pays.tolist())
        adv.extend(adv_w.tolist())
        switches += me.n_switch
        if a.save:
            rows = pd.DataFrame(
                {"seed": seed, "wall": np.arange(a.walls_per_seed), "plain": pays, "advantage": adv_w}
            )
            rows.to_csv(a.save, mode="a", header=not Path(a.save).exists(), index=False)
        p, q = np.array(plain), np.array(adv)
        print(
            f"{a.family} walls={len(p)} departures={switches}: search minus expert per seat-deal, "
            f"plain {_interval(p)}, advantage sum {_interval(q)} "
            f"(x{n / (n - 1):.2f} for the minus-the-others scale) elapsed {time.time() - t0:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
