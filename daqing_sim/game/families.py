"""The family hooks of the one deal loop (:func:`daqing_sim.game.engine._play_deal`).

Each step where rule families differ is a call ``fam_*(fam, ...)`` whose implementation numba
picks from the *type* of ``fam`` when it compiles the loop: :func:`fam_marker` gives a plain
``int8`` for a :class:`~daqing_sim.game.state.DealState` (the Daqing steps of
:mod:`daqing_sim.game.deal_daqing`, inlined, taking the arrays they use) and the state itself for a
:class:`~daqing_sim.game.state.BeijingDealState` (:mod:`daqing_sim.game.deal_beijing`). An
``@overload`` chooses before typing, so a Daqing run never compiles a Beijing kernel and a
Beijing run no Daqing rule (measured: docs/DESIGN.md, "Rule families"). The Daqing side is
never handed the state bundle: numba increfs and decrefs every array of a tuple passed to an
inlined function, and doing that at each step made random Daqing deals 4.6x slower (measured).
The stubs below are never called from Python.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from daqing_sim.codes import DEAL_IN, NO_BAO, SELF_DRAW
from daqing_sim.game import deal_beijing as bj
from daqing_sim.game import deal_daqing as dq
from daqing_sim.game.state import BeijingDealState
from daqing_sim.players import beijing as pb
from daqing_sim.players import dispatch


def _beijing(fam) -> bool:
    return isinstance(fam, types.BaseNamedTuple) and fam.instance_class is BeijingDealState


def _stub(*args):
    raise NotImplementedError("a family hook runs inside the jitted deal loop only")


def fam_marker(st):
    """What the hooks dispatch on: an ``int8`` for Daqing, the state for Beijing."""
    return _stub()


@overload(fam_marker, inline="always")
def _fam_marker(st):
    if _beijing(st):
        return lambda st: st
    return lambda st: np.int8(0)


def fam_after_kong(
    fam,
    conc,
    mk,
    mt,
    nm,
    visible,
    dead,
    ready,
    wk,
    wb,
    wall,
    rules,
    tabs,
    cur,
    kt,
    concealed,
    bao,
    front,
    back,
    n_repl,
    log,
    log_on,
    n_log,
):
    """After a declared kong: (bao, back, n_repl, n_log, winner, win tile, wait kind, big, bao
    kind, method, discarder); a winner by 宝卡 on a new bao (Daqing) or by robbing it (Beijing)."""
    return _stub()


@overload(fam_after_kong, inline="always")
def _fam_after_kong(
    fam,
    conc,
    mk,
    mt,
    nm,
    visible,
    dead,
    ready,
    wk,
    wb,
    wall,
    rules,
    tabs,
    cur,
    kt,
    concealed,
    bao,
    front,
    back,
    n_repl,
    log,
    log_on,
    n_log,
):
    if _beijing(fam):

        def beijing(
            fam,
            conc,
            mk,
            mt,
            nm,
            visible,
            dead,
            ready,
            wk,
            wb,
            wall,
            rules,
            tabs,
            cur,
            kt,
            concealed,
            bao,
            front,
            back,
            n_repl,
            log,
            log_on,
            n_log,
        ):
            n_log, robber = bj.after_kong(fam, rules, tabs, cur, kt, concealed, log, log_on, n_log)
            if robber >= 0:
                return bao, back, n_repl, n_log, robber, kt, -1, False, NO_BAO, DEAL_IN, cur
            return bao, back, n_repl, n_log, -1, -1, -1, False, NO_BAO, SELF_DRAW, -1

        return beijing

    def daqing(
        fam,
        conc,
        mk,
        mt,
        nm,
        visible,
        dead,
        ready,
        wk,
        wb,
        wall,
        rules,
        tabs,
        cur,
        kt,
        concealed,
        bao,
        front,
        back,
        n_repl,
        log,
        log_on,
        n_log,
    ):
        bao, back, n_repl, n_log, w, wt, kd, bg, bk = dq.after_kong(
            conc,
            mk,
            mt,
            nm,
            visible,
            dead,
            ready,
            wk,
            wb,
            wall,
            rules,
            tabs,
            cur,
            bao,
            front,
            back,
            n_repl,
            log,
            log_on,
            n_log,
        )
        return bao, back, n_repl, n_log, w, wt, kd, bg, bk, SELF_DRAW, -1

    return daqing


def fam_start(fam, wall):
    """(first live tile, bao) at the start of a deal."""
    return _stub()


@overload(fam_start, inline="always")
def _fam_start(fam, wall):
    if _beijing(fam):

        def beijing(fam, wall):
            return bj.start(fam, wall)

        return beijing

    def daqing(fam, wall):
        return dq.start(wall)

    return daqing


def fam_draw_limit(fam, rules):
    """Tiles that stay undrawn at the end of the wall."""
    return _stub()


@overload(fam_draw_limit, inline="always")
def _fam_draw_limit(fam, rules):
    if _beijing(fam):

        def beijing(fam, rules):
            return bj.draw_limit(fam, rules)

        return beijing

    def daqing(fam, rules):
        return 0

    return daqing


def fam_kong_drawable(fam, rules, undrawn):
    """Is a replacement tile left for a kong?"""
    return _stub()


@overload(fam_kong_drawable, inline="always")
def _fam_kong_drawable(fam, rules, undrawn):
    if _beijing(fam):

        def beijing(fam, rules, undrawn):
            return bj.kong_drawable(fam, rules, undrawn)

        return beijing

    def daqing(fam, rules, undrawn):
        return undrawn > 0

    return daqing


def fam_self_draw_win(fam, ready, wk, wb, cur, drawn, bao, rules, tabs, replacement, at_end):
    """A win on the seat's draw: (winner, win tile, wait kind, big, bao kind), winner -1 if none."""
    return _stub()


