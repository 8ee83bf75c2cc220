"""The family hooks of the one deal loop (:func:`daqing_sim.game.engine._play_deal`).

Each step where rule families differ is a call ``fam_*(st, ...)`` whose implementation numba
picks from the *type* of the deal state ``st`` when it compiles the loop: a
:class:`~daqing_sim.game.state.DealState` gets the Daqing step (:mod:`daqing_sim.game.deal_daqing`,
inlined, so the Daqing loop compiles to what it was), a
:class:`~daqing_sim.game.state.BeijingDealState` the Beijing one (:mod:`daqing_sim.game.deal_beijing`).
An ``@overload`` chooses before typing, so a Daqing run never compiles a Beijing kernel and a
Beijing run no Daqing rule (measured: docs/DESIGN.md, "Rule families"). The stubs below are
never called from Python.
"""

from __future__ import annotations

from numba.core import types
from numba.extending import overload

from daqing_sim.codes import DEAL_IN, NO_BAO, SELF_DRAW
from daqing_sim.game import deal_beijing as bj
from daqing_sim.game import deal_daqing as dq
from daqing_sim.game.state import BeijingDealState
from daqing_sim.players import beijing as pb
from daqing_sim.players import dispatch


def _beijing(st) -> bool:
    return isinstance(st, types.BaseNamedTuple) and st.instance_class is BeijingDealState


def _stub(*args):
    raise NotImplementedError("a family hook runs inside the jitted deal loop only")


def fam_legal_discards(st, ctl, rules, tabs, tk, tb):
    """``ctl[C_LEGAL + t]`` at a paused discard of an outside seat."""
    return _stub()


@overload(fam_legal_discards, inline="always")
def _fam_legal_discards(st, ctl, rules, tabs, tk, tb):
    if _beijing(st):

        def beijing(st, ctl, rules, tabs, tk, tb):
            return bj.legal_discards(st, ctl)

        return beijing

    def daqing(st, ctl, rules, tabs, tk, tb):
        return dq.legal_discards(st, ctl, rules, tabs, tk, tb)

    return daqing


def fam_start(st, wall):
    """(first live tile, bao) at the start of a deal."""
    return _stub()


@overload(fam_start, inline="always")
def _fam_start(st, wall):
    if _beijing(st):

        def beijing(st, wall):
            return bj.start(st, wall)

        return beijing

    def daqing(st, wall):
        return dq.start(st, wall)

    return daqing


def fam_draw_limit(st, rules):
    """Tiles that stay undrawn at the end of the wall."""
    return _stub()


@overload(fam_draw_limit, inline="always")
def _fam_draw_limit(st, rules):
    if _beijing(st):

        def beijing(st, rules):
            return bj.draw_limit(st, rules)

        return beijing

    def daqing(st, rules):
        return 0

    return daqing


def fam_kong_drawable(st, rules, undrawn):
    """Is a replacement tile left for a kong?"""
    return _stub()


@overload(fam_kong_drawable, inline="always")
def _fam_kong_drawable(st, rules, undrawn):
    if _beijing(st):

        def beijing(st, rules, undrawn):
            return bj.kong_drawable(st, rules, undrawn)

        return beijing

    def daqing(st, rules, undrawn):
        return undrawn > 0

    return daqing


def fam_self_draw_win(st, cur, drawn, bao, rules, tabs, replacement, at_end):
    """A win on the seat's draw: (winner, win tile, wait kind, big, bao kind), winner -1 if none."""
    return _stub()


@overload(fam_self_draw_win, inline="always")
def _fam_self_draw_win(st, cur, drawn, bao, rules, tabs, replacement, at_end):
    if _beijing(st):

        def beijing(st, cur, drawn, bao, rules, tabs, replacement, at_end):
            return bj.self_draw_win(st, cur, drawn, rules, tabs, replacement, at_end)

        return beijing

    def daqing(st, cur, drawn, bao, rules, tabs, replacement, at_end):
        return dq.self_draw_win(st, cur, drawn, bao, rules)

    return daqing


