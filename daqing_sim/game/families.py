"""How the one deal loop (:func:`daqing_sim.game.engine._play_deal`) tells rule families apart.

:func:`family_state` gives ``None`` for a :class:`~daqing_sim.game.state.DealState` and the
state itself for a :class:`~daqing_sim.game.state.BeijingDealState`; the loop takes it as its
argument ``bj`` and writes each step where the families differ as ``if bj is None:`` (the Daqing
step of :mod:`daqing_sim.game.deal_daqing`, inlined) ``else:`` (the Beijing step of
:mod:`daqing_sim.game.deal_beijing`). numba prunes such a branch from the argument's type before
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

from daqing_sim.game import deal_beijing as bj
from daqing_sim.game import deal_daqing as dq
from daqing_sim.game.state import BeijingDealState


def _beijing(fam) -> bool:
    """Is ``fam`` (a numba type) the Beijing deal state?"""
    return isinstance(fam, types.BaseNamedTuple) and fam.instance_class is BeijingDealState


def _stub(*args):
    raise NotImplementedError("a family hook runs inside the jitted deal loop only")


def family_state(st):
    """``None`` for a Daqing deal state, the state itself for a Beijing one: what the deal loop
    branches on (``if bj is None:``, pruned by numba from the argument's type)."""
    return _stub()


@overload(family_state, inline="always")
def _family_state(st):
    if _beijing(st):
        return lambda st: st
    return lambda st: None


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
