"""The jitted four-player deal kernel (docs/RULES.md, every mechanic) over a
:class:`~daqing_sim.game.state.DealState`.

:func:`play_batch_k` plays a batch of walls (layout in :mod:`daqing_sim.game.wall`) and writes
one row of integers per deal into ``out`` (columns ``O_*``). Optional outputs: the winner's
13-tile hand (``out_hand``), the final whereabouts of all 112 tiles (``out_final``, for
conservation checks) and an event log of one deal (``log``, for :mod:`daqing_sim.game.replay`).

A deal is one loop over three phases (draw and self-draw win with own-turn kongs; discard and
declare; claims, 换宝 and the next turn) in one function: numba counts references on every array
handed to a called function, so splitting the loop into phase functions over the state bundle
cost more than half the speed of random deals (measured, docs/DESIGN.md). Decisions are asked
of the players through :mod:`daqing_sim.players.dispatch`, each on an
:class:`~daqing_sim.players.observation.Observation` built by :func:`daqing_sim.game.state.observe`;
players with a table-free fast path (random, scripted) answer from their own arrays. The wall,
other hands and (before ready) the bao stay here.

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
    R_BACK,
    R_BAO,
    R_BAO_KIND,
    R_BIG,
    R_DISCARDER,
    R_DISCARDER_READY,
    R_FRONT,
    R_METHOD,
    R_N_DRAWS,
    R_N_REPL,
    R_WIN_DRAWN,
    R_WIN_KIND,
    R_WIN_TILE,
    R_WINNER,
    observe,
)
from daqing_sim.game.wall import BAO_POSITION, LIVE_START, N_LIVE
from daqing_sim.hand.kernels import bao_win_k, is_open_k, may_declare_k, std_shanten_k, wait_set_k
from daqing_sim.players import dispatch
from daqing_sim.players.common import maybe_ready, splitmix64, unseen_counts
from daqing_sim.players.observation import CLAIMED, DECLARED, DRAWN_AND_THROWN, MAX_POND, UNKNOWN
from daqing_sim.rules import (
    R_BAO_KAN_INSTANT,
    R_BAO_REPLACEMENT,
    R_CHI_ANY_SEAT_FOR_READY,
    R_LAST_TILES_NO_CLAIM,
    R_LOCK_AFTER_READY,
    R_MIN_CONCEALED_AT_READY,
    R_REQUIRE_OPEN,
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

_DRAW, _AFTER_DRAW, _DISCARD = 0, 1, 2


@njit(cache=True, inline="always")
def _log(log, n_log, code, seat, tile, a, b):
    if n_log < log.shape[0]:
        log[n_log, 0] = code
        log[n_log, 1] = seat
        log[n_log, 2] = tile
        log[n_log, 3] = a
        log[n_log, 4] = b
    return n_log + 1


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


@njit(cache=True)
def _ask_claim(codes, knobs, st, obs, dealer, left, s, rules, tabs, d, opts):
    """Seat ``s``'s answer to the claim options ``opts`` on discard ``d``, from its observation."""
    observe(st, obs, s, dealer, left, -1, -1, False, False)
    return dispatch.claim(codes[s], knobs[s], obs, rules, tabs, d, opts)


@njit(cache=True)
def play_batch_k(
    walls, deal_seeds, dealer, rules, codes, knobs, simple, tabs, st, obs, out, out_hand, out_final, log
):
    """Play every wall of ``walls`` (n, 112); returns the number of events of the last deal.

    ``simple[code]`` marks players with a table-free fast path (:mod:`daqing_sim.players.dispatch`);
    ``st`` and ``obs`` come from :func:`daqing_sim.game.state.new_deal_state`. ``out`` (n, N_OUT)
    int32 is filled; ``out_hand`` (n, H_WIDTH) int8 and ``out_final`` (n, 6, 28) int8 are filled
    when their first dimension is n; ``log`` (m, 5) int16 gets the events of the last deal when
    ``m > 1``.
    """
    n = walls.shape[0]
    rec_hand = out_hand.shape[0] == n
    rec_final = out_final.shape[0] == n
    n_log = 0
    for i in range(n):
        hrow = out_hand[i] if rec_hand else out_hand[0]
        n_log = _play_deal(
            walls[i], deal_seeds[i], dealer, rules, codes, knobs, simple, tabs, st, obs, out[i], log
        )
        _record(rules, dealer, st, out[i], hrow, rec_hand)
        if rec_final:
            final_tiles(walls[i], st, out_final[i])
    return n_log


