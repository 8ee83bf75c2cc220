"""The jitted four-player deal kernel (docs/RULES.md, every mechanic), in phases over a
:class:`~daqing_sim.game.state.DealState`.

:func:`play_batch_k` plays a batch of walls (layout in :mod:`daqing_sim.game.wall`) and writes
one row of integers per deal into ``out`` (columns ``O_*``). Optional outputs: the winner's
13-tile hand (``out_hand``), the final whereabouts of all 112 tiles (``out_final``, for
conservation checks) and an event log of one deal (``log``, for :mod:`daqing_sim.game.replay`).

A deal is a loop over phases (``P_*``), each a function that updates the state and names the
next phase: draw (and the self-draw win), own-turn kong, discard and declare, claims (win,
宝卡, peng/kong, chi), after the claims (the claim itself, 换宝, the next turn), then settle
and record. Decisions are asked of the players through :mod:`daqing_sim.players.dispatch`,
each on an :class:`~daqing_sim.players.observation.Observation` built by
:func:`daqing_sim.game.state.observe`; the wall, other hands and (before ready) the bao stay here.

Readings of the rules made here (beyond docs/DECISIONS.md):

* A discard that declares ready and is won on counts as a ready discarder's deal-in (点炮,
  not 点黑炮): declaring *is* that discard.
* Order after a discard: win claims (first ready seat in turn order, 截和), then 宝卡 for a
  seat that just declared, then peng/kong (at most one seat can), then chi.
* Bao replacement (换宝) is mechanical: checked after every discard (and its claim) and
  every added kong, whether or not anyone is ready; none once the live wall is empty.
* A new meld (claim or concealed kong) must leave ``min_concealed_at_ready`` concealed
  tiles (手把一), so with the classic 4 nobody holds a fourth meld.
* ``lock_after_ready=False``: a ready hand may change its discard and declare kongs as
  long as it stays ready (the wait set is recomputed), but still claims nothing but a win.
* ``ready_turn`` counts the seat's own draws, kong replacements included; ``ready_wait``
  is the lowest wait kind (tie order) of the declared wait set; ``ready_outs`` the copies
  of its winning tiles the declarer cannot see right after its declaring discard.
* Safe tiles (public): every claimable discard a locked ready seat let pass after it
  declared, its own later discards included.
"""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    BAO_IN_BAO,
    CHI,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    DEAL_IN,
    EXHAUSTIVE_DRAW,
    KANCHAN,
    KONG,
    NO_BAO,
    OPT_ADDED_KONG,
    OPT_CONCEALED_KONG,
    PASS,
    PENG,
    SELF_DRAW,
    WIN_DEAL_IN,
    WIN_DEAL_IN_NOT_READY,
    WIN_SELF_DRAW,
    ZHONG,
)
from daqing_sim.game.scoring import settle_kernel
from daqing_sim.game.state import (
    G_ACTION,
    G_ASK_OPTS,
    G_ASK_SEAT,
    G_BACK,
    G_BAO,
    G_BAO_KIND,
    G_BIG,
    G_CHI_K,
    G_CLAIMER,
    G_CUR,
    G_DEALER,
    G_DISCARD,
    G_DISCARDER,
    G_DISCARDER_READY,
    G_DRAWN,
    G_FRONT,
    G_LAST_LIVE,
    G_METHOD,
    G_MUST_DECLARE,
    G_N_DRAWS,
    G_N_LOG,
    G_N_REPL,
    G_NEWLY_READY,
    G_PHASE,
    G_WIN_DRAWN,
    G_WIN_KIND,
    G_WIN_TILE,
    G_WINNER,
    observe,
)
from daqing_sim.game.wall import BAO_POSITION, LIVE_START, N_LIVE
from daqing_sim.hand.kernels import bao_win_k, is_open_k, may_declare_k, wait_set_k
from daqing_sim.players import dispatch
from daqing_sim.players.common import splitmix64, unseen_counts
from daqing_sim.players.observation import CLAIMED, DECLARED, DRAWN_AND_THROWN, MAX_POND, UNKNOWN
from daqing_sim.rules import (
    R_BAO_KAN_INSTANT,
    R_BAO_REPLACEMENT,
    R_CHI_ANY_SEAT_FOR_READY,
    R_LAST_TILES_NO_CLAIM,
    R_LOCK_AFTER_READY,
    R_MIN_CONCEALED_AT_READY,
)


