"""The deal loop's protocol (daqing_sim.families.hooks): every family's deal module supplies each
step with the protocol's parameters and its state type, and the loop names no family."""

from __future__ import annotations

import ast
import inspect
from collections import namedtuple
from pathlib import Path

import pytest
from numba import njit
from numba.core.errors import TypingError

from daqing_sim.families import FAMILY_PACKAGES, family_module
from daqing_sim.families import hooks as fh
from daqing_sim.game import engine

ENGINE = Path(engine.__file__)


@pytest.mark.parametrize("family", sorted(FAMILY_PACKAGES))
def test_each_family_supplies_every_step_with_the_protocols_parameters(family):
    deal = family_module(family, "deal")
    assert isinstance(deal.STATE, type) and hasattr(deal.STATE, "_fields"), "deal.STATE: a namedtuple class"
    for hook, (params, _) in fh.PROTOCOL.items():
        step = getattr(deal, f"step_{hook}", None)
        assert step is not None, f"{deal.__name__} has no step_{hook}"
        got = list(inspect.signature(step).parameters)
        assert got == [p.strip() for p in params.split(",")], (deal.__name__, hook)


def test_the_states_tell_the_families_apart():
    states = [family_module(f, "deal").STATE for f in FAMILY_PACKAGES]
    assert len(set(states)) == len(states)


def test_a_state_no_family_plays_is_refused_by_name():
    Other = namedtuple("Other", ("conc",))

    @njit
    def seats(st):
        return fh.seats(st)

    with pytest.raises(TypingError, match="no rule family's deal.STATE"):
        seats(Other(1))


def _source_of(name: str) -> str:
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_source_segment(ENGINE.read_text(encoding="utf-8"), node)


def test_the_deal_loop_names_no_family():
    """The loop reaches a family only through the hooks (``fh.``): no family's name, module or
    state argument (the ``bj``/``bo``/``tp`` of before the protocol)."""
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module] + [
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    ]
    for family in FAMILY_PACKAGES:
        assert not any(m.startswith(FAMILY_PACKAGES[family]) for m in imported), family
    for name in ("_play_deal", "play_batch_k", "step_deal_k"):
        src = _source_of(name)
        params = {a.arg for a in ast.parse(src).body[0].args.args}
        assert not params & {"bj", "bo", "tp"}, name
        for word in ("beijing", "two_player", "bjd.", "tpd.", "pb."):
            assert word not in src, (name, word)


def test_the_loops_decorator_counts_no_references_in_its_own_code():
    """The loop's own code is lowered without reference counting: no ``NRT_decref`` call for the
    array views it picks and hands on (plain ``njit`` has them)."""
    import numpy as np

    from daqing_sim.jit import njit_no_refs_loop

    @njit
    def first(x, i):
        return x[i]

    def sum_of_firsts(a, b, n):
        s = 0.0
        for i in range(n):
            row = a[i % 2] if i > 1 else b[i % 2]
            s += first(row, 0)
        return s

    counted = njit(sum_of_firsts)
    uncounted = njit_no_refs_loop(sum_of_firsts, cache=False)
    a, b = np.zeros((2, 2)), np.ones((2, 2))
    assert uncounted(a, b, 5) == counted(a, b, 5) == 2.0

    def decrefs(fn):
        return next(iter(fn.inspect_llvm().values())).count("call void @NRT_decref")

    assert decrefs(counted) > 0
    assert decrefs(uncounted) == 0


def test_the_loops_callees_may_allocate():
    """A function the loop calls is compiled with reference counting, so it may allocate a working
    array (numba's plain ``_nrt=False`` would be inherited by it and refuse ``np.zeros``)."""
    import numpy as np

    from daqing_sim.jit import njit_no_refs_loop

    @njit
    def total_of_zeros(n):
        return np.zeros(n).sum() + n

    def loop(n):
        return total_of_zeros(n)

    assert njit_no_refs_loop(loop, cache=False)(3) == 3.0


def _package_caches_naming(word: bytes) -> list[str]:
    """numba's cache indexes of the package's kernels whose text holds ``word``."""
    import numba

    import daqing_sim

    roots = [Path(numba.config.CACHE_DIR)] if numba.config.CACHE_DIR else [Path(daqing_sim.__file__).parent]
    return [str(f) for root in roots for f in root.rglob("*.nbi") if word in f.read_bytes()]


def test_a_family_outside_the_package_plays_through_the_loop(monkeypatch):
    """A family whose deal module lives outside the package (``tests/loop_family``: Daqing's steps
    but no claims) plays through ``ds.simulate`` with one registry entry and no engine edit: on the
    same walls its hands all stay concealed, where Daqing's do not, and it still wins. The kernels
    compiled for its state type are not cached on disk: a cache index naming a module outside the
    package breaks every later process that loads it."""
    from numba.core.caching import NullCache

    import daqing_sim as ds
    from daqing_sim.families.daqing import deal as daqing_deal
    from daqing_sim.game import simulate as sim
    from daqing_sim.game.state import new_deal_state

    rules = ds.RuleSet(require_open=False)  # no claims: no open meld before declaring ready
    seats = ("greedy", "greedy", "random", "expert")
    daqing = ds.simulate(300, seed=11, rules=rules, strategies=seats, n_jobs=1)
    monkeypatch.setitem(FAMILY_PACKAGES, "no_claims", "loop_family")
    state = family_module("no_claims", "deal")

    def no_claims_state(family):
        st, obs = new_deal_state(family)  # the observation shares the state's arrays
        return state.new_state(st._asdict()), obs

    monkeypatch.setattr(sim, "new_deal_state", no_claims_state)
    # the kernels that take the state, compiled for its type in this process only
    for kernel in (engine.play_batch_k, engine._play_deal, engine.final_tiles, daqing_deal.record):
        monkeypatch.setattr(kernel, "_cache", NullCache())
    no_claims = ds.simulate(300, seed=11, rules=rules, strategies=seats, n_jobs=1)
    concealed = [f"concealed_{s}" for s in range(4)]
    assert (daqing[concealed] == 0).any(axis=None)
    assert (no_claims[concealed] == 1).all(axis=None)
    assert (no_claims["winner"] >= 0).sum() > 30
    assert not no_claims["winner"].equals(daqing["winner"])
    assert _package_caches_naming(b"loop_family") == []