@njit(cache=True)
def _play_deal(wall, seed, dealer, rules, codes, knobs, simple, tabs, st, obs, orow, log):
    """Play one deal on ``st`` (its final tiles, melds and result scalars are left there for
    :func:`_record`). Returns the number of events logged."""
    conc = st.conc
    mk = st.mk
    mt = st.mt
    nm = st.nm
    meld_from = st.meld_from
    visible = st.visible
    pool = st.pool
    dead = st.dead
    ready = st.ready
    ready_draw = st.ready_draw
    wk = st.wk
    wb = st.wb
    safe = st.safe
    own_draws = st.own_draws
    pond = st.pond
    pond_flag = st.pond_flag
    pond_claimer = st.pond_claimer
    n_pond = st.n_pond
    kong_opts = st.kong_opts
    res = st.result
    rng = obs.rng
    memo = obs.memo
    sc = obs.sc
    tk = obs.tk
    tb = obs.tb
    log_on = log.shape[0] > 1
    meld_from[:] = -1
    ready_draw[:] = -1
    n_pond[:] = 0
    pond_claimer[:] = -1
    pond_flag[:] = 0
    conc[:] = 0
    mk[:] = 0
    mt[:] = 0
    nm[:] = 0
    visible[:] = 0
    pool[:] = 0
    dead[:] = 0
    ready[:] = 0
    wk[:] = -1
    wb[:] = 0
    safe[:] = 0
    own_draws[:] = 0
    memo[:, 0] = UNKNOWN
    memo[:, 1:] = 0
    for k in range(N_OUT):
        orow[k] = -1
    orow[O_OUTCOME] = EXHAUSTIVE_DRAW
    orow[O_BIG] = 0
    orow[O_BAO] = NO_BAO
    orow[O_DISCARDER_READY] = 0
    for s in range(4):
        orow[O_PAY + s] = 0
        orow[O_READY_WAIT_TILES + s] = 0
        orow[O_READY_WAIT_MASK + s] = 0
        rng[s] = splitmix64(seed ^ (np.uint64(s + 1) * np.uint64(0xD1B54A32D192ED03)))
    pos = 0
    for k in range(4):
        s = (dealer + k) % 4
        for _ in range(14 if k == 0 else 13):
            conc[s, wall[pos]] += 1
            pos += 1
    bao = np.int64(wall[BAO_POSITION])
    front = LIVE_START
    back = wall.shape[0] - 1
    n_draws = 0
    n_repl = 0
    n_log = 0
    L = rules[R_LAST_TILES_NO_CLAIM]
    lock = rules[R_LOCK_AFTER_READY] != 0
    cur = dealer
    phase = _AFTER_DRAW
    drawn = -1
    last_live = N_LIVE + 1  # the dealer's first discard follows no draw
    must_declare = False
    # result
    winner = -1
    method = SELF_DRAW
    discarder = -1
    discarder_ready = True
    win_tile = -1
    win_kind = -1
    big = False
    bao_kind = NO_BAO
    win_drawn = -1
    while True:
        if phase == _DRAW:
            if front > back:
                break  # RULES: 荒庄
            last_live = back - front + 1
            drawn = np.int64(wall[front])
            front += 1
            conc[cur, drawn] += 1
            n_draws += 1
            own_draws[cur] += 1
            memo[cur, 0] = UNKNOWN
            if log_on:
                n_log = _log(log, n_log, EV_DRAW, cur, drawn, 0, back - front + 1)
            phase = _AFTER_DRAW
        if phase == _AFTER_DRAW:
            if ready[cur] and drawn >= 0:
                if drawn == bao:  # RULES: bao wild only when self-drawn after ready
                    wt, kd, bg, bk = bao_win_k(wk[cur], wb[cur], drawn, rules)
                    if wt >= 0:
                        winner, win_tile, win_kind, big, bao_kind = cur, wt, kd, bg, bk
                elif wk[cur, drawn] >= 0:
                    winner, win_tile, win_kind, big = cur, drawn, wk[cur, drawn], wb[cur, drawn] != 0
                if winner >= 0:
                    method = SELF_DRAW
                    win_drawn = drawn
                    break
            if not (ready[cur] and lock) and front <= back:  # RULES: a locked hand declares no kong
                n_opt = 0
                for t in range(28):
                    kong_opts[t] = 0
                    if conc[cur, t] == 4 and _meld_ok(nm[cur], rules):
                        kong_opts[t] = OPT_CONCEALED_KONG
                        n_opt += 1
                for j in range(nm[cur]):
                    if mk[cur, j] == PENG and conc[cur, mt[cur, j]] >= 1:
                        kong_opts[mt[cur, j]] = OPT_ADDED_KONG
                        n_opt += 1
                if ready[cur] and n_opt > 0:
                    n_opt = _keep_ready_kongs(
                        conc[cur], mk[cur], mt[cur], nm[cur], kong_opts, rules, tabs, tk, tb
                    )
                if n_opt > 0:
                    left = back - front + 1
                    if simple[codes[cur]]:
                        kt = dispatch.simple_kong(codes[cur], knobs[cur], kong_opts, rng, cur)
                    else:
                        observe(
                            st,
                            obs,
                            cur,
                            dealer,
                            left,
                            bao if ready[cur] else -1,
                            drawn,
                            False,
                            ready[cur] != 0,
                        )
                        kt = dispatch.kong(codes[cur], knobs[cur], obs, rules, tabs, kong_opts)
                    if kt >= 0:
                        if kong_opts[kt] == OPT_CONCEALED_KONG:
                            conc[cur, kt] -= 4
                            mk[cur, nm[cur]] = CONCEALED_KONG
                            mt[cur, nm[cur]] = kt
                            meld_from[cur, nm[cur]] = -1
                            nm[cur] += 1
                            if log_on:
                                n_log = _log(log, n_log, EV_CONCEALED_KONG, cur, kt, 0, 0)
                        else:
                            conc[cur, kt] -= 1
                            visible[kt] += 1
                            for j in range(nm[cur]):
                                if mk[cur, j] == PENG and mt[cur, j] == kt:
                                    mk[cur, j] = ADDED_KONG
                            if log_on:
                                n_log = _log(log, n_log, EV_ADDED_KONG, cur, kt, 0, 0)
                        memo[cur, 0] = UNKNOWN
                        if ready[cur]:
                            wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, wk[cur], wb[cur])
                        bao, back, n_repl, n_log, kan = _check_bao(
                            wall,
                            rules,
                            visible,
                            bao,
                            front,
                            back,
                            n_repl,
                            dead,
                            ready,
                            wk,
                            cur,
                            log,
                            log_on,
                            n_log,
                        )
                        if kan >= 0:
                            winner, win_tile, win_kind, big, bao_kind = kan, bao, KANCHAN, True, BAO_IN_BAO
                            method = SELF_DRAW
                            break
                        if front > back:
                            break  # no replacement tile left: 荒庄
                        last_live = back - front + 1
                        drawn = np.int64(wall[back])  # RULES: kong replacement from the back
                        back -= 1
                        conc[cur, drawn] += 1
                        n_draws += 1
                        own_draws[cur] += 1
                        if log_on:
                            n_log = _log(log, n_log, EV_DRAW, cur, drawn, 1, back - front + 1)
                        continue
            phase = _DISCARD
        # ---- discard
        keep_ready = ready[cur] != 0 and not lock
        if ready[cur] and lock:
            d = drawn  # RULES: lock_after_ready — discard every non-winning draw
            declare = False
        elif simple[codes[cur]] and not must_declare and not keep_ready:
            # the table-free players skip the observation and the hand tables (each costs per call)
            d = dispatch.simple_discard(codes[cur], knobs[cur], conc[cur], drawn, memo[cur], rng, cur)
            conc[cur, d] -= 1
            # cheap necessary conditions first (a meld for the open door, a tenpai-like shape)
            declare = (nm[cur] > 0 or not rules[R_REQUIRE_OPEN]) and maybe_ready(conc[cur])
            if declare:
                declare = std_shanten_k(conc[cur], tabs) == 0
            if declare:
                declare = may_declare_k(conc[cur], mk[cur], mt[cur], nm[cur], rules)
            if declare:
                declare = wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, tk, tb) > 0
            conc[cur, d] += 1
        else:
            seen_bao = bao if ready[cur] else -1  # RULES: only a ready player sees the bao
            observe(st, obs, cur, dealer, back - front + 1, seen_bao, drawn, must_declare, keep_ready)
            d, declare = dispatch.discard(codes[cur], knobs[cur], obs, rules, tabs)
        must_declare = False
        conc[cur, d] -= 1
        visible[d] += 1
        pool[d] += 1
        i_pond = n_pond[cur]
        if i_pond < MAX_POND:
            pond[cur, i_pond] = d
            pond_flag[cur, i_pond] = DRAWN_AND_THROWN if d == drawn else 0
            n_pond[cur] = i_pond + 1
        drawn = -1
        newly_ready = False
        if keep_ready:
            if wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, wk[cur], wb[cur]) == 0:
                ready[cur] = 0
        elif declare and not ready[cur]:
            n_w = wait_set_k(conc[cur], mk[cur], mt[cur], nm[cur], rules, tabs, wk[cur], wb[cur])
            if n_w > 0 and may_declare_k(conc[cur], mk[cur], mt[cur], nm[cur], rules):
                ready[cur] = 1
                newly_ready = True
                ready_draw[cur] = own_draws[cur]
                if i_pond < MAX_POND:
                    pond_flag[cur, i_pond] |= DECLARED
                unseen = sc[0]
                unseen_counts(conc[cur], mk[cur], mt[cur], nm[cur], visible, unseen)
                outs = 0
                kind = 99
                mask = 0
                for w in range(28):
                    if wk[cur, w] >= 0:
                        outs += unseen[w]
                        mask |= 1 << wk[cur, w]
                        if wk[cur, w] < kind:
                            kind = wk[cur, w]
                orow[O_READY_WAIT_TILES + cur] = n_w
                orow[O_READY_WAIT_MASK + cur] = mask
                orow[O_READY_TURN + cur] = own_draws[cur]
                orow[O_READY_WAIT + cur] = kind
                orow[O_READY_OUTS + cur] = outs
            else:
                wk[cur, :] = -1
        if log_on:
            n_log = _log(log, n_log, EV_DISCARD, cur, d, np.int64(newly_ready), 0)
            if newly_ready:
                n_log = _log(
                    log, n_log, EV_READY, cur, bao, orow[O_READY_WAIT + cur], orow[O_READY_OUTS + cur]
                )
        claimable = last_live > L  # RULES: 荒庄前最后四张
        if claimable:
            for k in range(1, 4):  # RULES: 截和 — first ready seat in turn order wins
                s = (cur + k) % 4
                if ready[s] and wk[s, d] >= 0:
                    winner, win_tile, win_kind, big = s, d, wk[s, d], wb[s, d] != 0
                    method = DEAL_IN
                    discarder = cur
                    discarder_ready = ready[cur] != 0
                    break
            if winner >= 0:
                break
        if rules[R_BAO_REPLACEMENT] and visible[bao] >= 3:  # RULES: 换宝 at the discard, before claims
            bao, back, n_repl, n_log, kan = _check_bao(
                wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log
            )
            if kan >= 0:  # RULES: a win (宝卡 included) beats a peng or chi
                winner, win_tile, win_kind, big, bao_kind = kan, bao, KANCHAN, True, BAO_IN_BAO
                method = SELF_DRAW
                break
        if newly_ready and rules[R_BAO_KAN_INSTANT] and wk[cur, bao] == KANCHAN:  # RULES: 宝卡
            winner, win_tile, win_kind, big, bao_kind = cur, bao, KANCHAN, True, BAO_IN_BAO
            method = SELF_DRAW
            break
        if claimable and lock:
            for r in range(4):
                if ready[r] and not (r == cur and newly_ready):
                    safe[r, d] = 1
        claimer = -1
        action = PASS
        if claimable:
            for k in range(1, 4):
                s = (cur + k) % 4
                if ready[s] or conc[s, d] < 2 or not _meld_ok(nm[s], rules):
                    continue
                opts = 1 << CLAIM_PENG
                if conc[s, d] == 3 and front <= back:
                    opts |= 1 << CLAIM_KONG
                if simple[codes[s]]:
                    a = dispatch.simple_claim(codes[s], knobs[s], opts, rng, s)
                else:
                    a = _ask_claim(codes, knobs, st, obs, dealer, back - front + 1, s, rules, tabs, d, opts)
                if a != PASS:
                    claimer = s
                    action = a
                break  # at most one other seat holds two copies
            if claimer < 0 and d != ZHONG:
                for k in range(1, 4):
                    s = (cur + k) % 4
                    if ready[s] or not _meld_ok(nm[s], rules):
                        continue
                    if k != 1 and not rules[R_CHI_ANY_SEAT_FOR_READY]:
                        break  # RULES: chi only from the previous seat (上家)
                    opts = _chi_options_seat(conc, s, d)
                    if k != 1:  # RULES: 上听吃三家 — only a chi that makes the hand ready
                        for a in (CHI_LOW, CHI_MID, CHI_HIGH):
                            if opts & (1 << a) and not _chi_makes_ready(
                                conc[s], mk[s], mt[s], nm[s], d, a, rules, tabs, tk, tb
                            ):
                                opts &= ~(1 << a)
                    if opts == 0:
                        continue
                    if simple[codes[s]]:
                        a = dispatch.simple_claim(codes[s], knobs[s], opts, rng, s)
                    else:
                        a = _ask_claim(
                            codes, knobs, st, obs, dealer, back - front + 1, s, rules, tabs, d, opts
                        )
                    if a != PASS:
                        claimer = s
                        action = a
                        must_declare = k != 1
                        break
        if claimer >= 0:
            s = claimer
            pool[d] -= 1
            if 0 < n_pond[cur] <= MAX_POND:
                pond_flag[cur, n_pond[cur] - 1] |= CLAIMED
                pond_claimer[cur, n_pond[cur] - 1] = s
            j = nm[s]
            meld_from[s, j] = cur
            if action == CLAIM_PENG:
                conc[s, d] -= 2
                visible[d] += 2
                mk[s, j] = PENG
                mt[s, j] = d
            elif action == CLAIM_KONG:
                conc[s, d] -= 3
                visible[d] += 3
                mk[s, j] = KONG
                mt[s, j] = d
            else:
                low = d - (action - CHI_LOW)
                for x in range(low, low + 3):
                    if x != d:
                        conc[s, x] -= 1
                        visible[x] += 1
                mk[s, j] = CHI
                mt[s, j] = low
            nm[s] += 1
            memo[s, 0] = UNKNOWN
            if log_on:
                n_log = _log(log, n_log, EV_CLAIM, s, d, action, cur)
        kan = -1
        if rules[R_BAO_REPLACEMENT] and visible[bao] >= 3:
            bao, back, n_repl, n_log, kan = _check_bao(
                wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log
            )
        if kan >= 0:
            winner, win_tile, win_kind, big, bao_kind = kan, bao, KANCHAN, True, BAO_IN_BAO
            method = SELF_DRAW
            break
        if claimer >= 0:
            cur = claimer
            if action == CLAIM_KONG:
                if front > back:
                    break
                last_live = back - front + 1
                drawn = np.int64(wall[back])
                back -= 1
                conc[cur, drawn] += 1
                n_draws += 1
                own_draws[cur] += 1
                if log_on:
                    n_log = _log(log, n_log, EV_DRAW, cur, drawn, 1, back - front + 1)
                phase = _AFTER_DRAW
            else:
                phase = _DISCARD
        else:
            cur = (cur + 1) % 4
            phase = _DRAW

    res[R_WINNER] = winner
    res[R_METHOD] = method
    res[R_DISCARDER] = discarder
    res[R_DISCARDER_READY] = 1 if discarder_ready else 0
    res[R_WIN_TILE] = win_tile
    res[R_WIN_KIND] = win_kind
    res[R_BIG] = 1 if big else 0
    res[R_BAO_KIND] = bao_kind
    res[R_WIN_DRAWN] = win_drawn
    res[R_BAO] = bao
    res[R_FRONT] = front
    res[R_BACK] = back
    res[R_N_DRAWS] = n_draws
    res[R_N_REPL] = n_repl
    if log_on:
        if winner >= 0:
            n_log = _log(log, n_log, EV_WIN, winner, win_tile, method, discarder)
        else:
            n_log = _log(log, n_log, EV_EXHAUSTIVE, -1, -1, 0, 0)
    return n_log