def _drop_stale_cache() -> None:
    """numba's on-disk cache checks only the file defining a kernel, not the modules it calls
    into: drop the cached engine and player kernels when a module they compile in is newer,
    or an edit to hand/kernels.py, game/scoring.py or a player would be silently ignored."""
    pkg = Path(__file__).resolve().parent.parent
    deps = [pkg / "rules.py", *(f for sub in ("hand", "game", "players") for f in (pkg / sub).glob("*.py"))]
    try:
        newest = max(f.stat().st_mtime for f in deps)
        for sub in ("game", "players"):
            here = pkg / sub
            root = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else here / "__pycache__"
            for index in root.rglob("*.nbi"):
                if index.stat().st_mtime < newest:
                    for f in index.parent.glob(index.name[: -len(".nbi")] + ".*nb*"):
                        f.unlink(missing_ok=True)
    except (OSError, ValueError):  # a read-only or concurrently cleaned cache only costs a recompile
        pass


_drop_stale_cache()

# Columns of ``out`` (int32, one row per deal).
O_OUTCOME, O_WINNER, O_DISCARDER, O_BIG, O_BAO, O_WAIT, O_WIN_TILE, O_DRAWS = range(8)
O_PAY, O_FANS, O_READY_TURN, O_READY_WAIT, O_READY_OUTS, O_CONCEALED = 8, 12, 16, 20, 24, 28
O_WINNER_KONGS, O_BAO_REPLACEMENTS, O_FINAL_BAO, O_DISCARDER_READY = 32, 33, 34, 35
O_OWN_DRAWS, O_READY_WAIT_TILES, O_READY_WAIT_MASK = 36, 40, 44
N_OUT = 48

# ``out_hand`` row: 28 concealed counts, 4 meld kinds, 4 meld tiles, number of melds.
H_MK, H_MT, H_NM = 28, 32, 36
H_WIDTH = 37
# ``out_final`` (6, 28): each seat's tiles (concealed + melds), unclaimed discards,
# tiles never played (live wall rest, current and replaced baos).
F_POOL, F_REST = 4, 5

# Event log rows: (code, seat, tile, a, b).
EV_DRAW, EV_DISCARD, EV_READY, EV_CLAIM, EV_CONCEALED_KONG, EV_ADDED_KONG = 0, 1, 2, 3, 4, 5
EV_BAO_REPLACED, EV_WIN, EV_EXHAUSTIVE = 6, 7, 8
LOG_WIDTH = 5
MAX_EVENTS = 512

# Phases of a deal (``g[G_PHASE]``).
P_DRAW, P_AFTER_DRAW, P_KONG, P_DISCARD, P_CLAIMS, P_PENG_ASK, P_CHI_ASK, P_AFTER_CLAIMS, P_END = range(9)


@njit(cache=True, inline="always")
def _log(log, g, code, seat, tile, a, b):
    n = g[G_N_LOG]
    if n < log.shape[0]:
        log[n, 0] = code
        log[n, 1] = seat
        log[n, 2] = tile
        log[n, 3] = a
        log[n, 4] = b
    g[G_N_LOG] = n + 1


@njit(cache=True, inline="always")
def _meld_ok(n_melds, rules):
    # RULES: 手把一 — a new meld must leave min_concealed_at_ready concealed tiles
    return 13 - 3 * (n_melds + 1) >= rules[R_MIN_CONCEALED_AT_READY]


@njit(cache=True, inline="always")
def _chi_options(hand, t):
    if t == ZHONG:
        return 0
    r = t % 9
    opts = 0
    if r <= 6 and hand[t + 1] > 0 and hand[t + 2] > 0:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and hand[t - 1] > 0 and hand[t + 1] > 0:
        opts |= 1 << CHI_MID
    if r >= 2 and hand[t - 2] > 0 and hand[t - 1] > 0:
        opts |= 1 << CHI_HIGH
    return opts


@njit(cache=True, inline="always")
def _chi_options_seat(conc, s, t):
    # _chi_options on conc[s] without making a view (views cost reference counting)
    if t == ZHONG:
        return 0
    r = t % 9
    opts = 0
    if r <= 6 and conc[s, t + 1] > 0 and conc[s, t + 2] > 0:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and conc[s, t - 1] > 0 and conc[s, t + 1] > 0:
        opts |= 1 << CHI_MID
    if r >= 2 and conc[s, t - 2] > 0 and conc[s, t - 1] > 0:
        opts |= 1 << CHI_HIGH
    return opts


