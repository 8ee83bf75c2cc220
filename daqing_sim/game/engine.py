"""The jitted four-player deal kernel (docs/RULES.md, every mechanic).

:func:`play_batch_k` plays a batch of walls (layout in :mod:`daqing_sim.game.wall`) and writes
one row of integers per deal into ``out`` (columns ``O_*``). Optional outputs: the
winner's 13-tile hand (``out_hand``), the final whereabouts of all 112 tiles
(``out_final``, for conservation checks) and an event log of one deal (``log``, for
:mod:`daqing_sim.game.replay`). Players' decisions come from :mod:`daqing_sim.players.strategies` and see
only their own observation; the wall, other hands and (before ready) the bao stay here.

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
from daqing_sim.game.wall import BAO_POSITION, LIVE_START, N_LIVE
from daqing_sim.hand.kernels import bao_win_k, may_declare_k, std_shanten_k, wait_set_k
from daqing_sim.players.strategies import (
    N_SCRATCH,
    RANDOM,
    SCRIPTED,
    UNKNOWN,
    choose_claim,
    choose_discard,
    choose_kong,
    maybe_ready,
    random_claim,
    random_discard,
    simple_claim,
    simple_discard,
    splitmix64,
    unseen_counts,
)
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
N_OUT = 36

# Outcome codes.


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


@njit(cache=True, inline="always")
def _is_open(mk, nm):
    for i in range(nm):
        if mk[i] != CONCEALED_KONG:
            return True
    return False


@njit(cache=True, inline="always")
def _ask_claim(
    codes, knobs, conc, mk, mt, nm, visible, ready, safe, left, s, rng, rules, tabs, d, opts, memo
):
    """Seat ``s``'s answer to the claim options ``opts`` on discard ``d``."""
    if codes[s] == RANDOM:
        return random_claim(opts, rng, s)
    if codes[s] == SCRIPTED:
        return simple_claim(codes[s], knobs[s], opts, rng, s)
    return choose_claim(
        codes[s],
        knobs[s],
        conc[s],
        mk[s],
        mt[s],
        nm[s],
        visible,
        ready,
        safe,
        left,
        -1,
        s,
        rng,
        rules,
        tabs,
        d,
        opts,
        memo[s],
    )


@njit(cache=True)
def play_batch_k(walls, deal_seeds, dealer, rules, codes, knobs, tabs, out, out_hand, out_final, log):
    """Play every wall of ``walls`` (n, 112); returns the number of events of the last deal.

    ``out`` (n, N_OUT) int32 is filled; ``out_hand`` (n, H_WIDTH) int8 and ``out_final``
    (n, 6, 28) int8 are filled when their first dimension is n; ``log`` (m, 5) int16 gets the
    events of the last deal when ``m > 1``.
    """
    n = walls.shape[0]
    conc = np.zeros((4, 28), dtype=np.uint8)
    mk = np.zeros((4, 4), dtype=np.int8)
    mt = np.zeros((4, 4), dtype=np.int8)
    nm = np.zeros(4, dtype=np.int64)
    visible = np.zeros(28, dtype=np.uint8)
    pool = np.zeros(28, dtype=np.uint8)
    dead = np.zeros(28, dtype=np.uint8)
    ready = np.zeros(4, dtype=np.uint8)
    wk = np.zeros((4, 28), dtype=np.int8)
    wb = np.zeros((4, 28), dtype=np.uint8)
    safe = np.zeros((4, 28), dtype=np.uint8)
    rng = np.zeros(4, dtype=np.uint64)
    own_draws = np.zeros(4, dtype=np.int64)
    memo = np.zeros((4, 4), dtype=np.int64)
    sc = np.zeros((N_SCRATCH, 28), dtype=np.int32)
    tk = np.zeros(28, dtype=np.int8)
    tb = np.zeros(28, dtype=np.uint8)
    kong_opts = np.zeros(28, dtype=np.int8)
    pay = np.zeros(4, dtype=np.int64)
    fans = np.zeros(4, dtype=np.int64)
    concealed = np.zeros(4, dtype=np.uint8)
    rec_hand = out_hand.shape[0] == n
    rec_final = out_final.shape[0] == n
    log_on = log.shape[0] > 1
    n_log = 0
    for i in range(n):
        hrow = out_hand[i] if rec_hand else out_hand[0]
        frow = out_final[i] if rec_final else out_final[0]
        n_log = _play_deal(
            walls[i],
            deal_seeds[i],
            dealer,
            rules,
            codes,
            knobs,
            tabs,
            out[i],
            hrow,
            frow,
            rec_hand,
            rec_final,
            log,
            log_on,
            conc,
            mk,
            mt,
            nm,
            visible,
            pool,
            dead,
            ready,
            wk,
            wb,
            safe,
            rng,
            own_draws,
            memo,
            sc,
            tk,
            tb,
            kong_opts,
            pay,
            fans,
            concealed,
        )
    return n_log


