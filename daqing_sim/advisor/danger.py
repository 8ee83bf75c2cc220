"""The ``danger`` columns of ``advise``: the expert's estimate of the chance a discard deals in.

For each ready opponent ``r`` the danger of kind ``t`` is
:func:`daqing_sim.families.daqing.expert.tile_danger` on an observation built from what the advised
seat knows (:class:`~daqing_sim.advisor.table.TableView`): its hand, the tiles it sees (for the
unseen counts), the ponds (a shape touching ``r``'s own discards weighs less), ``r``'s melds
(its concealed tile count) and the kinds ``r`` let pass since declaring (danger 0: a ready seat
always wins when it can). ``danger`` combines the ready seats as the expert does,
``1 - prod_r (1 - danger_r)``: the chance the discard deals in to some ready seat if their waits
were independent.
"""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor.table import TableView
from daqing_sim.codes import CHI, CONCEALED_KONG, N_KINDS, PENG
from daqing_sim.families.daqing.expert import N_FEATURES, danger_table
from daqing_sim.players.observation import DECLARED, make_observation
from daqing_sim.rules import RuleSet


def observation_for(
    counts: np.ndarray, mk: np.ndarray, mt: np.ndarray, nm: int, view: TableView, wall_left: int, dealer: int,
    rules: RuleSet,
):  # fmt: skip
    """The advised seat's :class:`~daqing_sim.players.observation.Observation` of the table.

    A ready seat without given melds under ``require_open`` counts one meld (it opened its door).
    """
    visible = view.seen.copy()
    for j in range(nm):
        if mk[j] != CONCEALED_KONG:
            for t in _meld_tiles(int(mk[j]), int(mt[j])):
                visible[t] += 1
    ready = np.zeros(4, dtype=np.uint8)
    ready[list(view.ready)] = 1
    obs = make_observation(
        np.asarray(counts, dtype=np.uint8),
        seat=view.seat,
        melds=(mk[:nm], mt[:nm]),
        visible=np.minimum(visible, 4),
        ready=ready,
        safe=view.passed,
        wall_left=wall_left,
        dealer=dealer,
    )
    for s in range(4):
        if s == view.seat:
            continue
        ms = view.melds[s]
        for j, m in enumerate(ms):
            obs.table_mk[s, j] = m.code
            obs.table_mt[s, j] = m.tile
        obs.table_nm[s] = len(ms) if ms or s not in view.ready or not rules.require_open else 1
    for s, pond in enumerate(view.ponds):
        n = min(len(pond), obs.pond.shape[1])
        obs.pond[s, :n] = pond[:n]
        obs.n_pond[s] = n
        if n and s in view.ready:  # the declaration's place is unknown: all of it counts as before
            obs.pond_flag[s, n - 1] = DECLARED
    return obs


def _meld_tiles(kind: int, low: int) -> list[int]:
    if kind == CHI:
        return [low, low + 1, low + 2]
    return [low] * (3 if kind == PENG else 4)


def danger_by_kind(obs, ready: tuple[int, ...]) -> np.ndarray:
    """``(4, 28)``: the danger of each kind against each ready seat (0 for other seats and for
    passed kinds).

    Examples
    --------
    >>> import numpy as np
    >>> from daqing_sim.players.observation import make_observation
    >>> from daqing_sim.hand.notation import parse_hand
    >>> obs = make_observation(parse_hand("14m456p789s中中5p [345m]").counts, ready=[0, 1, 0, 0])
    >>> d = danger_by_kind(obs, (1,))
    >>> bool(d[1, 13] > d[1, 0] > 0)  # 5p, a middle tile, is more dangerous than 1m
    True
    """
    out = np.zeros((4, N_KINDS))
    feat = np.zeros((N_KINDS, N_FEATURES))
    p = np.zeros(N_KINDS)
    for r in ready:
        danger_table(obs, r, feat, p)
        out[r] = np.maximum(p, 0.0)  # -1 marks a passed kind: safe
    return out


def combine(dangers: np.ndarray, ready: tuple[int, ...], t: int) -> dict[str, float]:
    """The ``danger`` and ``danger_s{r}`` columns of discarding kind ``t``."""
    row = {"danger": float(1.0 - np.prod([1.0 - dangers[r, t] for r in ready]))}
    for r in ready:
        row[f"danger_s{r}"] = float(dangers[r, t])
    return row