@njit(cache=True)
def _record(rules, dealer, st, orow, hrow, rec_hand):
    """Settle the deal left in ``st`` and write its row (and the winner's hand when ``rec_hand``)."""
    res = st.result
    mk = st.mk
    mt = st.mt
    nm = st.nm
    conc = st.conc
    concealed = st.concealed
    for s in range(4):
        concealed[s] = 0 if is_open_k(mk[s], nm[s]) else 1
        orow[O_CONCEALED + s] = concealed[s]
        orow[O_OWN_DRAWS + s] = st.own_draws[s]
    orow[O_DRAWS] = res[R_N_DRAWS]
    orow[O_BAO_REPLACEMENTS] = res[R_N_REPL]
    orow[O_FINAL_BAO] = res[R_BAO]
    orow[O_WINNER_KONGS] = 0
    winner = res[R_WINNER]
    if winner < 0:
        return
    kongs = 0
    for j in range(nm[winner]):
        if mk[winner, j] == KONG or mk[winner, j] == CONCEALED_KONG or mk[winner, j] == ADDED_KONG:
            kongs += 1
    method = res[R_METHOD]
    ready_in = res[R_DISCARDER_READY] != 0
    pay = st.pay
    fans = st.fans
    settle_kernel(
        winner,
        dealer,
        method,
        res[R_DISCARDER],
        ready_in,
        res[R_BIG] != 0,
        res[R_BAO_KIND],
        concealed,
        kongs,
        rules,
        pay,
        fans,
    )
    if method == SELF_DRAW:
        orow[O_OUTCOME] = WIN_SELF_DRAW
    else:
        orow[O_OUTCOME] = WIN_DEAL_IN if ready_in else WIN_DEAL_IN_NOT_READY
    orow[O_WINNER] = winner
    orow[O_DISCARDER] = res[R_DISCARDER]
    orow[O_DISCARDER_READY] = 1 if ready_in else 0
    orow[O_BIG] = res[R_BIG]
    orow[O_BAO] = res[R_BAO_KIND]
    orow[O_WAIT] = res[R_WIN_KIND]
    orow[O_WIN_TILE] = res[R_WIN_TILE]
    orow[O_WINNER_KONGS] = kongs
    for s in range(4):
        orow[O_PAY + s] = pay[s]
        orow[O_FANS + s] = fans[s]
    if rec_hand:
        for t in range(28):
            hrow[t] = conc[winner, t]
        if res[R_WIN_DRAWN] >= 0:
            hrow[res[R_WIN_DRAWN]] -= 1  # the 13-tile hand before the win
        for j in range(4):
            hrow[H_MK + j] = mk[winner, j]
            hrow[H_MT + j] = mt[winner, j]
        hrow[H_NM] = nm[winner]