@njit(cache=True)
def _play_deal(
    wall,
    seed,
    dealer,
    rules,
    codes,
    knobs,
    tabs,
    orow,
    hrow,
    frow,
    rec_hand,
    rec_final,
    log,
    log_on,
    conc,
    mk,
    mt,
    nm,
    visible,
    pool,
    dead,
    ready,
    wk,
    wb,
    safe,
    rng,
    own_draws,
    memo,
    sc,
    tk,
    tb,
    kong_opts,
    pay,
    fans,
    concealed,
):
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
                    kt = choose_kong(
                        codes[cur],
                        knobs[cur],
                        conc[cur],
                        mk[cur],
                        mt[cur],
                        nm[cur],
                        visible,
                        ready,
                        safe,
                        back - front + 1,
                        -1,
                        cur,
                        rng,
                        rules,
                        tabs,
                        kong_opts,
                    )
                    if kt >= 0:
                        if kong_opts[kt] == OPT_CONCEALED_KONG:
                            conc[cur, kt] -= 4
                            mk[cur, nm[cur]] = CONCEALED_KONG
                            mt[cur, nm[cur]] = kt
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
        elif (codes[cur] == RANDOM or codes[cur] == SCRIPTED) and not must_declare and not keep_ready:
            # the cheap strategies skip the hand tables (each call passing them costs)
            if codes[cur] == RANDOM:
                d = random_discard(conc[cur], rng, cur)
            else:
                d = simple_discard(codes[cur], knobs[cur], conc[cur], drawn, memo[cur], rng, cur)
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
            d, declare, sh = choose_discard(
                codes[cur],
                knobs[cur],
                conc[cur],
                mk[cur],
                mt[cur],
                nm[cur],
                visible,
                ready,
                safe,
                back - front + 1,
                seen_bao,
                cur,
                rng,
                rules,
                tabs,
                drawn,
                memo[cur],
                must_declare,
                keep_ready,
                sc,
                tk,
                tb,
            )
            memo[cur, 0] = sh
        must_declare = False
        conc[cur, d] -= 1
        visible[d] += 1
        pool[d] += 1
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
                unseen = sc[0]
                unseen_counts(conc[cur], mk[cur], mt[cur], nm[cur], visible, unseen)
                outs = 0
                kind = 99
                for w in range(28):
                    if wk[cur, w] >= 0:
                        outs += unseen[w]
                        if wk[cur, w] < kind:
                            kind = wk[cur, w]
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
                a = _ask_claim(
                    codes,
                    knobs,
                    conc,
                    mk,
                    mt,
                    nm,
                    visible,
                    ready,
                    safe,
                    back - front + 1,
                    s,
                    rng,
                    rules,
                    tabs,
                    d,
                    opts,
                    memo,
                )
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
                    a = _ask_claim(
                        codes,
                        knobs,
                        conc,
                        mk,
                        mt,
                        nm,
                        visible,
                        ready,
                        safe,
                        back - front + 1,
                        s,
                        rng,
                        rules,
                        tabs,
                        d,
                        opts,
                        memo,
                    )
                    if a != PASS:
                        claimer = s
                        action = a
                        must_declare = k != 1
                        break
        if claimer >= 0:
            s = claimer
            pool[d] -= 1
            j = nm[s]
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

    # ---- settle and record
    for s in range(4):
        concealed[s] = 0 if _is_open(mk[s], nm[s]) else 1
        orow[O_CONCEALED + s] = concealed[s]
    orow[O_DRAWS] = n_draws
    orow[O_BAO_REPLACEMENTS] = n_repl
    orow[O_FINAL_BAO] = bao
    orow[O_WINNER_KONGS] = 0
    if winner >= 0:
        kongs = 0
        for j in range(nm[winner]):
            if mk[winner, j] == KONG or mk[winner, j] == CONCEALED_KONG or mk[winner, j] == ADDED_KONG:
                kongs += 1
        settle_kernel(
            winner,
            dealer,
            method,
            discarder,
            discarder_ready,
            big,
            bao_kind,
            concealed,
            kongs,
            rules,
            pay,
            fans,
        )
        if method == SELF_DRAW:
            orow[O_OUTCOME] = WIN_SELF_DRAW
        elif discarder_ready:
            orow[O_OUTCOME] = WIN_DEAL_IN
        else:
            orow[O_OUTCOME] = WIN_DEAL_IN_NOT_READY
        orow[O_WINNER] = winner
        orow[O_DISCARDER] = discarder
        orow[O_DISCARDER_READY] = 1 if discarder_ready else 0
        orow[O_BIG] = 1 if big else 0
        orow[O_BAO] = bao_kind
        orow[O_WAIT] = win_kind
        orow[O_WIN_TILE] = win_tile
        orow[O_WINNER_KONGS] = kongs
        for s in range(4):
            orow[O_PAY + s] = pay[s]
            orow[O_FANS + s] = fans[s]
        if rec_hand:
            for t in range(28):
                hrow[t] = conc[winner, t]
            if win_drawn >= 0:
                hrow[win_drawn] -= 1  # the 13-tile hand before the win
            for j in range(4):
                hrow[H_MK + j] = mk[winner, j]
                hrow[H_MT + j] = mt[winner, j]
            hrow[H_NM] = nm[winner]
        if log_on:
            n_log = _log(log, n_log, EV_WIN, winner, win_tile, method, discarder)
    elif log_on:
        n_log = _log(log, n_log, EV_EXHAUSTIVE, -1, -1, 0, 0)
    if rec_final:
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
            frow[F_POOL, t] = pool[t]
            frow[F_REST, t] = dead[t]
        frow[F_REST, bao] += 1
        for p in range(front, back + 1):
            frow[F_REST, wall[p]] += 1
    return n_log


@njit(cache=True)
def _check_bao(wall, rules, visible, bao, front, back, n_repl, dead, ready, wk, cur, log, log_on, n_log):
    """换宝: while three copies of the bao's kind are visible, the last live tile becomes the
    bao. Returns (bao, back, n_repl, n_log, bao_kan_winner)."""
    kan = -1
    if rules[R_BAO_REPLACEMENT] == 0:
        return bao, back, n_repl, n_log, kan
    while visible[bao] >= 3 and front <= back:
        dead[bao] += 1
        old = bao
        bao = np.int64(wall[back])
        back -= 1
        n_repl += 1
        if log_on:
            n_log = _log(log, n_log, EV_BAO_REPLACED, -1, bao, old, 0)
        if rules[R_BAO_KAN_INSTANT]:  # RULES: 宝卡 on every bao replacement (DECISIONS #10)
            for k in range(4):
                s = (cur + k) % 4
                if ready[s] and wk[s, bao] == KANCHAN:
                    return bao, back, n_repl, n_log, s
    return bao, back, n_repl, n_log, kan
