"""Run a few kernels with numba's bounds checking on: ``NUMBA_BOUNDSCHECK=1 python
tests/boundscheck_probe.py [hands|deals]`` (``test_boundscheck.py`` does, with its own
``NUMBA_CACHE_DIR``). Any out-of-bounds index raises ``IndexError`` and the exit status is
non-zero; prints one line per part that ran."""

from __future__ import annotations

import os
import sys

import numpy as np
from numba import njit


@njit
def _read(a, i):
    return a[i]


def check_active() -> None:
    """Bounds checking is on: an index past the end raises instead of reading memory."""
    try:
        _read(np.zeros(3, dtype=np.int64), 3)
    except IndexError:
        print("boundscheck active")
        return
    raise SystemExit("NUMBA_BOUNDSCHECK is not in effect: an out-of-bounds read passed")


def hands() -> None:
    """The hand kernels and the claim helpers on random and edge hands (terminals, 中)."""
    sys.path.insert(0, os.path.dirname(__file__))
    from conftest import HandGen

    from daqing_sim.codes import CHI_HIGH, CHI_LOW, CHI_MID, N_KINDS
    from daqing_sim.hand import kernels as K
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.players.common import claim_give, claim_take
    from daqing_sim.rules import RuleSet

    tabs = get_tables()
    gen = HandGen(5)
    n = 0
    for i in range(60):
        rules = RuleSet() if i % 2 else gen.random_rules()
        c, melds = gen.near_ready(exchanges=i % 3) if i % 3 else gen.random_hand(zhong=i % 4)
        mk = np.zeros(4, dtype=np.int8)
        mt = np.zeros(4, dtype=np.int8)
        for j, (k, t) in enumerate(melds):
            mk[j], mt[j] = k, t
        wk = np.empty(N_KINDS, dtype=np.int8)
        wb = np.empty(N_KINDS, dtype=np.uint8)
        c = np.asarray(c, dtype=np.uint8)
        K.wait_set_k(c, mk, mt, len(melds), rules.encode(), tabs, wk, wb)
        for drawn in (0, 8, 26, 27):
            K.bao_win_k(wk, wb, drawn, rules.encode())
        K.daqing_shanten_k(c, mk, mt, len(melds), rules.encode(), tabs)
        n += 1
    rows = np.array([gen.random_hand(n_melds=0)[0] for _ in range(20)], dtype=np.uint8)
    K.std_shanten_batch_k(rows, tabs, np.empty(len(rows), dtype=np.int8))
    hand = np.full(N_KINDS, 2, dtype=np.uint8)
    for t in range(27):
        for action in (CHI_LOW, CHI_MID, CHI_HIGH):
            r = t % 9
            if (
                (action == CHI_LOW and r <= 6)
                or (action == CHI_MID and 1 <= r <= 7)
                or (action == CHI_HIGH and r >= 2)
            ):
                low = claim_take(hand, t, action)
                claim_give(hand, t, action, low)
    assert (hand == 2).all()
    print(f"hand kernels: {n} hands")


def deals() -> None:
    """A few complete deals of the batch engine with the built-in players."""
    import daqing_sim as ds

    df = ds.simulate(40, strategies=("random", "greedy", "jia_hunter", "defensive"), seed=3, n_jobs=1)
    df2 = ds.simulate(20, rules=ds.RuleSet(bao_kan_instant=True, lock_after_ready=False), seed=4, n_jobs=1)
    print(f"deals: {len(df) + len(df2)}")


if __name__ == "__main__":
    check_active()
    for part in sys.argv[1:] or ["hands"]:
        {"hands": hands, "deals": deals}[part]()