def fam_kong_options(st, cur, rules, tabs, tk, tb, lock, undrawn):
    """Fill ``st.kong_opts``; returns the number of legal kongs."""
    return _stub()


@overload(fam_kong_options, inline="always")
def _fam_kong_options(st, cur, rules, tabs, tk, tb, lock, undrawn):
    if _beijing(st):

        def beijing(st, cur, rules, tabs, tk, tb, lock, undrawn):
            return bj.kong_options(st, cur, rules, undrawn)

        return beijing

    def daqing(st, cur, rules, tabs, tk, tb, lock, undrawn):
        return dq.kong_options(st, cur, rules, tabs, tk, tb, lock, undrawn)

    return daqing


def fam_after_kong(st, wall, rules, tabs, cur, kt, concealed, bao, front, back, n_repl, log, log_on, n_log):
    """After a declared kong: (bao, back, n_repl, n_log, winner, win tile, wait kind, big, bao
    kind, method, discarder); a winner by 宝卡 on a new bao (Daqing) or by robbing it (Beijing)."""
    return _stub()


@overload(fam_after_kong, inline="always")
def _fam_after_kong(st, wall, rules, tabs, cur, kt, concealed, bao, front, back, n_repl, log, log_on, n_log):
    if _beijing(st):

        def beijing(st, wall, rules, tabs, cur, kt, concealed, bao, front, back, n_repl, log, log_on, n_log):
            n_log, robber = bj.after_kong(st, rules, tabs, cur, kt, concealed, log, log_on, n_log)
            if robber >= 0:
                return bao, back, n_repl, n_log, robber, kt, -1, False, NO_BAO, DEAL_IN, cur
            return bao, back, n_repl, n_log, -1, -1, -1, False, NO_BAO, SELF_DRAW, -1

        return beijing

    def daqing(st, wall, rules, tabs, cur, kt, concealed, bao, front, back, n_repl, log, log_on, n_log):
        bao, back, n_repl, n_log, w, wt, kd, bg, bk = dq.after_kong(
            st, wall, rules, tabs, cur, bao, front, back, n_repl, log, log_on, n_log
        )
        return bao, back, n_repl, n_log, w, wt, kd, bg, bk, SELF_DRAW, -1

    return daqing


def fam_forced_discard(st, cur, drawn, dealer, rules, at_end):
    """The discard the rules make for the seat, or -1."""
    return _stub()


@overload(fam_forced_discard, inline="always")
def _fam_forced_discard(st, cur, drawn, dealer, rules, at_end):
    if _beijing(st):

        def beijing(st, cur, drawn, dealer, rules, at_end):
            return bj.forced_discard(st, cur, drawn, dealer, rules, at_end)

        return beijing

    def daqing(st, cur, drawn, dealer, rules, at_end):
        return -1

    return daqing


def fam_discard(st, code, kn, obs, rules, tabs):
    """A player's ``(tile, declare)``."""
    return _stub()


@overload(fam_discard, inline="always")
def _fam_discard(st, code, kn, obs, rules, tabs):
    if _beijing(st):

        def beijing(st, code, kn, obs, rules, tabs):
            return pb.discard(code, kn, obs, rules, tabs)

        return beijing

    def daqing(st, code, kn, obs, rules, tabs):
        return dispatch.discard(code, kn, obs, rules, tabs)

    return daqing


def fam_claim(st, code, kn, obs, rules, tabs, d, opts):
    """A player's claim on discard ``d``."""
    return _stub()


@overload(fam_claim, inline="always")
def _fam_claim(st, code, kn, obs, rules, tabs, d, opts):
    if _beijing(st):

        def beijing(st, code, kn, obs, rules, tabs, d, opts):
            return pb.claim(code, kn, obs, rules, tabs, d, opts)

        return beijing

    def daqing(st, code, kn, obs, rules, tabs, d, opts):
        return dispatch.claim(code, kn, obs, rules, tabs, d, opts)

    return daqing


