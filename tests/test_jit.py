"""``njit_no_refs``: the hottest kernels compile without reference counting, which only a
kernel that allocates nothing may do."""

import numpy as np
import pytest

from daqing_sim.jit import njit_no_refs


def _sum_row(a, i):
    s = 0
    for x in a[i]:  # a row view: no reference counted
        s += x
    return s


def _fresh(n):
    return np.zeros(n).sum()


def test_a_kernel_without_allocation_runs():
    a = np.arange(12).reshape(3, 4)
    assert njit_no_refs(_sum_row)(a, 1) == 4 + 5 + 6 + 7


def test_a_kernel_that_allocates_fails_to_compile():
    with pytest.raises(Exception, match="(?i)no implementation of function .*zeros"):
        njit_no_refs(_fresh)(3)


def _compiled_names(run) -> list[str]:
    """The functions numba compiles while ``run()`` runs."""
    from numba.core import event

    names: list[str] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            names.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        run()
    finally:
        event.unregister("numba:compile", listener)
    return names


def test_an_inlined_hook_is_typed_but_never_compiled_on_its_own():
    """numba's ``overload(inline="always")`` compiles each implementation in full while typing the
    call (the deal loop's 22 steps: about 7 s of a cold Daqing compile); ``overload_inline`` types
    it only. Plain ``overload`` is the control: its implementation shows up as a compile."""
    from numba import njit
    from numba.extending import overload

    from daqing_sim.jit import overload_inline

    def hook_a(x):
        raise NotImplementedError

    def hook_b(x):
        raise NotImplementedError

    def step_a(x):
        return x * 3 + 1

    def step_b(x):
        return x * 3 + 1

    overload_inline(hook_a)(lambda x: step_a)
    overload(hook_b, inline="always")(lambda x: step_b)
    out: list[int] = []
    names = _compiled_names(lambda: out.extend([njit(lambda v: hook_a(v))(4), njit(lambda v: hook_b(v))(4)]))
    assert out == [13, 13]
    assert "step_b" in names  # numba's own compiles the implementation...
    assert "step_a" not in names  # ...ours only types and inlines it