@overload(fam_self_draw_win, inline="always")
def _fam_self_draw_win(fam, ready, wk, wb, cur, drawn, bao, rules, tabs, replacement, at_end):
    if _beijing(fam):

        def beijing(fam, ready, wk, wb, cur, drawn, bao, rules, tabs, replacement, at_end):
            return bj.self_draw_win(fam, cur, drawn, rules, tabs, replacement, at_end)

        return beijing

    def daqing(fam, ready, wk, wb, cur, drawn, bao, rules, tabs, replacement, at_end):
        return dq.self_draw_win(ready, wk, wb, cur, drawn, bao, rules)

    return daqing


def fam_kong_options(fam, conc, mk, mt, nm, kong_opts, ready, cur, rules, tabs, tk, tb, lock, undrawn):
    """Fill ``kong_opts``; returns the number of legal kongs."""
    return _stub()


@overload(fam_kong_options, inline="always")
def _fam_kong_options(fam, conc, mk, mt, nm, kong_opts, ready, cur, rules, tabs, tk, tb, lock, undrawn):
    if _beijing(fam):

        def beijing(fam, conc, mk, mt, nm, kong_opts, ready, cur, rules, tabs, tk, tb, lock, undrawn):
            return bj.kong_options(fam, cur, rules, undrawn)

        return beijing

    def daqing(fam, conc, mk, mt, nm, kong_opts, ready, cur, rules, tabs, tk, tb, lock, undrawn):
        return dq.kong_options(conc, mk, mt, nm, kong_opts, ready, cur, rules, tabs, tk, tb, lock, undrawn)

    return daqing


def fam_forced_discard(fam, cur, drawn, dealer, rules, at_end):
    """The discard the rules make for the seat, or -1."""
    return _stub()


@overload(fam_forced_discard, inline="always")
def _fam_forced_discard(fam, cur, drawn, dealer, rules, at_end):
    if _beijing(fam):

        def beijing(fam, cur, drawn, dealer, rules, at_end):
            return bj.forced_discard(fam, cur, drawn, dealer, rules, at_end)

        return beijing

    def daqing(fam, cur, drawn, dealer, rules, at_end):
        return -1

    return daqing


