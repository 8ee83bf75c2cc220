"""Borrowed views: arrays without a reference count, for the inside of one kernel call.

numba counts references of every array argument at the entry and exit of each compiled
function it calls (an atomic ``NRT_incref`` / ``NRT_decref`` per array, and a bundle such as
:class:`~daqing_sim.hand.tables.Tables` or ``DealState`` is one per member). With greedy players
those atomics were about 40 % of a deal's time (``perf``, 2026-12-01). A borrowed view has no
meminfo, so its count updates are a null check.

Contract: borrow only arrays the Python caller holds for the whole call, and never store or
return a borrowed view (nothing would keep its memory alive). The engine's two entry points
(:func:`~daqing_sim.game.engine.play_batch_k`, :func:`~daqing_sim.game.engine.step_deal_k`)
borrow their arguments on entry and return only integers.
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


def _borrow_value(context, builder, ty, val):
    if isinstance(ty, types.Array):
        src = context.make_array(ty)(context, builder, val)
        dst = context.make_array(ty)(context, builder)
        context.populate_array(
            dst, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None
        )
        return dst._getvalue()
    if isinstance(ty, types.BaseTuple):
        out = context.get_constant_undef(ty)
        for i, t in enumerate(ty.types):
            item = _borrow_value(context, builder, t, builder.extract_value(val, i))
            out = builder.insert_value(out, item, i)
        return out
    return val


@intrinsic
def borrowed(typingctx, x):
    """``x`` (an array, or a tuple or namedtuple of arrays, nested) as views that share its data
    but carry no reference count; other values pass through unchanged. Jitted code only.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def first_plus_one(a):
    ...     v = borrowed(a)
    ...     v[0] += 1
    ...     return a[0]
    >>> int(first_plus_one(np.zeros(3, dtype=np.int64)))
    1
    """

    def codegen(context, builder, sig, args):
        return _borrow_value(context, builder, sig.args[0], args[0])

    return x(x), codegen