@njit(cache=True)
def _chi_makes_ready(hand, mk, mt, nm, t, action, rules, tabs, tk, tb):
    """Does this chi leave a hand that can declare ready with some discard? (restores)"""
    low = t - (action - CHI_LOW)
    for x in range(low, low + 3):
        if x != t:
            hand[x] -= 1
    old_k = mk[nm]
    old_t = mt[nm]
    mk[nm] = CHI
    mt[nm] = low
    found = False
    for d in range(28):
        if hand[d] == 0:
            continue
        hand[d] -= 1
        if may_declare_k(hand, mk, mt, nm + 1, rules):
            found = wait_set_k(hand, mk, mt, nm + 1, rules, tabs, tk, tb) > 0
        hand[d] += 1
        if found:
            break
    mk[nm] = old_k
    mt[nm] = old_t
    for x in range(low, low + 3):
        if x != t:
            hand[x] += 1
    return found


@njit(cache=True)
def _keep_ready_kongs(hand, mk, mt, nm, kong_opts, rules, tabs, tk, tb):
    """An unlocked ready hand may only declare kongs that keep it ready (the 13 tiles
    after the kong, before the replacement draw, still wait)."""
    n_opt = 0
    for t in range(28):
        if kong_opts[t] == OPT_CONCEALED_KONG:
            old_k = mk[nm]
            old_t = mt[nm]
            hand[t] -= 4
            mk[nm] = CONCEALED_KONG
            mt[nm] = t
            ok = wait_set_k(hand, mk, mt, nm + 1, rules, tabs, tk, tb) > 0
            hand[t] += 4
            mk[nm] = old_k
            mt[nm] = old_t
        elif kong_opts[t] == OPT_ADDED_KONG:
            j = 0
            while not (mk[j] == PENG and mt[j] == t):
                j += 1
            hand[t] -= 1
            mk[j] = ADDED_KONG
            ok = wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb) > 0
            mk[j] = PENG
            hand[t] += 1
        else:
            continue
        if ok:
            n_opt += 1
        else:
            kong_opts[t] = 0
    return n_opt


# ---------------------------------------------------------------------------- batch
@njit(cache=True)
def play_batch_k(
    walls, deal_seeds, dealer, rules, codes, knobs, tabs, st, obs, out, out_hand, out_final, log
):
    """Play every wall of ``walls`` (n, 112); returns the number of events of the last deal.

    ``st`` and ``obs`` come from :func:`daqing_sim.game.state.new_deal_state`. ``out``
    (n, N_OUT) int32 is filled; ``out_hand`` (n, H_WIDTH) int8 and ``out_final`` (n, 6, 28)
    int8 are filled when their first dimension is n; ``log`` (m, 5) int16 gets the events of
    the last deal when ``m > 1``.
    """
    n = walls.shape[0]
    rec_hand = out_hand.shape[0] == n
    rec_final = out_final.shape[0] == n
    for i in range(n):
        begin_deal(walls[i], deal_seeds[i], dealer, st, obs, out[i], log)
        play_until_decision(walls[i], rules, codes, knobs, tabs, st, obs, out[i], log)
        record_deal(walls[i], dealer, rules, st, out[i], out_hand[i if rec_hand else 0], rec_hand, log)
        if rec_final:
            final_tiles(walls[i], st, out_final[i])
    return st.g[G_N_LOG]


@njit(cache=True)
def play_until_decision(wall, rules, codes, knobs, tabs, st, obs, orow, log):
    """Run the deal's phases from ``g[G_PHASE]`` to its end."""
    g = st.g
    while True:
        p = g[G_PHASE]
        if p == P_DRAW:
            if not _draw(wall, st, obs, log, False):
                g[G_PHASE] = P_END  # RULES: 荒庄
        elif p == P_AFTER_DRAW:
            _after_draw(rules, tabs, st, obs)
        elif p == P_KONG:
            observe(st, obs, g[G_CUR], False)
            kt = dispatch.kong(codes[g[G_CUR]], knobs[g[G_CUR]], obs, rules, tabs, st.kong_opts)
            _apply_kong(wall, rules, tabs, st, obs, log, kt)
        elif p == P_DISCARD:
            _discard(rules, codes, knobs, tabs, st, obs, orow, log)
        elif p == P_CLAIMS:
            _claims(rules, tabs, st, obs)
        elif p == P_PENG_ASK or p == P_CHI_ASK:
            s = g[G_ASK_SEAT]
            observe(st, obs, s, False)
            a = dispatch.claim(codes[s], knobs[s], obs, rules, tabs, g[G_DISCARD], g[G_ASK_OPTS])
            _answer_claim(rules, tabs, st, obs, a)
        elif p == P_AFTER_CLAIMS:
            _after_claims(wall, rules, st, obs, log)
        else:
            return


