"""The deal's integer layouts (daqing_sim/layout.py): fields laid end to end, used by the kernels."""

from __future__ import annotations

import pytest

import daqing_sim.layout as L
from daqing_sim.game import engine, state
from daqing_sim.players import observation


@pytest.mark.parametrize("layout", L.LAYOUTS, ids=lambda x: x.what)
def test_fields_tile_the_array_without_gaps_or_overlaps(layout):
    covered = []
    for name, width in layout.fields:
        start = layout.offset(name)
        covered.extend(range(start, start + width))
        assert layout.width(name) == width
    assert covered == list(range(layout.size))


def test_kernel_modules_use_the_layouts():
    assert engine.N_OUT == L.RESULT_ROW.size and engine.N_CTL == L.CONTROL.size
    assert state.N_RESULT == L.DEAL_RESULT.size and observation.N_PUB == L.PUBLIC_VIEW.size
    # the last field of each layout ends the array: nothing hides after it
    for layout in L.LAYOUTS:
        name, width = layout.fields[-1]
        assert layout.offset(name) + width == layout.size
    # every O_ constant is the offset of its field (snake case of the name)
    for name, _ in L.RESULT_ROW.fields:
        assert getattr(L, "O_" + name.upper()) == L.RESULT_ROW.offset(name)
    for name, _ in L.PUBLIC_VIEW.fields:
        assert getattr(L, "P_" + name.upper()) == L.PUBLIC_VIEW.offset(name)


def test_a_field_added_moves_every_later_offset():
    base = L.Layout("x", [("a", 1), ("b", 4), ("c", 2)])
    grown = L.Layout("x", [("a", 1), ("family_field", 3), ("b", 4), ("c", 2)])
    assert grown.offset("b") == base.offset("b") + 3 and grown.size == base.size + 3


def test_bad_layouts():
    with pytest.raises(ValueError, match="appears twice"):
        L.Layout("x", [("a", 1), ("a", 2)])
    with pytest.raises(ValueError, match="width of at least 1"):
        L.Layout("x", [("a", 0)])
