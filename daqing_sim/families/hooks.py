"""How the one deal loop (:func:`daqing_sim.game.engine._play_deal`) tells rule families apart.

:func:`family_state` gives ``None`` for a :class:`~daqing_sim.game.state.DealState` and the
state itself for a :class:`~daqing_sim.game.state.BeijingDealState` or a
:class:`~daqing_sim.game.state.TwoPlayerDealState`; :func:`two_player_state` gives the state for
the two-player one only, :func:`beijing_state` for the Beijing one. The loop takes them as its
arguments ``bj``, ``bo`` and ``tp`` and writes each step where the families differ as
``if bj is None:`` (the Daqing step of
:mod:`daqing_sim.families.daqing.deal`, inlined) ``elif bo is not None:`` (the Beijing step of
:mod:`daqing_sim.families.beijing.deal`) ``elif tp is not None:`` (the two-player step of
:mod:`daqing_sim.families.two_player.deal`). numba prunes a branch on ``x is None`` only when ``x`` is
``None`` (a state's type is not a constant it can compare), so each family's steps sit behind the
argument that is ``None`` for the other families. numba prunes such a branch from the argument's type before
it types the function, so a Daqing compile never sees a Beijing kernel and the Daqing loop
compiles as it did before families. Measured on the way there: dispatching each step through an
``@overload`` on the state made random Daqing deals 4.6x slower (numba increfs and decrefs every
array of a tuple handed to an inlined function; gdb showed the sequences), and handing it the
arrays it uses still 2.4x slower. The per-deal record and a paused discard's options stay
``@overload`` hooks (``fam_record``, ``fam_legal_discards``). The stubs are never called from Python.
"""

from __future__ import annotations

from numba.core import types
from numba.extending import overload

from daqing_sim.families.beijing import deal as bj
from daqing_sim.families.daqing import deal as dq
from daqing_sim.families.two_player import deal as tpd
from daqing_sim.game.state import BeijingDealState, TwoPlayerDealState


def _beijing(fam) -> bool:
    """Is ``fam`` (a numba type) the Beijing deal state?"""
    return isinstance(fam, types.BaseNamedTuple) and fam.instance_class is BeijingDealState


def _two_player(fam) -> bool:
    """Is ``fam`` (a numba type) the two-player deal state?"""
    return isinstance(fam, types.BaseNamedTuple) and fam.instance_class is TwoPlayerDealState


def _stub(*args):
    raise NotImplementedError("a family hook runs inside the jitted deal loop only")


def family_state(st):
    """``None`` for a Daqing deal state, the state itself for another family's: what the deal
    loop branches on (``if bj is None:``, pruned by numba from the argument's type)."""
    return _stub()


@overload(family_state, inline="always")
def _family_state(st):
    if _beijing(st) or _two_player(st):
        return lambda st: st
    return lambda st: None


def beijing_state(st):
    """The state itself for a Beijing deal state, else ``None`` (``elif bo is not None:``)."""
    return _stub()


@overload(beijing_state, inline="always")
def _beijing_state(st):
    if _beijing(st):
        return lambda st: st
    return lambda st: None


def two_player_state(st):
    """The state itself for a two-player deal state, else ``None`` (``if tp is None:``)."""
    return _stub()


@overload(two_player_state, inline="always")
def _two_player_state(st):
    if _two_player(st):
        return lambda st: st
    return lambda st: None


def fam_record(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
    """Settle the deal and write its row."""
    return _stub()


@overload(fam_record, inline="always")
def _fam_record(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
    if _two_player(fam):

        def two_player(fam, st, rules, dealer, orow, hrow, rec_hand, tabs):
            return tpd.record(rules, dealer, st, orow, hrow, rec_hand, tabs)

        return two_player

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
    if _two_player(fam):

        def two_player(fam, st, ctl, rules, tabs, tk, tb):
            return tpd.legal_discards(st, ctl, tabs)

        return two_player

    if _beijing(fam):

        def beijing(fam, st, ctl, rules, tabs, tk, tb):
            return bj.legal_discards(st, ctl)

        return beijing

    def daqing(fam, st, ctl, rules, tabs, tk, tb):
        return dq.legal_discards(st, ctl, rules, tabs, tk, tb)

    return daqing