# ---------------------------------------------------------------------------- phases
@njit(cache=True)
def begin_deal(wall, seed, dealer, st, obs, orow, log):
    """Reset the state, deal the hands (dealer 14, others 13) and set up the bao."""
    st.conc[:] = 0
    st.mk[:] = 0
    st.mt[:] = 0
    st.nm[:] = 0
    st.meld_from[:] = -1
    st.visible[:] = 0
    st.pool[:] = 0
    st.dead[:] = 0
    st.ready[:] = 0
    st.ready_draw[:] = -1
    st.wk[:] = -1
    st.wb[:] = 0
    st.safe[:] = 0
    st.own_draws[:] = 0
    st.n_pond[:] = 0
    st.pond_claimer[:] = -1
    st.pond_flag[:] = 0
    obs.memo[:, 0] = UNKNOWN
    obs.memo[:, 1:] = 0
    for k in range(orow.shape[0]):
        orow[k] = -1
    orow[O_OUTCOME] = EXHAUSTIVE_DRAW
    orow[O_BIG] = 0
    orow[O_BAO] = NO_BAO
    orow[O_DISCARDER_READY] = 0
    for s in range(4):
        orow[O_PAY + s] = 0
        orow[O_READY_WAIT_TILES + s] = 0
        orow[O_READY_WAIT_MASK + s] = 0
        obs.rng[s] = splitmix64(seed ^ (np.uint64(s + 1) * np.uint64(0xD1B54A32D192ED03)))
    pos = 0
    for k in range(4):
        s = (dealer + k) % 4
        for _ in range(14 if k == 0 else 13):
            st.conc[s, wall[pos]] += 1
            pos += 1
    g = st.g
    g[:] = 0
    g[G_BAO] = wall[BAO_POSITION]
    g[G_FRONT] = LIVE_START
    g[G_BACK] = wall.shape[0] - 1
    g[G_CUR] = dealer
    g[G_DEALER] = dealer
    g[G_PHASE] = P_AFTER_DRAW
    g[G_DRAWN] = -1
    g[G_LAST_LIVE] = N_LIVE + 1  # the dealer's first discard follows no draw
    g[G_WINNER] = -1
    g[G_METHOD] = SELF_DRAW
    g[G_DISCARDER] = -1
    g[G_DISCARDER_READY] = 1
    g[G_WIN_TILE] = -1
    g[G_WIN_KIND] = -1
    g[G_BAO_KIND] = NO_BAO
    g[G_WIN_DRAWN] = -1
    g[G_CLAIMER] = -1


@njit(cache=True)
def _draw(wall, st, obs, log, from_back):
    """The current seat draws from the front of the live wall, or from its back for a kong
    replacement (RULES: replacement from the back). False when the live wall is empty."""
    g = st.g
    if g[G_FRONT] > g[G_BACK]:
        return False
    cur = g[G_CUR]
    g[G_LAST_LIVE] = g[G_BACK] - g[G_FRONT] + 1
    if from_back:
        drawn = np.int64(wall[g[G_BACK]])
        g[G_BACK] -= 1
    else:
        drawn = np.int64(wall[g[G_FRONT]])
        g[G_FRONT] += 1
    st.conc[cur, drawn] += 1
    g[G_N_DRAWS] += 1
    st.own_draws[cur] += 1
    obs.memo[cur, 0] = UNKNOWN
    g[G_DRAWN] = drawn
    if log.shape[0] > 1:
        _log(log, g, EV_DRAW, cur, drawn, 1 if from_back else 0, g[G_BACK] - g[G_FRONT] + 1)
    g[G_PHASE] = P_AFTER_DRAW
    return True


@njit(cache=True, inline="always")
def _win(g, seat, tile, kind, big, bao_kind, method):
    g[G_WINNER] = seat
    g[G_WIN_TILE] = tile
    g[G_WIN_KIND] = kind
    g[G_BIG] = 1 if big else 0
    g[G_BAO_KIND] = bao_kind
    g[G_METHOD] = method
    g[G_PHASE] = P_END


