"""The deal's event log: codes and the one writer (rows of ``(code, seat, tile, a, b)``).

The fields of each code are in docs/DESIGN.md (event log); :mod:`daqing_sim.game.replay`
reads them back.
"""

from __future__ import annotations

from numba import njit

EV_DRAW, EV_DISCARD, EV_READY, EV_CLAIM, EV_CONCEALED_KONG, EV_ADDED_KONG = 0, 1, 2, 3, 4, 5
EV_BAO_REPLACED, EV_WIN, EV_EXHAUSTIVE = 6, 7, 8
# a seat asked to claim (a = option mask, b = its answer); after EV_WIN: (tile that came in,
# bao kind, 1 for 宝卡 — a win on a new bao without a draw)
EV_CLAIM_OFFER, EV_WIN_DETAIL = 9, 10
# Beijing: a kong robbed (seat = robber, tile, a = the kong's declarer, b = 1 concealed kong);
# a 互包 pair bound (seat, a = partner); a 烧庄 round completed (seat = dealer, tile, a = round)
EV_ROBBED_KONG, EV_MUTUAL_BAO, EV_BURN = 11, 12, 13
# two-player: a flower tile turned face up (tile, a = its place 0-3); an extra draw of 海底捞月
# (seat, tile, a = 1 if it won, b = its place 0-2; a tile that does not win is put aside)
EV_FLOWER, EV_EXTRA_DRAW = 14, 15
LOG_WIDTH = 5
MAX_EVENTS = 1024  # draws + discards + up to four claim offers per discard stay well below


@njit(cache=True, inline="always")
def log_event(log, n_log, code, seat, tile, a, b):
    """Write one event row when there is room; returns the new event count."""
    if n_log < log.shape[0]:
        log[n_log, 0] = code
        log[n_log, 1] = seat
        log[n_log, 2] = tile
        log[n_log, 3] = a
        log[n_log, 4] = b
    return n_log + 1
