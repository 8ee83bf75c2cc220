"""The no-chi family's settlement: classic Daqing's (its wins are Daqing's, 2^N per loser)."""

from __future__ import annotations

from typing import Any

from daqing_sim.families.daqing import scoring as daqing
from daqing_sim.rules import RuleSet


def settle_detail(*, rules: RuleSet, **how: Any) -> daqing.Settlement:
    """Daqing's :func:`~daqing_sim.families.daqing.scoring.settle_detail` under its classic rules
    (the no-chi family has no flags: the Daqing flags keep their classic values)."""
    return daqing.settle_detail(rules=RuleSet(), **how)