@njit(cache=True)
def _after_draw(rules, tabs, st, obs):
    """A ready seat wins on its draw (a self-drawn bao is wild); then the kongs it may declare."""
    g = st.g
    cur = g[G_CUR]
    drawn = g[G_DRAWN]
    if st.ready[cur] and drawn >= 0:
        if drawn == g[G_BAO]:  # RULES: bao wild only when self-drawn after ready
            wt, kd, bg, bk = bao_win_k(st.wk[cur], st.wb[cur], drawn, rules)
            if wt >= 0:
                _win(g, cur, wt, kd, bg, bk, SELF_DRAW)
        elif st.wk[cur, drawn] >= 0:
            _win(g, cur, drawn, st.wk[cur, drawn], st.wb[cur, drawn] != 0, NO_BAO, SELF_DRAW)
        if g[G_WINNER] >= 0:
            g[G_WIN_DRAWN] = drawn
            return
    lock = rules[R_LOCK_AFTER_READY] != 0
    g[G_PHASE] = P_DISCARD
    if (st.ready[cur] and lock) or g[G_FRONT] > g[G_BACK]:  # RULES: a locked hand declares no kong
        return
    n_opt = 0
    for t in range(28):
        st.kong_opts[t] = 0
        if st.conc[cur, t] == 4 and _meld_ok(st.nm[cur], rules):
            st.kong_opts[t] = OPT_CONCEALED_KONG
            n_opt += 1
    for j in range(st.nm[cur]):
        if st.mk[cur, j] == PENG and st.conc[cur, st.mt[cur, j]] >= 1:
            st.kong_opts[st.mt[cur, j]] = OPT_ADDED_KONG
            n_opt += 1
    if st.ready[cur] and n_opt > 0:
        n_opt = _keep_ready_kongs(
            st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], st.kong_opts, rules, tabs, obs.tk, obs.tb
        )
    if n_opt > 0:
        g[G_PHASE] = P_KONG


@njit(cache=True)
def _apply_kong(wall, rules, tabs, st, obs, log, kt):
    """Declare the kong ``kt`` (-1: none, go on to the discard): 换宝, then the replacement."""
    g = st.g
    cur = g[G_CUR]
    if kt < 0:
        g[G_PHASE] = P_DISCARD
        return
    log_on = log.shape[0] > 1
    if st.kong_opts[kt] == OPT_CONCEALED_KONG:
        j = st.nm[cur]
        st.conc[cur, kt] -= 4
        st.mk[cur, j] = CONCEALED_KONG
        st.mt[cur, j] = kt
        st.meld_from[cur, j] = -1
        st.nm[cur] += 1
        if log_on:
            _log(log, g, EV_CONCEALED_KONG, cur, kt, 0, 0)
    else:
        st.conc[cur, kt] -= 1
        st.visible[kt] += 1
        for j in range(st.nm[cur]):
            if st.mk[cur, j] == PENG and st.mt[cur, j] == kt:
                st.mk[cur, j] = ADDED_KONG
        if log_on:
            _log(log, g, EV_ADDED_KONG, cur, kt, 0, 0)
    obs.memo[cur, 0] = UNKNOWN
    if st.ready[cur]:
        wait_set_k(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], rules, tabs, st.wk[cur], st.wb[cur])
    kan = _check_bao(wall, rules, st, cur, log)
    if kan >= 0:
        _win(g, kan, g[G_BAO], KANCHAN, True, BAO_IN_BAO, SELF_DRAW)
        return
    if not _draw(wall, st, obs, log, True):
        g[G_PHASE] = P_END  # no replacement tile left: 荒庄


@njit(cache=True)
def _discard(rules, codes, knobs, tabs, st, obs, orow, log):
    """The current seat discards (a locked ready hand its draw) and may declare ready."""
    g = st.g
    cur = g[G_CUR]
    drawn = g[G_DRAWN]
    lock = rules[R_LOCK_AFTER_READY] != 0
    keep_ready = st.ready[cur] != 0 and not lock
    if st.ready[cur] and lock:
        d = drawn  # RULES: lock_after_ready — discard every non-winning draw
        declare = False
    else:
        observe(st, obs, cur, keep_ready)
        d, declare = dispatch.discard(codes[cur], knobs[cur], obs, rules, tabs)
    g[G_MUST_DECLARE] = 0
    st.conc[cur, d] -= 1
    st.visible[d] += 1
    st.pool[d] += 1
    g[G_DRAWN] = -1
    i = st.n_pond[cur]
    if i < MAX_POND:
        st.pond[cur, i] = d
        st.pond_flag[cur, i] = DRAWN_AND_THROWN if d == drawn else 0
        st.n_pond[cur] = i + 1
    newly_ready = False
    if keep_ready:
        if (
            wait_set_k(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], rules, tabs, st.wk[cur], st.wb[cur])
            == 0
        ):
            st.ready[cur] = 0
    elif declare and not st.ready[cur]:
        newly_ready = _declare(rules, tabs, st, obs, orow, cur)
        if newly_ready and i < MAX_POND:
            st.pond_flag[cur, i] |= DECLARED
    if log.shape[0] > 1:
        _log(log, g, EV_DISCARD, cur, d, np.int64(newly_ready), 0)
        if newly_ready:
            _log(log, g, EV_READY, cur, g[G_BAO], orow[O_READY_WAIT + cur], orow[O_READY_OUTS + cur])
    g[G_DISCARD] = d
    g[G_NEWLY_READY] = 1 if newly_ready else 0
    g[G_PHASE] = P_CLAIMS


