"""``expert2``: the Daqing expert with its knobs fitted to the search player's labels, and passing
claims while folding (issue 38; docs/EXPERT.md, "Expert v2").

The discards and kongs are :mod:`daqing_sim.families.daqing.expert`'s kernels; only the knob values differ:
their defaults are the weights ``tools/fit_expert2.py fit`` chose on positions from self-play of
the expert field, each decision labelled with every legal answer's payment by the search evaluator
(:class:`daqing_sim.search.evaluator.Evaluator`, the same worlds for every answer). The weights,
with the seed, data and commit that produced them, ship in ``expert2_weights.json`` next to this
module (:data:`WEIGHTS`). The new term is ``claim_fold_shanten``: while an opponent is ready, a
claim is passed when the hand is this many exchanges or more from ready (14: never, as ``expert``).

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(20, strategies=("expert2", "expert1", "expert1", "expert1"), seed=3)
>>> int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

from numba import njit

from daqing_sim.families.daqing import expert, greedy
from daqing_sim.players.knobs import Knob
from daqing_sim.players.weights import load_weights

#: the fitted weights of the Daqing expert2 (``tools/fit_expert2.py fit --family daqing``)
WEIGHTS = load_weights("daqing")
K_CLAIM_FOLD = len(expert.KNOBS)
KNOBS = {
    name: Knob(float(WEIGHTS["knobs"].get(name, k.default)), k.low, k.high, k.integer, k.doc)
    for name, k in expert.KNOBS.items()
}
KNOBS["claim_fold_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("claim_fold_shanten", 14)),
    0,
    14,
    integer=True,
    doc="pass claims while an opponent is ready and the hand is this many exchanges or more from ready "
    "(14: never)",
)
assert list(KNOBS).index("claim_fold_shanten") == K_CLAIM_FOLD

discard = expert.discard
kong = expert.kong


@njit(cache=True)
def claim(kn, obs, rules, tabs, t, options):
    """Greedy's claim, passed while an opponent is ready and the hand is ``claim_fold_shanten``
    or more from ready."""
    return greedy.claim_with(obs, rules, tabs, t, options, kn[K_CLAIM_FOLD])