def fam_discard(fam, code, kn, obs, rules, tabs):
    """A player's ``(tile, declare)``."""
    return _stub()


@overload(fam_discard, inline="always")
def _fam_discard(fam, code, kn, obs, rules, tabs):
    if _beijing(fam):

        def beijing(fam, code, kn, obs, rules, tabs):
            return pb.discard(code, kn, obs, rules, tabs)

        return beijing

    def daqing(fam, code, kn, obs, rules, tabs):
        return dispatch.discard(code, kn, obs, rules, tabs)

    return daqing


def fam_claim(fam, code, kn, obs, rules, tabs, d, opts):
    """A player's claim on discard ``d``."""
    return _stub()


@overload(fam_claim, inline="always")
def _fam_claim(fam, code, kn, obs, rules, tabs, d, opts):
    if _beijing(fam):

        def beijing(fam, code, kn, obs, rules, tabs, d, opts):
            return pb.claim(code, kn, obs, rules, tabs, d, opts)

        return beijing

    def daqing(fam, code, kn, obs, rules, tabs, d, opts):
        return dispatch.claim(code, kn, obs, rules, tabs, d, opts)

    return daqing


def fam_kong(fam, code, kn, obs, rules, tabs, kong_opts):
    """A player's kong, or -1."""
    return _stub()


@overload(fam_kong, inline="always")
def _fam_kong(fam, code, kn, obs, rules, tabs, kong_opts):
    if _beijing(fam):

        def beijing(fam, code, kn, obs, rules, tabs, kong_opts):
            return pb.kong(code, kn, obs, rules, tabs, kong_opts)

        return beijing

    def daqing(fam, code, kn, obs, rules, tabs, kong_opts):
        return dispatch.kong(code, kn, obs, rules, tabs, kong_opts)

    return daqing