def fam_kong(st, code, kn, obs, rules, tabs, kong_opts):
    """A player's kong, or -1."""
    return _stub()


@overload(fam_kong, inline="always")
def _fam_kong(st, code, kn, obs, rules, tabs, kong_opts):
    if _beijing(st):

        def beijing(st, code, kn, obs, rules, tabs, kong_opts):
            return pb.kong(code, kn, obs, rules, tabs, kong_opts)

        return beijing

    def daqing(st, code, kn, obs, rules, tabs, kong_opts):
        return dispatch.kong(code, kn, obs, rules, tabs, kong_opts)

    return daqing


def fam_simple_discard(st, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
    """A table-free player's ``(tile, declare)``."""
    return _stub()


@overload(fam_simple_discard, inline="always")
def _fam_simple_discard(st, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
    if _beijing(st):

        def beijing(st, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
            return (pb.simple_discard(code, kn, st.conc[cur], drawn, memo, rng, cur), False)

        return beijing

    def daqing(st, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb):
        return dq.simple_discard(st, cur, code, kn, drawn, memo, rng, rules, tabs, tk, tb)

    return daqing


def fam_simple_kong(st, code, kn, kong_opts, rng, seat):
    """A table-free player's kong, or -1."""
    return _stub()


@overload(fam_simple_kong, inline="always")
def _fam_simple_kong(st, code, kn, kong_opts, rng, seat):
    if _beijing(st):

        def beijing(st, code, kn, kong_opts, rng, seat):
            return pb.simple_kong(code, kn, kong_opts, rng, seat)

        return beijing

    def daqing(st, code, kn, kong_opts, rng, seat):
        return dispatch.simple_kong(code, kn, kong_opts, rng, seat)

    return daqing


def fam_declare_after_discard(st, cur, d, declare, keep_ready, i_pond, rules, tabs, sc0, orow):
    """The seat's wait after its discard; returns whether it is newly ready."""
    return _stub()


@overload(fam_declare_after_discard, inline="always")
def _fam_declare_after_discard(st, cur, d, declare, keep_ready, i_pond, rules, tabs, sc0, orow):
    if _beijing(st):

        def beijing(st, cur, d, declare, keep_ready, i_pond, rules, tabs, sc0, orow):
            return bj.declare_after_discard(st, cur, tabs)

        return beijing

    def daqing(st, cur, d, declare, keep_ready, i_pond, rules, tabs, sc0, orow):
        return dq.declare_after_discard(st, cur, d, declare, keep_ready, i_pond, rules, tabs, sc0, orow)

    return daqing


def fam_note_discard(st, cur, d, dealer, rules, log, log_on, n_log):
    """The family's count of a discard; returns n_log."""
    return _stub()


@overload(fam_note_discard, inline="always")
def _fam_note_discard(st, cur, d, dealer, rules, log, log_on, n_log):
    if _beijing(st):

        def beijing(st, cur, d, dealer, rules, log, log_on, n_log):
            return bj.note_discard(st, cur, d, dealer, rules, log, log_on, n_log)

        return beijing

    def daqing(st, cur, d, dealer, rules, log, log_on, n_log):
        return n_log

    return daqing


def fam_claims_open(st, last_live, rules):
    """May the discard be claimed at all (wins included)?"""
    return _stub()


@overload(fam_claims_open, inline="always")
def _fam_claims_open(st, last_live, rules):
    if _beijing(st):

        def beijing(st, last_live, rules):
            return True

        return beijing

    def daqing(st, last_live, rules):
        return dq.claims_open(last_live, rules)

    return daqing


def fam_win_on_discard(st, cur, d, tabs, at_end):
    """The seat that wins on discard ``d``: (seat, wait kind, big), -1 if none."""
    return _stub()


@overload(fam_win_on_discard, inline="always")
def _fam_win_on_discard(st, cur, d, tabs, at_end):
    if _beijing(st):

        def beijing(st, cur, d, tabs, at_end):
            return bj.win_on_discard(st, cur, d, tabs, at_end)

        return beijing

    def daqing(st, cur, d, tabs, at_end):
        return dq.win_on_discard(st, cur, d, tabs)

    return daqing


def fam_bao_after_discard(st, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log):
    """换宝 and 宝卡 at a discard: (bao, back, n_repl, n_log, winner or -1)."""
    return _stub()


@overload(fam_bao_after_discard, inline="always")
def _fam_bao_after_discard(st, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log):
    if _beijing(st):

        def beijing(st, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log):
            return (bao, back, n_repl, n_log, -1)

        return beijing

    def daqing(st, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log):
        return dq.bao_after_discard(
            st, wall, rules, cur, newly_ready, bao, front, back, n_repl, log, log_on, n_log
        )

    return daqing


def fam_melds_open(st, at_end):
    """May a discard be claimed for a meld (not only a win)?"""
    return _stub()


@overload(fam_melds_open, inline="always")
def _fam_melds_open(st, at_end):
    if _beijing(st):

        def beijing(st, at_end):
            return not at_end

        return beijing

    def daqing(st, at_end):
        return True

    return daqing


def fam_peng_seat_ok(st, s, rules):
    """May seat ``s`` peng or kong a discard?"""
    return _stub()


@overload(fam_peng_seat_ok, inline="always")
def _fam_peng_seat_ok(st, s, rules):
    if _beijing(st):

        def beijing(st, s, rules):
            return True

        return beijing

    def daqing(st, s, rules):
        return dq.peng_seat_ok(st, s, rules)

    return daqing


def fam_chi_options(st, cur, stage, d, rules, tabs, tk, tb):
    """Chi options of seat ``cur + stage`` on ``d``, -1 when no later seat may chi."""
    return _stub()


@overload(fam_chi_options, inline="always")
def _fam_chi_options(st, cur, stage, d, rules, tabs, tk, tb):
    if _beijing(st):

        def beijing(st, cur, stage, d, rules, tabs, tk, tb):
            return bj.chi_options(st, cur, stage, d)

        return beijing

    def daqing(st, cur, stage, d, rules, tabs, tk, tb):
        return dq.chi_options(st, cur, stage, d, rules, tabs, tk, tb)

    return daqing


def fam_note_claim(st, claimer, cur, kong, log, log_on, n_log):
    """The family's count of a claim; returns n_log."""
    return _stub()


@overload(fam_note_claim, inline="always")
def _fam_note_claim(st, claimer, cur, kong, log, log_on, n_log):
    if _beijing(st):

        def beijing(st, claimer, cur, kong, log, log_on, n_log):
            return bj.note_claim(st, claimer, cur, kong, log, log_on, n_log)

        return beijing

    def daqing(st, claimer, cur, kong, log, log_on, n_log):
        return n_log

    return daqing


def fam_bao_after_claims(st, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log):
    """换宝 after the claims: (bao, back, n_repl, n_log, bao-kan winner or -1)."""
    return _stub()


@overload(fam_bao_after_claims, inline="always")
def _fam_bao_after_claims(st, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log):
    if _beijing(st):

        def beijing(st, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log):
            return (bao, back, n_repl, n_log, -1)

        return beijing

    def daqing(st, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log):
        return dq.bao_after_claims(st, wall, rules, cur, bao, front, back, n_repl, log, log_on, n_log)

    return daqing


def fam_record(st, rules, dealer, orow, hrow, rec_hand, tabs):
    """Settle the deal and write its row."""
    return _stub()


@overload(fam_record, inline="always")
def _fam_record(st, rules, dealer, orow, hrow, rec_hand, tabs):
    if _beijing(st):

        def beijing(st, rules, dealer, orow, hrow, rec_hand, tabs):
            return bj.record(rules, dealer, st, orow, hrow, rec_hand, tabs)

        return beijing

    def daqing(st, rules, dealer, orow, hrow, rec_hand, tabs):
        return dq.record(rules, dealer, st, orow, hrow, rec_hand)

    return daqing
