"""The fitted weights of every family's ``expert2`` (``players/expert2_weights.json``, written by
``tools/fit_expert2.py fit``): one shared reader, so no family imports another's player."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_weights(family: str) -> dict[str, Any]:
    """The shipped fitted weights of ``family`` (knobs, the command, data, seed and commit).

    >>> sorted(load_weights("daqing"))[:3]
    ['commit', 'data', 'fitted_by']
    """
    text = resources.files("daqing_sim.players").joinpath("expert2_weights.json").read_text(encoding="utf-8")
    return json.loads(text)[family]


__all__ = ["load_weights"]