@njit(cache=True)
def _declare(rules, tabs, st, obs, orow, cur):
    """Declare ready if the 13 tiles left wait and the seat may declare; record the wait."""
    n_w = wait_set_k(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], rules, tabs, st.wk[cur], st.wb[cur])
    if n_w == 0 or not may_declare_k(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], rules):
        st.wk[cur, :] = -1
        return False
    st.ready[cur] = 1
    st.ready_draw[cur] = st.own_draws[cur]
    unseen = obs.sc[0]
    unseen_counts(st.conc[cur], st.mk[cur], st.mt[cur], st.nm[cur], st.visible, unseen)
    outs = 0
    kind = 99
    mask = 0
    for w in range(28):
        if st.wk[cur, w] >= 0:
            outs += unseen[w]
            mask |= 1 << st.wk[cur, w]
            if st.wk[cur, w] < kind:
                kind = st.wk[cur, w]
    orow[O_READY_TURN + cur] = st.own_draws[cur]
    orow[O_READY_WAIT + cur] = kind
    orow[O_READY_OUTS + cur] = outs
    orow[O_READY_WAIT_TILES + cur] = n_w
    orow[O_READY_WAIT_MASK + cur] = mask
    return True


@njit(cache=True)
def _claims(rules, tabs, st, obs):
    """After a discard: a win (first ready seat in turn order), 宝卡, then whom to ask for a
    peng or kong, else for a chi."""
    g = st.g
    cur = g[G_CUR]
    d = g[G_DISCARD]
    claimable = g[G_LAST_LIVE] > rules[R_LAST_TILES_NO_CLAIM]  # RULES: 荒庄前最后四张
    g[G_CLAIMER] = -1
    g[G_ACTION] = PASS
    if claimable:
        for k in range(1, 4):  # RULES: 截和 — first ready seat in turn order wins
            s = (cur + k) % 4
            if st.ready[s] and st.wk[s, d] >= 0:
                _win(g, s, d, st.wk[s, d], st.wb[s, d] != 0, NO_BAO, DEAL_IN)
                g[G_DISCARDER] = cur
                g[G_DISCARDER_READY] = 1 if st.ready[cur] else 0
                return
    bao = g[G_BAO]
    if g[G_NEWLY_READY] and rules[R_BAO_KAN_INSTANT] and st.wk[cur, bao] == KANCHAN:  # RULES: 宝卡
        _win(g, cur, bao, KANCHAN, True, BAO_IN_BAO, SELF_DRAW)
        return
    g[G_PHASE] = P_AFTER_CLAIMS
    if not claimable:
        return
    if rules[R_LOCK_AFTER_READY]:
        for r in range(4):
            if st.ready[r] and not (r == cur and g[G_NEWLY_READY]):
                st.safe[r, d] = 1
    for k in range(1, 4):
        s = (cur + k) % 4
        if st.ready[s] or st.conc[s, d] < 2 or not _meld_ok(st.nm[s], rules):
            continue
        opts = 1 << CLAIM_PENG
        if st.conc[s, d] == 3 and g[G_FRONT] <= g[G_BACK]:
            opts |= 1 << CLAIM_KONG
        g[G_ASK_SEAT] = s
        g[G_ASK_OPTS] = opts
        g[G_PHASE] = P_PENG_ASK
        return  # at most one other seat holds two copies
    _next_chi(rules, tabs, st, obs, 1)


