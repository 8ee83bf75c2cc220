"""How far along real opponents are: the table of the search's ``opponents="progress"`` worlds
(:mod:`daqing_sim.search.progress`).

Self-play of the family's expert field; at every discard decision, for every other seat that
has not declared ready: its discards so far, its melds and the shanten of its concealed tiles
(Daqing: the standard shanten; Beijing and two-player: the table shanten with seven pairs),
counted by :func:`daqing_sim.search.progress.pond_bucket`, melds and shanten (3 or more
together). Writes the family's counts into ``daqing_sim/search/progress.json`` with the command,
the seed and the commit.

    python tools/opponent_progress.py beijing --deals 400 --seed 62001
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

import numpy as np

import daqing_sim as ds
from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.game.engine import C_SEAT
from daqing_sim.hand.kernels import std_shanten_k
from daqing_sim.hand.kinds34 import bj_shanten_k
from daqing_sim.hand.tables import get_tables
from daqing_sim.search.player import SearchPlayer
from daqing_sim.search.progress import (
    N_MELD_ROWS,
    N_POND_BUCKETS,
    N_SHANTEN,
    PROGRESS,
    UNIFORM_FROM,
    pond_bucket,
)


class Recorder(SearchPlayer):
    """The expert's moves (one candidate: nothing searched), counting the others' progress."""

    def __init__(self, counts: np.ndarray) -> None:
        super().__init__(candidates=1)
        self.counts = counts

    def decide_paused(self, deal: Any, kind: int, rng: Any) -> Any:
        if kind == DECISION_DISCARD:
            st, seat, tabs = deal.st, int(deal.ctl[C_SEAT]), get_tables()
            for s in range(2 if deal.family == "two_player" else 4):  # the state has 4 rows
                if s == seat or st.ready[s]:
                    continue
                nm = int(st.nm[s])
                hand = np.ascontiguousarray(st.conc[s])
                if deal.family == "daqing":
                    sh = int(std_shanten_k(hand, tabs))
                else:
                    sh = int(bj_shanten_k(hand, np.int64(nm), tabs))
                row = (pond_bucket(int(st.n_pond[s])), min(nm, N_MELD_ROWS - 1))
                self.counts[row + (min(max(sh, 0), UNIFORM_FROM),)] += 1
        return super().decide_paused(deal, kind, rng)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("family", choices=["daqing", "beijing", "two_player"])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=62001)
    a = ap.parse_args(argv)
    counts = np.zeros((N_POND_BUCKETS, N_MELD_ROWS, N_SHANTEN), dtype=np.int64)
    n = 2 if a.family == "two_player" else 4
    seats = [Recorder(counts) for _ in range(n)]
    ds.simulate(a.deals, rules=ds.RuleSet(family=a.family), strategies=seats, seed=a.seed, n_jobs=1)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    data = json.loads(PROGRESS.read_text(encoding="utf-8")) if PROGRESS.exists() else {}
    kept = {k: v for k, v in data.get(a.family, {}).items() if k.startswith("share")}
    data[a.family] = {
        "measured_by": " ".join(["python tools/opponent_progress.py", *sys.argv[1:]]),
        "field": "expert",
        "commit": commit.stdout.strip(),
        "positions": int(counts.sum()),
        "axes": "discards so far // 3 (capped 6), melds (capped 4), shanten 0 / 1 / 2 / 3+",
        "counts": counts.tolist(),
        **kept,  # the share fitted with tools/search_calibration.py
    }
    PROGRESS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    share = counts.sum(axis=(0, 1)) / counts.sum()
    print(f"{a.family}: {counts.sum()} opponent positions, shanten 0/1/2/3+: {np.round(share, 3)}")


if __name__ == "__main__":
    main()
