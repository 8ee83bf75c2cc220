"""Compile (or load) one group of the package's numba kernels: ``python tests/warm_kernels.py GROUP``.

``conftest.py`` runs the groups side by side in subprocesses before the tests start, so a cold
cache compiles on every core at once and the test workers then load the kernels from numba's disk
cache instead of each compiling the same ones.
"""

from __future__ import annotations

import sys

import numpy as np


def deals() -> None:
    import daqing_sim as ds

    ds.simulate(2, seed=0)
    ds.deal_log(0, 0)


def stepped() -> None:
    import daqing_sim as ds
    from daqing_sim.players.examples import RandomLegal

    ds.simulate(2, strategies=(RandomLegal(), "greedy", "greedy", "greedy"), seed=0)
    env = ds.DealEnv(0, 0, players=(None, "expert", "expert", "expert"))
    env.reset()
    while not env.done:
        env.step(env.legal_actions()[0] if env.legal_actions() else None)


def hands() -> None:
    import daqing_sim as ds

    ds.advise("123m456p789s1122m中", k=2)
    batch = np.zeros((2, 28), dtype=np.uint8)
    batch[:, :13] = 1
    ds.standard_shanten(batch)
    ds.daqing_shanten(ds.parse_hand("123m456p789s112m中"))
    ds.analyze_hand("123m456p789s11m中中 [中中中]".replace(" [中中中]", ""))
    beijing = ds.RuleSet(family="beijing")
    ds.analyze_hand("234m456p678s2233z", rules=beijing)
    ds.score_win("234m456p678s2233z", "3z", rules=beijing, self_draw=False)
    two = ds.RuleSet(family="two_player")
    ds.analyze_hand("19m19p19s1234566z", rules=two)
    ds.analyze_hand("234m456p678s2233z3z", rules=two)
    ds.score_win("234m456p678s2233z", "3z", rules=two, self_draw=False)


def extras() -> None:
    """Kernels the tests call with their own argument types (hand kernels on the tests' arrays,
    the advisor's deeper searches and danger, the example jitted players)."""
    from test_evaluator_reference import TABS, kernel_daqing_shanten, kernel_std_batch, kernel_wait_set

    import daqing_sim as ds
    from daqing_sim.hand import kernels as K
    from daqing_sim.players.examples_jitted import CAUTIOUS, FIRST_TILE

    rules = ds.RuleSet()
    counts = ds.parse_hand("123m456p789s112m中").counts
    kernel_wait_set(counts, [], rules)
    kernel_daqing_shanten(counts, [], rules)
    rows = np.zeros((2, 28), dtype=np.uint8)
    rows[:] = counts
    kernel_std_batch(rows)
    K.daqing_shanten_batch_k(rows, rules.encode(), TABS, np.empty(2, dtype=np.int64))
    K.wait_set_batch_k(rows, rules.encode(), TABS, np.empty(2, dtype=np.int64))
    ds.advise("134m456p789s中中 [345m]", k=3)
    ds.advise("13m456p789s中中 [345m]", claim="2m", claim_from=3)
    ds.advise("134m456p789s中中 [345m]", ready=(1,), ponds={1: "19m2p"}, k=1)
    for player in (CAUTIOUS, FIRST_TILE):
        player.functions()


#: waves of groups run side by side; a wave starts when the one before it is done
GROUPS = (("deals", "hands"), ("stepped", "extras"))

if __name__ == "__main__":
    {"deals": deals, "stepped": stepped, "hands": hands, "extras": extras}[sys.argv[1]]()