@njit(cache=True)
def _next_chi(rules, tabs, st, obs, k0):
    """Ask the next seat (offset ``k0`` or later) that may chi the discard, else go on."""
    g = st.g
    cur = g[G_CUR]
    d = g[G_DISCARD]
    g[G_PHASE] = P_AFTER_CLAIMS
    if d == ZHONG:
        return
    for k in range(k0, 4):
        s = (cur + k) % 4
        if st.ready[s] or not _meld_ok(st.nm[s], rules):
            continue
        if k != 1 and not rules[R_CHI_ANY_SEAT_FOR_READY]:
            return  # RULES: chi only from the previous seat (上家)
        opts = _chi_options_seat(st.conc, s, d)
        if k != 1:  # RULES: 上听吃三家 — only a chi that makes the hand ready
            for a in (CHI_LOW, CHI_MID, CHI_HIGH):
                if opts & (1 << a) and not _chi_makes_ready(
                    st.conc[s], st.mk[s], st.mt[s], st.nm[s], d, a, rules, tabs, obs.tk, obs.tb
                ):
                    opts &= ~(1 << a)
        if opts == 0:
            continue
        g[G_ASK_SEAT] = s
        g[G_ASK_OPTS] = opts
        g[G_CHI_K] = k
        g[G_PHASE] = P_CHI_ASK
        return


@njit(cache=True)
def _answer_claim(rules, tabs, st, obs, a):
    """The asked seat's answer ``a`` to a peng/kong or chi offer."""
    g = st.g
    if a != PASS:
        g[G_CLAIMER] = g[G_ASK_SEAT]
        g[G_ACTION] = a
        if g[G_PHASE] == P_CHI_ASK:
            g[G_MUST_DECLARE] = 1 if g[G_CHI_K] != 1 else 0
        g[G_PHASE] = P_AFTER_CLAIMS
    elif g[G_PHASE] == P_PENG_ASK:
        _next_chi(rules, tabs, st, obs, 1)
    else:
        _next_chi(rules, tabs, st, obs, g[G_CHI_K] + 1)


@njit(cache=True)
def _after_claims(wall, rules, st, obs, log):
    """Make the claim, replace the bao (换宝) and pass the turn."""
    g = st.g
    cur = g[G_CUR]
    d = g[G_DISCARD]
    s = g[G_CLAIMER]
    action = g[G_ACTION]
    if s >= 0:
        _take_claim(st, obs, log, cur, s, d, action)
    if rules[R_BAO_REPLACEMENT] and st.visible[g[G_BAO]] >= 3:
        kan = _check_bao(wall, rules, st, cur, log)
        if kan >= 0:
            _win(g, kan, g[G_BAO], KANCHAN, True, BAO_IN_BAO, SELF_DRAW)
            return
    if s < 0:
        g[G_CUR] = (cur + 1) % 4
        g[G_PHASE] = P_DRAW
        return
    g[G_CUR] = s
    g[G_PHASE] = P_DISCARD
    if action == CLAIM_KONG and not _draw(wall, st, obs, log, True):
        g[G_PHASE] = P_END


@njit(cache=True)
def _take_claim(st, obs, log, cur, s, d, action):
    st.pool[d] -= 1
    i = st.n_pond[cur] - 1
    if 0 <= i < MAX_POND:
        st.pond_flag[cur, i] |= CLAIMED
        st.pond_claimer[cur, i] = s
    j = st.nm[s]
    if action == CLAIM_PENG:
        st.conc[s, d] -= 2
        st.visible[d] += 2
        st.mk[s, j] = PENG
        st.mt[s, j] = d
    elif action == CLAIM_KONG:
        st.conc[s, d] -= 3
        st.visible[d] += 3
        st.mk[s, j] = KONG
        st.mt[s, j] = d
    else:
        low = d - (action - CHI_LOW)
        for x in range(low, low + 3):
            if x != d:
                st.conc[s, x] -= 1
                st.visible[x] += 1
        st.mk[s, j] = CHI
        st.mt[s, j] = low
    st.meld_from[s, j] = cur
    st.nm[s] += 1
    obs.memo[s, 0] = UNKNOWN
    if log.shape[0] > 1:
        _log(log, st.g, EV_CLAIM, s, d, action, cur)


@njit(cache=True)
def _check_bao(wall, rules, st, cur, log):
    """换宝: while three copies of the bao's kind are visible, the last live tile becomes the
    bao. Returns the seat that wins by 宝卡 on a new bao, else -1."""
    g = st.g
    if rules[R_BAO_REPLACEMENT] == 0:
        return -1
    while st.visible[g[G_BAO]] >= 3 and g[G_FRONT] <= g[G_BACK]:
        st.dead[g[G_BAO]] += 1
        old = g[G_BAO]
        g[G_BAO] = wall[g[G_BACK]]
        g[G_BACK] -= 1
        g[G_N_REPL] += 1
        if log.shape[0] > 1:
            _log(log, g, EV_BAO_REPLACED, -1, g[G_BAO], old, 0)
        if rules[R_BAO_KAN_INSTANT]:  # RULES: 宝卡 on every bao replacement (DECISIONS #10)
            for k in range(4):
                s = (cur + k) % 4
                if st.ready[s] and st.wk[s, g[G_BAO]] == KANCHAN:
                    return s
    return -1