def fam_simple_discard(fam, conc, mk, mt, nm, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
    """A table-free player's ``(tile, declare)``."""
    return _stub()


@overload(fam_simple_discard, inline="always")
def _fam_simple_discard(fam, conc, mk, mt, nm, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
    if _beijing(fam):

        def beijing(fam, conc, mk, mt, nm, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
            return (pb.simple_discard(code, kn, conc[cur], drawn, memo, rng, cur), False)

        return beijing

    def daqing(fam, conc, mk, mt, nm, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
        return dq.simple_discard(conc, mk, mt, nm, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb)

    return daqing


def fam_simple_kong(fam, code, kn, kong_opts, rng, seat):
    """A table-free player's kong, or -1."""
    return _stub()


@overload(fam_simple_kong, inline="always")
def _fam_simple_kong(fam, code, kn, kong_opts, rng, seat):
    if _beijing(fam):

        def beijing(fam, code, kn, kong_opts, rng, seat):
            return pb.simple_kong(code, kn, kong_opts, rng, seat)

        return beijing

    def daqing(fam, code, kn, kong_opts, rng, seat):
        return dispatch.simple_kong(code, kn, kong_opts, rng, seat)

    return daqing


def fam_declare_after_discard(
    fam,
    conc,
    mk,
    mt,
    nm,
    ready,
    wk,
    wb,
    ready_draw,
    own_draws,
    pond_flag,
    visible,
    cur,
    declare,
    keep_ready,
    i_pond,
    rules,
    tabs,
    sc0,
    orow,
):
    """The seat's wait after its discard; returns whether it is newly ready."""
    return _stub()


@overload(fam_declare_after_discard, inline="always")
def _fam_declare_after_discard(
    fam,
    conc,
    mk,
    mt,
    nm,
    ready,
    wk,
    wb,
    ready_draw,
    own_draws,
    pond_flag,
    visible,
    cur,
    declare,
    keep_ready,
    i_pond,
    rules,
    tabs,
    sc0,
    orow,
):
    if _beijing(fam):

        def beijing(
            fam,
            conc,
            mk,
            mt,
            nm,
            ready,
            wk,
            wb,
            ready_draw,
            own_draws,
            pond_flag,
            visible,
            cur,
            declare,
            keep_ready,
            i_pond,
            rules,
            tabs,
            sc0,
            orow,
        ):
            return bj.declare_after_discard(fam, cur, tabs)

        return beijing

    def daqing(
        fam,
        conc,
        mk,
        mt,
        nm,
        ready,
        wk,
        wb,
        ready_draw,
        own_draws,
        pond_flag,
        visible,
        cur,
        declare,
        keep_ready,
        i_pond,
        rules,
        tabs,
        sc0,
        orow,
    ):
        return dq.declare_after_discard(
            conc,
            mk,
            mt,
            nm,
            ready,
            wk,
            wb,
            ready_draw,
            own_draws,
            pond_flag,
            visible,
            cur,
            declare,
            keep_ready,
            i_pond,
            rules,
            tabs,
            sc0,
            orow,
        )

    return daqing


def fam_note_discard(fam, cur, d, dealer, rules, log, log_on, n_log):
    """The family's count of a discard; returns n_log."""
    return _stub()


@overload(fam_note_discard, inline="always")
def _fam_note_discard(fam, cur, d, dealer, rules, log, log_on, n_log):
    if _beijing(fam):

        def beijing(fam, cur, d, dealer, rules, log, log_on, n_log):
            return bj.note_discard(fam, cur, d, dealer, rules, log, log_on, n_log)

        return beijing

    def daqing(fam, cur, d, dealer, rules, log, log_on, n_log):
        return n_log

    return daqing


def fam_claims_open(fam, last_live, rules):
    """May the discard be claimed at all (wins included)?"""
    return _stub()


@overload(fam_claims_open, inline="always")
def _fam_claims_open(fam, last_live, rules):
    if _beijing(fam):

        def beijing(fam, last_live, rules):
            return True

        return beijing

    def daqing(fam, last_live, rules):
        return dq.claims_open(last_live, rules)

    return daqing


def fam_win_on_discard(fam, ready, wk, wb, cur, d, tabs, at_end):
    """The seat that wins on discard ``d``: (seat, wait kind, big), -1 if none."""
    return _stub()


@overload(fam_win_on_discard, inline="always")
def _fam_win_on_discard(fam, ready, wk, wb, cur, d, tabs, at_end):
    if _beijing(fam):

        def beijing(fam, ready, wk, wb, cur, d, tabs, at_end):
            return bj.win_on_discard(fam, cur, d, tabs, at_end)

        return beijing

    def daqing(fam, ready, wk, wb, cur, d, tabs, at_end):
        return dq.win_on_discard(ready, wk, wb, cur, d)

    return daqing


def fam_bao_after_discard(
    fam, visible, dead, ready, wk, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log
):
    """换宝 and 宝卡 at a discard: (bao, back, n_repl, n_log, winner or -1)."""
    return _stub()


@overload(fam_bao_after_discard, inline="always")
def _fam_bao_after_discard(
    fam, visible, dead, ready, wk, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log
):
    if _beijing(fam):

        def beijing(
            fam,
            visible,
            dead,
            ready,
            wk,
            wall,
            rules,
            cur,
            newly_ready,
            bao,
            front,
            back,
            n_repl,
            log,
            log_on,
            n_log,
        ):
            return (bao, back, n_repl, n_log, -1)

        return beijing

    def daqing(
        fam,
        visible,
        dead,
        ready,
        wk,
        wall,
        rules,
        cur,
        newly_ready,
        bao,
        front,
        back,
        n_repl,
        log,
        log_on,
        n_log,
    ):
        return dq.bao_after_discard(
            visible,
            dead,
            ready,
            wk,
            wall,
            rules,
            cur,
            newly_ready,
            bao,
            front,
            back,
            n_repl,
            log,
            log_on,
            n_log,
        )

    return daqing


def fam_melds_open(fam, at_end):
    """May a discard be claimed for a meld (not only a win)?"""
    return _stub()


@overload(fam_melds_open, inline="always")
def _fam_melds_open(fam, at_end):
    if _beijing(fam):

        def beijing(fam, at_end):
            return not at_end

        return beijing

    def daqing(fam, at_end):
        return True

    return daqing


def fam_peng_seat_ok(fam, ready, nm, s, rules):
    """May seat ``s`` peng or kong a discard?"""
    return _stub()


@overload(fam_peng_seat_ok, inline="always")
def _fam_peng_seat_ok(fam, ready, nm, s, rules):
    if _beijing(fam):

        def beijing(fam, ready, nm, s, rules):
            return True

        return beijing

    def daqing(fam, ready, nm, s, rules):
        return dq.peng_seat_ok(ready, nm, s, rules)

    return daqing


def fam_chi_options(fam, conc, mk, mt, nm, ready, cur, stage, d, rules, tabs, tk, tb):
    """Chi options of seat ``cur + stage`` on ``d``, -1 when no later seat may chi."""
    return _stub()


@overload(fam_chi_options, inline="always")
def _fam_chi_options(fam, conc, mk, mt, nm, ready, cur, stage, d, rules, tabs, tk, tb):
    if _beijing(fam):

        def beijing(fam, conc, mk, mt, nm, ready, cur, stage, d, rules, tabs, tk, tb):
            return bj.chi_options(fam, cur, stage, d)

        return beijing

    def daqing(fam, conc, mk, mt, nm, ready, cur, stage, d, rules, tabs, tk, tb):
        return dq.chi_options(conc, mk, mt, nm, ready, cur, stage, d, rules, tabs, tk, tb)

    return daqing


def fam_note_claim(fam, claimer, cur, kong, log, log_on, n_log):
    """The family's count of a claim; returns n_log."""
    return _stub()


@overload(fam_note_claim, inline="always")
def _fam_note_claim(fam, claimer, cur, kong, log, log_on, n_log):
    if _beijing(fam):

        def beijing(fam, claimer, cur, kong, log, log_on, n_log):
            return bj.note_claim(fam, claimer, cur, kong, log, log_on, n_log)

        return beijing

    def daqing(fam, claimer, cur, kong, log, log_on, n_log):
        return n_log

    return daqing


def fam_bao_after_claims(
    fam, visible, dead, ready, wk, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log
):
    """换宝 after the claims: (bao, back, n_repl, n_log, bao-kan winner or -1)."""
    return _stub()


@overload(fam_bao_after_claims, inline="always")
def _fam_bao_after_claims(
    fam, visible, dead, ready, wk, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log
):
    if _beijing(fam):

        def beijing(
            fam, visible, dead, ready, wk, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log
        ):
            return (bao, back, n_repl, n_log, -1)

        return beijing

    def daqing(fam, visible, dead, ready, wk, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log):
        return dq.bao_after_claims(
            visible, dead, ready, wk, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log
        )

    return daqing


def fam_record(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
    """Settle the deal and write its row."""
    return _stub()


@overload(fam_record, inline="always")
def _fam_record(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
    if _beijing(fam):

        def beijing(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
            return bj.record(rules, dealer, st, orow, hrow, rec_hand, tabs)

        return beijing

    def daqing(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
        return dq.record(rules, dealer, st, orow, hrow, rec_hand)

    return daqing


def fam_legal_discards(fam, st, ctl, rules, tabs, tk, tb):
    """``ctl[C_LEGAL + t]`` at a paused discard of an outside seat."""
    return _stub()


@overload(fam_legal_discards, inline="always")
def _fam_legal_discards(fam, st, ctl, rules, tabs, tk, tb):
    if _beijing(fam):

        def beijing(fam, st, ctl, rules, tabs, tk, tb):
            return bj.legal_discards(st, ctl)

        return beijing

    def daqing(fam, st, ctl, rules, tabs, tk, tb):
        return dq.legal_discards(st, ctl, rules, tabs, tk, tb)

    return daqing
