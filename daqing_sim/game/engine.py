"""The jitted deal kernel of every rule family, over the family's deal state
(:class:`~daqing_sim.game.state.DealState` for Daqing, docs/RULES.md).

:func:`play_batch_k` plays a batch of walls (layout in :mod:`daqing_sim.game.wall`) and writes
one row of integers per deal into ``out`` (columns ``O_*``). Optional outputs: the winner's
13-tile hand (``out_hand``), the final whereabouts of all 112 tiles (``out_final``, for
conservation checks) and an event log of one deal (``log``, for :mod:`daqing_sim.game.replay`).

A deal is one loop over three phases (draw and self-draw win with own-turn kongs; discard and
declare; claims, 换宝 and the next turn) in one function: numba counts references on every array
handed to a called function, so splitting the loop into phase functions over the state bundle
cost more than half the speed of random deals (measured, docs/DESIGN.md). Where the families
differ the loop calls the protocol's hooks (:mod:`daqing_sim.families.hooks`), resolved from the
state's type to the family's ``deal.step_*`` functions and inlined. Decisions are asked
of the players through :mod:`daqing_sim.players.dispatch`, each on an
:class:`~daqing_sim.players.observation.Observation` built by :func:`daqing_sim.game.state.observe`;
players with a table-free fast path (random, scripted) answer from their own arrays. The wall,
other hands and (before ready) the bao stay here.

Readings of the Daqing rules made by the loop and its Daqing steps (beyond docs/DECISIONS.md):

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
    CHI,
    CHI_LOW,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    DEAL_IN,
    DECISION_CLAIM,
    DECISION_DISCARD,
    DECISION_KONG,
    EXHAUSTIVE_DRAW,
    EXTERNAL,
    KONG,
    N_KINDS_ALL,
    NO_BAO,
    OPT_CONCEALED_KONG,
    PASS,
    PENG,
    SELF_DRAW,
    USER_BASE,
)
from daqing_sim.families import hooks as fh
from daqing_sim.game.borrow import borrowed
from daqing_sim.game.events import (  # noqa: F401 (re-exported)
    EV_ADDED_KONG,
    EV_BAO_REPLACED,
    EV_BURN,
    EV_CLAIM,
    EV_CLAIM_OFFER,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
    EV_EXHAUSTIVE,
    EV_MUTUAL_BAO,
    EV_READY,
    EV_ROBBED_KONG,
    EV_WIN,
    EV_WIN_DETAIL,
    LOG_WIDTH,
    MAX_EVENTS,
    log_event,
)
from daqing_sim.game.state import observe
from daqing_sim.game.wall import BAO_POSITION, LIVE_START, N_LIVE
from daqing_sim.jit import njit_no_refs_loop
from daqing_sim.layout import (  # noqa: F401 (the row, hand, final and control layouts, re-exported)
    C_ANSWER,
    C_BACK,
    C_BAO,
    C_CLAIMABLE,
    C_CUR,
    C_D,
    C_DECISION,
    C_DECLARE,
    C_DRAWN,
    C_FRONT,
    C_LAST_LIVE,
    C_LEGAL,
    C_MUST_DECLARE,
    C_N_DRAWS,
    C_N_LOG,
    C_N_REPL,
    C_OPTS,
    C_PHASE,
    C_SEAT,
    C_STAGE,
    C_STATUS,
    C_TILE,
    F_POOL,
    F_REST,
    H_MK,
    H_MT,
    H_NM,
    H_WIDTH,
    LEGAL_DECLARE,
    LEGAL_DISCARD,
    N_CTL,
    N_OUT,
    O_BAO,
    O_BAO_REPLACEMENTS,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_DRAWS,
    O_FANS,
    O_FINAL_BAO,
    O_OUTCOME,
    O_OWN_DRAWS,
    O_PAY,
    O_READY_OUTS,
    O_READY_TURN,
    O_READY_WAIT,
    O_READY_WAIT_MASK,
    O_READY_WAIT_TILES,
    O_WAIT,
    O_WIN_TILE,
    O_WINNER,
    O_WINNER_KONGS,
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
    T_WIN_OFFER,
)
from daqing_sim.players import dispatch
from daqing_sim.players.common import splitmix64
from daqing_sim.players.observation import (
    CLAIMED,
    DECLARED,
    DRAWN_AND_THROWN,
    MAX_POND,
    P_CLAIM_OPTS,
    P_CLAIM_TILE,
    P_DECISION,
    P_HAND,
    P_INFO,
    P_KONG,
    P_LEGAL,
    P_MELD_FROM,
    P_N_KINDS,
    P_N_OPTIONS,
    P_N_POND,
    P_OPTIONS,
    P_POND,
    P_POND_CLAIMER,
    P_POND_FLAG,
    P_READY,
    P_READY_DRAW,
    P_SAFE,
    P_TABLE_MK,
    P_TABLE_MT,
    P_TABLE_NM,
    P_VISIBLE,
    UNKNOWN,
)


def _drop_stale_cache() -> None:
    """numba's on-disk cache checks only the file defining a kernel, not the modules it calls
    into: drop the cached engine and player kernels (and the search evaluator's, which compiles
    the deal loop in) when a module they compile in is newer, or an edit to hand/kernels.py,
    families/*/ or a player would be silently ignored."""
    pkg = Path(__file__).resolve().parent.parent
    deps = [
        pkg / "rules.py",
        pkg / "codes.py",
        pkg / "layout.py",
        *(f for sub in ("hand", "game", "players") for f in (pkg / sub).glob("*.py")),
    ]
    try:
        newest = max(f.stat().st_mtime for f in deps)
        for sub in ("game", "players", "search"):  # search: the evaluator compiles the deal loop in
            here = pkg / sub
            root = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else here / "__pycache__"
            for index in root.rglob("*.nbi"):
                if index.stat().st_mtime < newest:
                    for f in index.parent.glob(index.name[: -len(".nbi")] + ".*nb*"):
                        f.unlink(missing_ok=True)
    except (OSError, ValueError):  # a read-only or concurrently cleaned cache only costs a recompile
        pass


_drop_stale_cache()

# Phases of the deal loop (where a paused deal resumes: _KONG, _DISCARDED, _CLAIMS).
_DRAW, _AFTER_DRAW, _KONG, _DISCARD, _DISCARDED, _CLAIMS = range(6)
# The two phases a deal may be resumed at from outside the loop (advisor.world writes a paused
# deal): before the seat's draw (13 tiles), and at its discard (14 tiles, the answer pending).
PHASE_DRAW = _DRAW
PHASE_DISCARDED = _DISCARDED

# ``ctl`` (int64, N_CTL): the control block of a deal stepped from outside (layout.CONTROL).
ST_NEW, ST_PAUSED, ST_DONE = 0, 1, 2


@njit(cache=True)
def reset_result_row(orow):
    """The result row ``orow`` at the start of a deal: -1 everywhere, then an exhaustive draw
    with no big win, no bao event, no payments and no ready waits."""
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


@njit(cache=True)
def play_batch_k(
    walls, deal_seeds, dealer, rules, codes, knobs, simple, tabs, st, obs, out, out_hand, out_final, log, ufns
):
    """Play every wall of ``walls`` (n, 112); returns the number of events of the last deal.

    ``simple[code]`` marks players with a table-free fast path (:mod:`daqing_sim.players.dispatch`);
    ``st`` and ``obs`` come from :func:`daqing_sim.game.state.new_deal_state`. ``out`` (n, N_OUT)
    int32 is filled; ``out_hand`` (n, H_WIDTH) int8 and ``out_final`` (n, 6, 28) int8 are filled
    when their first dimension is n; ``log`` (m, 5) int16 gets the events of the last deal when
    ``m > 1``. No seat may be ``EXTERNAL`` (those deals are stepped with :func:`step_deal_k`).
    ``ufns``: the (discard, claim, kong) function tuples of registered jitted players, called for
    codes ``USER_BASE + i`` (:mod:`daqing_sim.players.user`).
    """
    n = walls.shape[0]
    rec_hand = out_hand.shape[0] == n
    rec_final = out_final.shape[0] == n
    n_log = 0
    ctl = np.zeros(N_CTL, dtype=np.int64)
    # every array below is held by the Python caller for the whole call (see game.borrow)
    walls, rules, codes, knobs, simple, tabs, st, obs, out = borrowed(
        (walls, rules, codes, knobs, simple, tabs, st, obs, out)
    )
    for i in range(n):
        hrow = out_hand[i] if rec_hand else out_hand[0]
        ctl[C_STATUS] = ST_NEW
        n_log = _play_deal(
            walls[i],
            deal_seeds[i],
            dealer,
            rules,
            codes,
            knobs,
            simple,
            tabs,
            st,
            obs,
            out[i],
            log,
            ctl,
            ufns,
        )
        fh.record(st, rules, dealer, out[i], hrow, rec_hand, tabs)
        if rec_final:
            final_tiles(walls[i], st, out_final[i])
    return n_log


@njit(cache=True)
def step_deal_k(
    wall, seed, dealer, rules, codes, knobs, simple, tabs, st, obs, orow, hrow, frow, log, ctl, pub, ufns
):
    """Start (``ctl[C_STATUS] == ST_NEW``) or resume (``ST_PAUSED``, with the answer in
    ``ctl[C_ANSWER]``, ``ctl[C_DECLARE]``) one deal, and play it until an ``EXTERNAL`` seat must
    decide or the deal ends. Returns the new status.

    Paused: ``obs`` holds what ``ctl[C_SEAT]`` sees for the decision ``ctl[C_DECISION]``; the
    options are in ``ctl[C_OPTS]`` (claims: a bit mask of actions on ``ctl[C_TILE]``),
    ``st.kong_opts`` (kongs) or ``ctl[C_LEGAL + t]`` (discards: ``LEGAL_DISCARD`` and
    ``LEGAL_DECLARE`` bits). Done: ``orow``, ``hrow`` and ``frow`` are filled as by
    :func:`play_batch_k`. Paused, ``pub`` gets the packed view of the decision (:func:`pack_view`).
    """
    # every array below is held by the Python caller (SteppedDeal) for the whole call
    wall, rules, codes, knobs, simple, tabs, st, obs, orow, log, ctl = borrowed(
        (wall, rules, codes, knobs, simple, tabs, st, obs, orow, log, ctl)
    )
    ctl[C_N_LOG] = _play_deal(
        wall, seed, dealer, rules, codes, knobs, simple, tabs, st, obs, orow, log, ctl, ufns
    )
    if ctl[C_STATUS] == ST_DONE:
        fh.record(st, rules, dealer, orow, hrow, np.bool_(True), tabs)  # a bool as play_batch_k passes
        final_tiles(wall, st, frow)
    else:
        if ctl[C_DECISION] == DECISION_DISCARD:
            fh.legal_discards(st, ctl, rules, tabs, obs.tk, obs.tb)
        else:
            for t in range(N_KINDS_ALL):
                ctl[C_LEGAL + t] = 0
        pack_view(obs, ctl, st.kong_opts, pub)
    return ctl[C_STATUS]


@njit(cache=True)
def pack_view(obs, ctl, kong_opts, pub):
    """Copy the observation ``obs`` and the pending decision's options into the packed ``int16``
    view ``pub`` (layout ``players.observation.P_*``, kinds fields 34 wide) that Python players read."""
    nk = obs.hand.shape[0]
    for t in range(nk):
        pub[P_HAND + t] = obs.hand[t]
        pub[P_VISIBLE + t] = obs.visible[t]
        pub[P_LEGAL + t] = ctl[C_LEGAL + t]
        pub[P_KONG + t] = kong_opts[t] if ctl[C_DECISION] == DECISION_KONG else 0
    for s in range(4):
        for t in range(nk):
            pub[P_SAFE + N_KINDS_ALL * s + t] = obs.safe[s, t]
        pub[P_READY + s] = obs.ready[s]
        pub[P_READY_DRAW + s] = obs.ready_draw[s]
        pub[P_TABLE_NM + s] = obs.table_nm[s]
        pub[P_N_POND + s] = obs.n_pond[s]
        for j in range(4):
            pub[P_TABLE_MK + 4 * s + j] = obs.table_mk[s, j]
            pub[P_TABLE_MT + 4 * s + j] = obs.table_mt[s, j]
            pub[P_MELD_FROM + 4 * s + j] = obs.meld_from[s, j]
        for i in range(min(obs.n_pond[s], MAX_POND)):
            pub[P_POND + MAX_POND * s + i] = obs.pond[s, i]
            pub[P_POND_FLAG + MAX_POND * s + i] = obs.pond_flag[s, i]
            pub[P_POND_CLAIMER + MAX_POND * s + i] = obs.pond_claimer[s, i]
    for k in range(obs.info.shape[0]):
        pub[P_INFO + k] = obs.info[k]
    n_opt = 0
    for declare in range(2):
        for t in range(nk):
            if ctl[C_LEGAL + t] >> declare & 1:
                pub[P_OPTIONS + n_opt] = 2 * t + declare
                n_opt += 1
    pub[P_N_OPTIONS] = n_opt
    pub[P_DECISION] = ctl[C_DECISION]
    pub[P_CLAIM_TILE] = ctl[C_TILE] if ctl[C_DECISION] == DECISION_CLAIM else -1
    pub[P_CLAIM_OPTS] = ctl[C_OPTS] if ctl[C_DECISION] == DECISION_CLAIM else 0
    pub[P_N_KINDS] = nk


@njit(cache=True, inline="always")
def _save(
    ctl,
    phase,
    cur,
    drawn,
    last_live,
    must_declare,
    front,
    back,
    n_draws,
    n_repl,
    n_log,
    bao,
    d,
    claimable,
    stage,
):
    ctl[C_STATUS] = ST_PAUSED
    ctl[C_PHASE] = phase
    ctl[C_CUR] = cur
    ctl[C_DRAWN] = drawn
    ctl[C_LAST_LIVE] = last_live
    ctl[C_MUST_DECLARE] = 1 if must_declare else 0
    ctl[C_FRONT] = front
    ctl[C_BACK] = back
    ctl[C_N_DRAWS] = n_draws
    ctl[C_N_REPL] = n_repl
    ctl[C_N_LOG] = n_log
    ctl[C_BAO] = bao
    ctl[C_D] = d
    ctl[C_CLAIMABLE] = 1 if claimable else 0
    ctl[C_STAGE] = stage


@njit_no_refs_loop
def _play_deal(wall, seed, dealer, rules, codes, knobs, simple, tabs, st, obs, orow, log, ctl, ufns):
    """Play one deal on ``st`` (its final tiles, melds and result scalars are left there for the
    family's ``record``), from its start or from where ``ctl`` paused it. Returns the number of
    events logged; ``ctl[C_STATUS]`` is ``ST_DONE`` at the end, ``ST_PAUSED`` at a decision of
    an ``EXTERNAL`` seat. Where the rule families differ the loop calls a hook of
    :mod:`daqing_sim.families.hooks` (``fh.<step>(st, ...)``), which numba resolves from the
    state's type to the family's ``deal.step_<step>`` and inlines: the loop names no family.
    Compiled without reference counting in its own code (:func:`daqing_sim.jit.njit_no_refs_loop`:
    the steps take the whole state), so it allocates no array; every array is its caller's."""
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
    ns = fh.seats(st)  # seats at the table
    log_on = log.shape[0] > 1
    lock = fh.lock(st, rules)
    # the deal's loop-carried scalars (saved in ctl while paused)
    front = LIVE_START
    back = wall.shape[0] - 1
    n_draws = 0
    n_repl = 0
    n_log = 0
    cur = dealer
    phase = _AFTER_DRAW
    from_back = False  # the next _DRAW is a kong's replacement (never carried over a pause)
    replacement = False  # the tile just drawn is a kong's replacement
    concealed_kong = False
    at_end = False
    forced = -1
    drawn = -1
    last_live = N_LIVE + 1  # the dealer's first discard follows no draw
    must_declare = False
    bao = np.int64(wall[BAO_POSITION])
    d = -1
    declare = False
    claimable = False
    stage = 0
    kt = -1
    answer = -1
    answered = False
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
    if ctl[C_STATUS] == ST_NEW:
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
        reset_result_row(orow)
        front, back, bao, n_log = fh.start(st, wall, rules, log, log_on, n_log, front, back, bao)
        for s in range(4):
            rng[s] = splitmix64(seed ^ (np.uint64(s + 1) * np.uint64(0xD1B54A32D192ED03)))
        pos = 0
        for k in range(ns):
            s = (dealer + k) % ns
            for _ in range(14 if k == 0 else 13):
                conc[s, wall[pos]] += 1
                pos += 1
    else:  # resume where an EXTERNAL seat was asked, with its answer
        phase = ctl[C_PHASE]
        cur = ctl[C_CUR]
        drawn = ctl[C_DRAWN]
        last_live = ctl[C_LAST_LIVE]
        must_declare = ctl[C_MUST_DECLARE] != 0
        front = ctl[C_FRONT]
        back = ctl[C_BACK]
        n_draws = ctl[C_N_DRAWS]
        n_repl = ctl[C_N_REPL]
        n_log = ctl[C_N_LOG]
        bao = ctl[C_BAO]
        d = ctl[C_D]
        claimable = ctl[C_CLAIMABLE] != 0
        stage = ctl[C_STAGE]
        answer = ctl[C_ANSWER]
        answered = phase == _CLAIMS
        if phase == _KONG:
            kt = answer
        elif phase == _DISCARDED:
            d = answer
            declare = ctl[C_DECLARE] != 0
            must_declare = False
    while True:
        if phase == _DRAW:
            end, w, wt, n_log = fh.wall_end(st, wall, rules, tabs, log, log_on, n_log, front, back)
            if end:
                if w >= 0:  # a win at the wall's end (two-player 海底捞月)
                    winner, win_tile = w, wt
                    method = SELF_DRAW
                    win_drawn = wt
                break
            last_live = back - front + 1
            if from_back:  # RULES: kong replacement from the back
                drawn = np.int64(wall[back])
                back -= 1
            else:
                drawn = np.int64(wall[front])
                front += 1
            conc[cur, drawn] += 1
            replacement = from_back
            n_draws += 1
            own_draws[cur] += 1
            memo[cur, 0] = UNKNOWN
            if log_on:
                n_log = log_event(log, n_log, EV_DRAW, cur, drawn, 1 if from_back else 0, back - front + 1)
            from_back = False
            phase = _AFTER_DRAW
        if phase == _AFTER_DRAW:
            w, wt, kd, bg, bk, wd = fh.self_draw_win(
                st, wall, rules, tabs, cur, drawn, dealer, bao, replacement, front, back
            )
            if w >= 0:
                winner, win_tile, win_kind, big, bao_kind = w, wt, kd, bg, bk
                method = SELF_DRAW
                win_drawn = wd
                break
            kt = -1
            n_opt = fh.kong_options(st, obs, rules, tabs, cur, lock, front, back)
            if n_opt > 0:
                left = back - front + 1
                if codes[cur] == EXTERNAL or not simple[codes[cur]]:
                    seen_bao = bao if ready[cur] else -1
                    observe(st, obs, cur, dealer, left, seen_bao, drawn, False, ready[cur] != 0)
                if codes[cur] == EXTERNAL:
                    _save(
                        ctl,
                        _KONG,
                        cur,
                        drawn,
                        last_live,
                        must_declare,
                        front,
                        back,
                        n_draws,
                        n_repl,
                        n_log,
                        bao,
                        d,
                        claimable,
                        stage,
                    )
                    ctl[C_DECISION] = DECISION_KONG
                    ctl[C_SEAT] = cur
                    return n_log
                if simple[codes[cur]]:
                    kt = fh.simple_kong(st, codes[cur], knobs[cur], kong_opts, rng, cur)
                elif codes[cur] >= USER_BASE:
                    kt = ufns[2][codes[cur] - USER_BASE](knobs[cur], obs, rules, tabs, kong_opts)
                else:
                    kt = fh.kong(st, codes[cur], knobs[cur], obs, rules, tabs, kong_opts)
            phase = _KONG
        if phase == _KONG:
            if kt >= 0:
                concealed_kong = kong_opts[kt] == OPT_CONCEALED_KONG
                if concealed_kong:
                    conc[cur, kt] -= 4
                    mk[cur, nm[cur]] = CONCEALED_KONG
                    mt[cur, nm[cur]] = kt
                    meld_from[cur, nm[cur]] = -1
                    nm[cur] += 1
                    if log_on:
                        n_log = log_event(log, n_log, EV_CONCEALED_KONG, cur, kt, 0, 0)
                else:
                    conc[cur, kt] -= 1
                    visible[kt] += 1
                    for j in range(nm[cur]):
                        if mk[cur, j] == PENG and mt[cur, j] == kt:
                            mk[cur, j] = ADDED_KONG
                    if log_on:
                        n_log = log_event(log, n_log, EV_ADDED_KONG, cur, kt, 0, 0)
                memo[cur, 0] = UNKNOWN
                bao, back, n_repl, n_log, w, wt, kd, bg, bk, how, dr = fh.after_kong(
                    st,
                    wall,
                    rules,
                    tabs,
                    cur,
                    kt,
                    concealed_kong,
                    log,
                    log_on,
                    n_log,
                    bao,
                    front,
                    back,
                    n_repl,
                )
                if w >= 0:  # the kong robbed (a deal-in by its declarer), or a win on a new bao
                    winner, win_tile, win_kind, big, bao_kind = w, wt, kd, bg, bk
                    method = how
                    if how == DEAL_IN:
                        discarder = cur
                        discarder_ready = dr
                    break
                from_back = True
                phase = _DRAW
                continue
            phase = _DISCARD
        if phase == _DISCARD:
            keep_ready = ready[cur] != 0 and not lock
            forced = fh.forced_discard(st, rules, cur, drawn, dealer, front, back)
            if ready[cur] and lock:
                d = drawn  # RULES: lock_after_ready — discard every non-winning draw
                declare = False
            elif forced >= 0:
                d = forced
                declare = False
            elif codes[cur] == EXTERNAL:
                seen_bao = bao if ready[cur] else -1  # RULES: only a ready player sees the bao
                observe(st, obs, cur, dealer, back - front + 1, seen_bao, drawn, must_declare, keep_ready)
                _save(
                    ctl,
                    _DISCARDED,
                    cur,
                    drawn,
                    last_live,
                    must_declare,
                    front,
                    back,
                    n_draws,
                    n_repl,
                    n_log,
                    bao,
                    d,
                    claimable,
                    stage,
                )
                ctl[C_DECISION] = DECISION_DISCARD
                ctl[C_SEAT] = cur
                return n_log
            elif simple[codes[cur]] and not must_declare and not keep_ready:
                # the table-free players skip the observation and the hand tables (each costs per call)
                d, declare = fh.simple_discard(st, obs, rules, tabs, codes[cur], knobs[cur], cur, drawn)
            else:
                seen_bao = bao if ready[cur] else -1  # RULES: only a ready player sees the bao
                observe(st, obs, cur, dealer, back - front + 1, seen_bao, drawn, must_declare, keep_ready)
                if codes[cur] >= USER_BASE:
                    d, declare = ufns[0][codes[cur] - USER_BASE](knobs[cur], obs, rules, tabs)
                else:
                    d, declare = fh.discard(st, codes[cur], knobs[cur], obs, rules, tabs)
            must_declare = False
            phase = _DISCARDED
        if phase == _DISCARDED:
            keep_ready = ready[cur] != 0 and not lock
            conc[cur, d] -= 1
            visible[d] += 1
            pool[d] += 1
            i_pond = n_pond[cur]
            if i_pond < MAX_POND:
                pond[cur, i_pond] = d
                pond_flag[cur, i_pond] = DRAWN_AND_THROWN if d == drawn else 0
                n_pond[cur] = i_pond + 1
            thrown_drawn = d == drawn
            drawn = -1
            newly_ready = fh.after_discard(st, obs, rules, tabs, orow, cur, declare, keep_ready, thrown_drawn)
            if newly_ready and i_pond < MAX_POND:
                pond_flag[cur, i_pond] |= DECLARED
            if log_on:
                n_log = log_event(log, n_log, EV_DISCARD, cur, d, np.int64(newly_ready), ready[cur])
                if newly_ready:
                    n_log = log_event(
                        log, n_log, EV_READY, cur, bao, orow[O_READY_WAIT + cur], orow[O_READY_OUTS + cur]
                    )
            claimable, at_end, n_log, w, kd, bg, dr = fh.discard_win(
                st, rules, tabs, log, log_on, n_log, cur, d, dealer, last_live, front, back
            )
            if w >= 0:  # RULES: 截和 — the first seat in turn order that may win on d
                winner, win_tile, win_kind, big = w, d, kd, bg
                method = DEAL_IN
                discarder = cur
                discarder_ready = dr
                break
            bao, back, n_repl, n_log, w, kd, bg, bk = fh.bao_check(
                st, wall, rules, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl
            )
            if w >= 0:  # RULES: a win on the bao beats a peng or chi
                winner, win_tile, win_kind, big, bao_kind = w, bao, kd, bg, bk
                method = SELF_DRAW
                break
            if claimable and lock:
                for r in range(4):
                    if ready[r] and not (r == cur and newly_ready):
                        safe[r, d] = 1
            claimable = fh.before_claims(st, cur, d, claimable, at_end, lock)
            stage = 0
            phase = _CLAIMS
        # ---- claims, stage by stage (fh.claim_options: who is asked at each)
        claimer = -1
        action = PASS
        while claimable and stage < 4:
            s, opts, stop = fh.claim_options(st, obs, rules, tabs, cur, d, stage, at_end, front, back)
            if stop:
                break
            if s >= 0:
                if answered:
                    a = answer
                    answered = False
                elif codes[s] == EXTERNAL:
                    observe(st, obs, s, dealer, back - front + 1, -1, -1, False, False)
                    _save(
                        ctl,
                        _CLAIMS,
                        cur,
                        drawn,
                        last_live,
                        must_declare,
                        front,
                        back,
                        n_draws,
                        n_repl,
                        n_log,
                        bao,
                        d,
                        claimable,
                        stage,
                    )
                    ctl[C_DECISION] = DECISION_CLAIM
                    ctl[C_SEAT] = s
                    ctl[C_TILE] = d
                    ctl[C_OPTS] = opts
                    return n_log
                elif simple[codes[s]]:
                    a = dispatch.simple_claim(codes[s], knobs[s], opts, rng, s)
                else:
                    observe(st, obs, s, dealer, back - front + 1, -1, -1, False, False)
                    if codes[s] >= USER_BASE:
                        a = ufns[1][codes[s] - USER_BASE](knobs[s], obs, rules, tabs, d, opts)
                    else:
                        a = fh.claim(st, codes[s], knobs[s], obs, rules, tabs, d, opts)
                if log_on:
                    n_log = log_event(log, n_log, EV_CLAIM_OFFER, s, d, opts, a)
                if a != PASS:
                    claimer = s
                    action = a
                    must_declare = stage > 1
                    break
            stage += 1
        if fh.after_claims(st, claimer, action):  # the discard taken as a win
            winner, win_tile = claimer, d
            method = DEAL_IN
            discarder = cur
            discarder_ready = ready[cur] != 0
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
                n_log = log_event(log, n_log, EV_CLAIM, s, d, action, cur)
            n_log = fh.note_claim(st, rules, s, cur, action, log, log_on, n_log)
        bao, back, n_repl, n_log, w, kd, bg, bk = fh.bao_check(
            st, wall, rules, cur, False, log, log_on, n_log, bao, front, back, n_repl
        )
        if w >= 0:
            winner, win_tile, win_kind, big, bao_kind = w, bao, kd, bg, bk
            method = SELF_DRAW
            break
        if claimer >= 0:
            cur = claimer
            if action == CLAIM_KONG:
                from_back = True
                phase = _DRAW
            else:
                phase = _DISCARD
        else:
            cur = (cur + 1) % ns
            phase = _DRAW

    ctl[C_STATUS] = ST_DONE
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
            n_log = log_event(log, n_log, EV_WIN, winner, win_tile, method, discarder)
            bao_kan = 1 if method == SELF_DRAW and win_drawn < 0 else 0
            n_log = log_event(log, n_log, EV_WIN_DETAIL, winner, win_drawn, bao_kind, bao_kan)
        else:
            n_log = log_event(log, n_log, EV_EXHAUSTIVE, -1, -1, 0, 0)
    return n_log


@njit(cache=True)
def final_tiles(wall, st, frow):
    """Where every tile of the wall is at the end: each seat's (concealed + melds), the
    unclaimed discards, and the rest (live wall, current and replaced baos)."""
    conc = st.conc
    mk = st.mk
    mt = st.mt
    nm = st.nm
    res = st.result
    nk = conc.shape[1]
    for s in range(4):
        for t in range(nk):
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
    for t in range(nk):
        frow[F_POOL, t] = st.pool[t]
        frow[F_REST, t] = st.dead[t]
    if res[R_BAO] >= 0:
        frow[F_REST, res[R_BAO]] += 1
    for p in range(res[R_FRONT], res[R_BACK] + 1):
        frow[F_REST, wall[p]] += 1
