"""The decorators of the hottest kernels: :func:`njit_no_refs`, and :func:`njit_no_refs_loop` for the
deal loop; :func:`overload_inline` for the loop's family hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit
from numba.core import types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import AnalysisPass, register_pass
from numba.core.targetconfig import ConfigStack
from numba.core.typed_passes import AnnotateTypes
from numba.core.typing.templates import infer, infer_global, make_overload_template
from numba.core.untyped_passes import FixupArgs


def njit_no_refs(fn: Callable[..., Any]) -> Any:
    """``njit(cache=True)`` without numba's reference counting, for kernels that allocate no
    array and return none: numba counts a reference to every array argument at each call (the
    hand tables ``tabs`` alone hold 13), an atomic operation each way, which cost the greedy
    players about a third of their time. A kernel that allocates fails to compile with it."""
    return njit(cache=True, _nrt=False)(fn)


@register_pass(mutates_CFG=False, analysis_only=True)
class _CalleesCountReferences(AnalysisPass):
    """From here on, functions compiled for this one's calls count references as usual."""

    _name = "daqing_callees_count_references"

    def __init__(self) -> None:
        AnalysisPass.__init__(self)

    def run_pass(self, state) -> bool:
        ConfigStack().top().nrt = True  # the compiler's copy of this function's flags, not them
        return False


@register_pass(mutates_CFG=False, analysis_only=True)
class _OwnCodeCountsNoReferences(AnalysisPass):
    """Back to this function's own setting before it is lowered."""

    _name = "daqing_own_code_counts_no_references"

    def __init__(self) -> None:
        AnalysisPass.__init__(self)

    def run_pass(self, state) -> bool:
        ConfigStack().top().nrt = False
        return False


class _NoRefsLoopCompiler(CompilerBase):
    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(_CalleesCountReferences, FixupArgs)
        pm.add_pass_after(_OwnCodeCountsNoReferences, AnnotateTypes)
        pm.finalize()
        return [pm]


def njit_no_refs_loop(fn: Callable[..., Any], cache: bool = True) -> Any:
    """``njit`` without reference counting in ``fn``'s own code (its inlined functions included),
    the functions it calls compiled as usual.

    For the deal loop, whose family steps are inlined and take the whole state: numba would count
    a reference to each of the state's arrays on the way in and out of every step. Plain
    ``_nrt=False`` is not enough: numba hands it down to every function first compiled for the
    call (its ``ConfigStack``), so a callee that allocates a working array would fail to compile,
    or not, depending on which caller compiled it first. ``fn`` itself must not allocate an array
    nor keep a view beyond its call (its arrays are its caller's).

    Parameters
    ----------
    fn : callable
        The function to compile.
    cache : bool
        Cache the compiled code on disk (``njit(cache=True)``).

    Returns
    -------
    numba dispatcher
        ``fn`` compiled on first call.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def total(n):
    ...     return np.zeros(n).sum() + n  # a callee may allocate
    >>> def loop(a):
    ...     row = a[1]
    ...     return row[0] + total(2)
    >>> float(njit_no_refs_loop(loop, cache=False)(np.ones((2, 2))))
    3.0
    """
    return njit(cache=cache, _nrt=False, pipeline_class=_NoRefsLoopCompiler)(fn)


def overload_inline(func: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``numba.extending.overload(func, inline="always")`` whose implementations are typed and
    inlined but never compiled as functions of their own.

    numba's inlined overload compiles each implementation in full (lowering and LLVM included)
    while typing the call, only to throw the machine code away and inline the typed IR (numba PR
    6856, "Avoid recompiling inlined overload impl", was never merged). For the deal loop's 22
    family steps that was about 7 of a cold Daqing compile's 60 CPU seconds. Here the
    implementation's dispatcher may not compile, so typing stops at its type inference, which the
    inliner needs anyway.

    Parameters
    ----------
    func : callable
        The Python stub that jitted code calls.

    Returns
    -------
    callable
        A decorator for the typing function, as ``overload``'s: it receives the argument types and
        returns the implementation (a plain Python function) or ``None``.

    Examples
    --------
    >>> from numba import njit
    >>> def twice(x):
    ...     raise NotImplementedError
    >>> @overload_inline(twice)
    ... def _twice(x):
    ...     return lambda x: 2 * x
    >>> njit(lambda x: twice(x) + 1)(20)
    41
    """

    def decorate(typing: Callable[..., Any]) -> Callable[..., Any]:
        base = make_overload_template(
            func, typing, {"no_cpython_wrapper": True, "nopython": True}, True, "always"
        )

        class _TypedOnly(base):
            def _get_jit_decorator(self):
                jitter = super()._get_jit_decorator()

                def typed_only(**options):
                    decorator = jitter(**options)

                    def wrap(pyfunc):
                        dispatcher = decorator(pyfunc)
                        # no signature is ever compiled: numba types the call from the IR
                        dispatcher._can_compile = False
                        return dispatcher

                    return wrap

                return typed_only

        infer(_TypedOnly)
        infer_global(func, types.Function(_TypedOnly))
        return typing

    return decorate
