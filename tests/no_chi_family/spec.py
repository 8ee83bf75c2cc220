"""The no-chi family's spec: Daqing's table, wall, bao, fans, frame and players, no flags of its
own (the Daqing flags hold their classic values), and its own words in the replay and viewer."""

from __future__ import annotations

from dataclasses import replace

from daqing_sim.families.daqing.spec import SPEC as DAQING

SPEC = replace(
    DAQING,
    name="no_chi",
    title="no-chi",
    rules_page="tests/no_chi_family/spec.py",
    flags=(),
    check=None,
    players=("greedy", "random"),
    default_field=("greedy",) * 4,
    player_seconds=(),
    state_type="NoChiDealState",
    labels=replace(DAQING.labels, rules_note=" (no-chi rules: 不吃, pengs and kongs only)"),
)
