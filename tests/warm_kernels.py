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


#: waves of groups run side by side; a wave starts when the one before it is done
GROUPS = (("deals", "hands"), ("stepped",))

if __name__ == "__main__":
    {"deals": deals, "stepped": stepped, "hands": hands}[sys.argv[1]]()