@njit(cache=True)
def final_tiles(wall, st, frow):
    """Where all 112 tiles are at the end: each seat's (concealed + melds), the unclaimed
    discards, and the rest (live wall, current and replaced baos)."""
    conc = st.conc
    mk = st.mk
    mt = st.mt
    nm = st.nm
    res = st.result
    for s in range(4):
        for t in range(28):
            frow[s, t] = conc[s, t]
        for j in range(nm[s]):
            t = mt[s, j]
            if mk[s, j] == CHI:
                frow[s, t] += 1
                frow[s, t + 1] += 1
                frow[s, t + 2] += 1
            elif mk[s, j] == PENG:
                frow[s, t] += 3
            else:
                frow[s, t] += 4
    for t in range(28):
        frow[F_POOL, t] = st.pool[t]
        frow[F_REST, t] = st.dead[t]
    frow[F_REST, res[R_BAO]] += 1
    for p in range(res[R_FRONT], res[R_BACK] + 1):
        frow[F_REST, wall[p]] += 1


@njit(cache=True)
def _check_bao(wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log):
    """换宝: while three copies of the bao's kind are visible, the last live tile becomes the
    bao. Returns (bao, back, n_repl, n_log, bao_kan_winner)."""
    kan = -1
    if rules[R_BAO_REPLACEMENT] == 0:
        return bao, back, n_repl, n_log, kan
    first = n_repl
    while visible[bao] >= 3 and front <= back:
        dead[bao] += 1
        old = bao
        bao = np.int64(wall[back])
        back -= 1
        n_repl += 1
        if log_on:
            n_log = _log(log, n_log, EV_BAO_REPLACED, -1, bao, old, 0)
    # RULES: 宝卡 on a new bao (DECISIONS #10), once it stands: a new bao with three copies
    # visible is replaced again at once, before anyone can win on it
    if rules[R_BAO_KAN_INSTANT] and n_repl > first and visible[bao] < 3:
        for k in range(4):
            s = (cur + k) % 4
            if ready[s] and wk[s, bao] == KANCHAN:
                return bao, back, n_repl, n_log, s
    return bao, back, n_repl, n_log, kan