# ---------------------------------------------------------------------------- settle and record
@njit(cache=True)
def record_deal(wall, dealer, rules, st, orow, hrow, rec_hand, log):
    """Settle the deal and write its row (and the winner's hand when ``rec_hand``)."""
    g = st.g
    for s in range(4):
        st.concealed[s] = 0 if is_open_k(st.mk[s], st.nm[s]) else 1
        orow[O_CONCEALED + s] = st.concealed[s]
        orow[O_OWN_DRAWS + s] = st.own_draws[s]
    orow[O_DRAWS] = g[G_N_DRAWS]
    orow[O_BAO_REPLACEMENTS] = g[G_N_REPL]
    orow[O_FINAL_BAO] = g[G_BAO]
    orow[O_WINNER_KONGS] = 0
    winner = g[G_WINNER]
    log_on = log.shape[0] > 1
    if winner < 0:
        if log_on:
            _log(log, g, EV_EXHAUSTIVE, -1, -1, 0, 0)
        return
    kongs = 0
    for j in range(st.nm[winner]):
        if st.mk[winner, j] == KONG or st.mk[winner, j] == CONCEALED_KONG or st.mk[winner, j] == ADDED_KONG:
            kongs += 1
    method = g[G_METHOD]
    ready_in = g[G_DISCARDER_READY] != 0
    settle_kernel(
        winner,
        dealer,
        method,
        g[G_DISCARDER],
        ready_in,
        g[G_BIG] != 0,
        g[G_BAO_KIND],
        st.concealed,
        kongs,
        rules,
        st.pay,
        st.fans,
    )
    if method == SELF_DRAW:
        orow[O_OUTCOME] = WIN_SELF_DRAW
    else:
        orow[O_OUTCOME] = WIN_DEAL_IN if ready_in else WIN_DEAL_IN_NOT_READY
    orow[O_WINNER] = winner
    orow[O_DISCARDER] = g[G_DISCARDER]
    orow[O_DISCARDER_READY] = 1 if ready_in else 0
    orow[O_BIG] = g[G_BIG]
    orow[O_BAO] = g[G_BAO_KIND]
    orow[O_WAIT] = g[G_WIN_KIND]
    orow[O_WIN_TILE] = g[G_WIN_TILE]
    orow[O_WINNER_KONGS] = kongs
    for s in range(4):
        orow[O_PAY + s] = st.pay[s]
        orow[O_FANS + s] = st.fans[s]
    if rec_hand:
        for t in range(28):
            hrow[t] = st.conc[winner, t]
        if g[G_WIN_DRAWN] >= 0:
            hrow[g[G_WIN_DRAWN]] -= 1  # the 13-tile hand before the win
        for j in range(4):
            hrow[H_MK + j] = st.mk[winner, j]
            hrow[H_MT + j] = st.mt[winner, j]
        hrow[H_NM] = st.nm[winner]
    if log_on:
        _log(log, g, EV_WIN, winner, g[G_WIN_TILE], method, g[G_DISCARDER])


@njit(cache=True)
def final_tiles(wall, st, frow):
    """Where all 112 tiles are at the end: each seat's (concealed + melds), the unclaimed
    discards, and the rest (live wall, current and replaced baos)."""
    for s in range(4):
        for t in range(28):
            frow[s, t] = st.conc[s, t]
        for j in range(st.nm[s]):
            t = st.mt[s, j]
            if st.mk[s, j] == CHI:
                frow[s, t] += 1
                frow[s, t + 1] += 1
                frow[s, t + 2] += 1
            elif st.mk[s, j] == PENG:
                frow[s, t] += 3
            else:
                frow[s, t] += 4
    for t in range(28):
        frow[F_POOL, t] = st.pool[t]
        frow[F_REST, t] = st.dead[t]
    frow[F_REST, st.g[G_BAO]] += 1
    for p in range(st.g[G_FRONT], st.g[G_BACK] + 1):
        frow[F_REST, wall[p]] += 1
