"""``expert2`` under Beijing: the Beijing expert with its knobs fitted to the search player's
labels, and passing claims while folding (issue 38; docs/EXPERT.md, "Expert v2").

Discards and kongs are :mod:`daqing_sim.families.beijing.expert`'s kernels with the fitted knob
values (``tools/fit_expert2.py fit --family beijing``; shipped in ``expert2_weights.json`` with the
seed, data and commit). Two new claim terms:

* ``claim_fold_shanten``: while another seat is likely ready (P(ready) at least ``min_tenpai``),
  a claim is passed when the hand is this many exchanges or more from ready (14: never, as
  ``expert``);
* ``concealed_pass_shanten``: a concealed hand (no meld yet) passes every claim (chi, peng,
  kong) while it is this near ready or nearer (-1: never, as ``expert``). A concealed win is
  worth twice an open one (RULES_BEIJING.md, scoring), and near ready the hand gets there
  concealed often enough: the search's labels pass these claims.

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(20, rules=ds.RuleSet(family="beijing"), strategies=("expert2", "expert1") * 2, seed=3)
>>> int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import N_KINDS_ALL, PASS
from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.hand.kinds34 import bj_shanten_k
from daqing_sim.players.greedy34 import greedy_claim
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS
from daqing_sim.players.weights import load_weights

#: the fitted weights of the Beijing expert2
WEIGHTS = load_weights("beijing")
K_CLAIM_FOLD = len(beijing_expert.KNOBS)
KNOBS = {
    name: Knob(float(WEIGHTS["knobs"].get(name, k.default)), k.low, k.high, k.integer, k.doc)
    for name, k in beijing_expert.KNOBS.items()
}
KNOBS["claim_fold_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("claim_fold_shanten", 14)),
    0,
    14,
    integer=True,
    doc="pass claims while another seat is likely ready and the hand is this many exchanges or more "
    "from ready (14: never)",
)
KNOBS["concealed_pass_shanten"] = Knob(
    float(WEIGHTS["knobs"].get("concealed_pass_shanten", -1)),
    -1,
    13,
    integer=True,
    doc="a concealed hand passes claims while this many exchanges or fewer from ready (-1: never)",
)
K_CONCEALED_PASS = K_CLAIM_FOLD + 1
assert list(KNOBS).index("claim_fold_shanten") == K_CLAIM_FOLD
assert list(KNOBS).index("concealed_pass_shanten") == K_CONCEALED_PASS

discard = beijing_expert.discard
kong = beijing_expert.kong


@njit(cache=True)
def claim(kn, obs, rules, tabs, d, options):
    """Greedy's claim, passed while another seat is likely ready and the hand is
    ``claim_fold_shanten`` or more from ready, or while the hand is concealed and
    ``concealed_pass_shanten`` or less from ready."""
    if options != 0 and obs.info[I_N_MELDS] == 0 and kn[K_CONCEALED_PASS] >= 0.0:
        if bj_shanten_k(obs.hand, obs.info[I_N_MELDS], tabs) <= kn[K_CONCEALED_PASS]:
            return PASS
    if options != 0 and kn[K_CLAIM_FOLD] < 14.0 and beijing_expert.risk_possible(kn, obs):
        if bj_shanten_k(obs.hand, obs.info[I_N_MELDS], tabs) >= kn[K_CLAIM_FOLD]:
            safe = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
            pmask = np.empty((4, N_KINDS_ALL), dtype=np.uint8)
            pt = np.empty(4)
            if beijing_expert.read_risk(kn, obs, safe, pmask, pt):
                return PASS
    return greedy_claim(obs, tabs, d, options)
