"""Are the search's worlds right on average? The evaluator's mean payment of the expert's own
answer against the seat's realised payment in the same deal (the same field plays on in both,
so under a right world model the two agree on average).

Self-play of the family's expert field (every seat); at every ``--every``-th draw of the deal, a
discard decision of the seat to move is evaluated (the expert's answer only, ``--worlds``
worlds); after the deal, the seat's payment. Prints the mean error (predicted minus realised) by
stage of the deal and in all, with its 95 % interval over positions (positions of one deal are
not independent: read it as a guide; ``--deals`` sets the size).

    python tools/search_calibration.py beijing --deals 100 --seed 61001
    python tools/search_calibration.py beijing --opponents progress --share 0.5 --seed 61001
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pandas as pd

import daqing_sim as ds
from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.game.engine import C_N_DRAWS
from daqing_sim.search.evaluator import Evaluator
from daqing_sim.search.player import SearchPlayer


class Calibrating(SearchPlayer):
    """The expert's moves; at the chosen decisions, the evaluator's prediction of them."""

    def __init__(self, a: argparse.Namespace, sink: list) -> None:
        super().__init__(candidates=2, worlds=a.worlds)
        self.a, self.sink, self.deal_no, self.ev = a, sink, -1, None

    def _search(self, deal: Any, kind: int, rng: Any, seat: int, cands: list) -> Any:
        nd = int(deal.ctl[C_N_DRAWS])
        if kind != DECISION_DISCARD or nd % self.a.every:
            return cands[0]
        if self.ev is None:
            self.ev = Evaluator(deal.rules, "expert", deal.family, self.a.opponents, self.a.share)
        ss = np.random.SeedSequence([5, int(getattr(rng, "seed", 0)), seat, nd])
        pred = float(self.ev.evaluate(deal, cands[:1], self.a.worlds, ss).pays[:, 0].mean())
        self.sink.append({"deal": self.deal_no, "seat": seat, "draws": nd, "pred": pred})
        return cands[0]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("family", choices=["daqing", "beijing", "two_player"])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=61001)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--opponents", default="uniform", choices=["uniform", "progress"])
    ap.add_argument("--share", type=float, default=None)
    a = ap.parse_args(argv)
    n = 2 if a.family == "two_player" else 4
    sink: list = []
    player = Calibrating(a, sink)
    rules = ds.RuleSet(family=a.family)
    real = []
    t0 = time.time()
    for d in range(a.deals):  # one deal a call: each deal's walls follow its own seed
        player.deal_no = d
        df = ds.simulate(1, rules=rules, strategies=(player,) * n, seed=a.seed + d, n_jobs=1)
        real.append([float(df[f"pay_{s}"].iloc[0]) for s in range(n)])
    r = pd.DataFrame(sink)
    r["real"] = [real[d][s] for d, s in zip(r["deal"], r["seat"], strict=True)]
    r["err"] = r["pred"] - r["real"]
    r["stage"] = pd.cut(r["draws"], [-1, 20, 40, 60, 400], labels=["0-20", "21-40", "41-60", "61+"])
    print(f"{a.family} opponents={a.opponents} share={a.share}: {len(r)} positions, {time.time() - t0:.0f} s")
    print(r.groupby("stage", observed=True)[["pred", "real", "err"]].mean().round(2).to_string())
    half = 1.96 * r["err"].std(ddof=1) / np.sqrt(len(r))
    print(
        f"all: predicted {r['pred'].mean():.2f}, realised {r['real'].mean():.2f}, "
        f"error {r['err'].mean():+.2f} +- {half:.2f}"
    )


if __name__ == "__main__":
    main()
