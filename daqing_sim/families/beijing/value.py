"""The gain side of the Beijing expert: P(win | hand kept) (docs/EXPERT.md, Beijing).

A logistic in the Beijing shanten of the 13 tiles kept (:func:`win_features`, :data:`WIN_W`),
their ukeire (live outs when ready) with its own slope per shanten (a hand further from ready has
more useful tiles, which must not make it look closer), and the draws left; fitted on self-play
by ``tools/calibrate_danger.py --family beijing`` and checked there on a fresh seed (decile table).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- P(win | hand kept): logistic features
(
    W_BIAS,
    W_SH1,
    W_SH2,
    W_SH3,
    W_SH_OVER3,
    W_LOG_UK0,
    W_LOG_UK1,
    W_LOG_UK2,
    W_DRAWS,
    W_DRAWS_SH,
    W_OPEN,
) = range(11)
N_WF = 11
# Fitted by ``tools/calibrate_danger.py fit --family beijing --n 2000 --seed 1101`` (4 greedy, defaults).
WIN_W = np.array(
    [-3.6467, -1.6227, -2.9343, -4.2908, -1.0788, 1.0298, 0.6967, 0.6407, 0.6506, 0.1299, -0.067]
)


@njit(cache=True)
def win_features(sh, uk, draws_left, is_open, out):
    """Fill ``out`` (N_WF,) with the features of a hand ``sh`` from ready (after its discard) with
    ``uk`` useful unseen tiles (its live outs when ready) and ``draws_left`` own draws left."""
    for j in range(N_WF):
        out[j] = 0.0
    out[W_BIAS] = 1.0
    if sh >= 1:
        out[W_SH1 + min(sh, 3) - 1] = 1.0
    out[W_SH_OVER3] = max(sh - 3, 0)
    out[W_LOG_UK0 + min(max(sh, 0), 2)] = np.log1p(uk)
    out[W_DRAWS] = draws_left / 4.0
    out[W_DRAWS_SH] = draws_left / 4.0 * min(max(sh, 0), 4)
    out[W_OPEN] = 1.0 if is_open else 0.0


@njit(cache=True)
def win_probability(sh, uk, draws_left, is_open, w):
    """P(this seat wins the deal | the 13 tiles kept), the logistic of :func:`win_features`
    (0 when not ready with no draw left)."""
    if draws_left <= 0.0 and sh > 0:
        return 0.0
    z = w[W_BIAS]
    if sh >= 1:
        z += w[W_SH1 + min(sh, 3) - 1]
    z += w[W_SH_OVER3] * max(sh - 3, 0)
    z += w[W_LOG_UK0 + min(max(sh, 0), 2)] * np.log1p(uk)
    z += (w[W_DRAWS] + w[W_DRAWS_SH] * min(max(sh, 0), 4)) * draws_left / 4.0
    if is_open:
        z += w[W_OPEN]
    return 1.0 / (1.0 + np.exp(-z))
